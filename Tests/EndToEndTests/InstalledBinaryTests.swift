import Foundation
import TestSupport
import Testing

/// The binary `make install` puts in place runs without the Swift toolchain: `make test`
/// installs the static release build into its run folder (HOTTASK_INSTALLED), and this test
/// runs it with /opt/swift hidden under an empty tmpfs in a mount namespace of its own. The
/// sync helper is the same binary by another name, and loads libcurl only when it syncs.
@Suite("the installed binary")
struct InstalledBinaryTests {
    @Test func itRunsWithTheToolchainHidden() throws {
        let bin = try requireVariable("HOTTASK_INSTALLED") + "/bin"
        let folder = TemporaryFolder()
        let store = folder.storePath
        // A sync to a closed port: hottask-sync must load (libcurl and all) to say it failed.
        let config = folder.write("[sync]\nurl = \"http://127.0.0.1:9/tasks/\"\nusername = \"u\"\npassword_command = \"echo p\"\n", to: "config.toml")
        // Root may mount in a new namespace; anyone else maps themselves to root in a user one.
        let unshare = getuid() == 0 ? ["unshare", "--mount"] : ["unshare", "--map-root-user", "--mount"]
        let script = """
            set -e
            mount -t tmpfs tmpfs /opt/swift
            ! ls /opt/swift/usr >/dev/null 2>&1
            '\(bin)/hottask' --version
            '\(bin)/hottask' --file '\(store)' --add 'Runs anywhere' --json --quiet | grep -q '"caption": "Runs anywhere"'
            '\(bin)/hottask' --file '\(store)' --list --ids
            status=0; '\(bin)/hottask' --file '\(store)' --config '\(config)' --sync 2>&1 || status=$?
            test "$status" = 5
            # Without libcurl every other command runs, and a sync says what to install.
            mount --bind /dev/null "$(readlink -f /usr/lib/x86_64-linux-gnu/libcurl.so.4)"
            '\(bin)/hottask' --file '\(store)' --list --ids >/dev/null
            status=0; '\(bin)/hottask' --file '\(store)' --config '\(config)' --sync 2>&1 || status=$?
            test "$status" = 5
            """
        let run = runProcess(unshare + ["sh", "-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("hottask 0.1.0\n"))
        #expect(run.stdout.contains("Runs anywhere"))
        #expect(run.stdout.contains("127.0.0.1:9 refused the connection"), "the sync did not say which server failed")
        // The loader names the file as its cache does (/lib or /usr/lib).
        let lastLine = run.stdout.split(separator: "\n").last ?? ""
        #expect(
            lastLine.hasPrefix(
                "hottask: sync with http://127.0.0.1:9/tasks/ failed: http://127.0.0.1:9/tasks/: sync needs libcurl, which cannot be loaded (/")
                && lastLine.hasSuffix("/libcurl.so.4: file too short); install the libcurl4 package; every local change is kept"), "\(run.stdout)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: bin + "/hottask-sync") == "hottask")
        let libraries = runProcess(["ldd", bin + "/hottask"]).stdout
        #expect(!libraries.contains("/opt/swift") && !libraries.contains("libswiftCore"), "\(libraries)")
        // libcurl and the ~30 libraries it brings are loaded by a sync alone, never at start-up.
        #expect(!libraries.contains("libcurl"), "\(libraries)")
    }
}
