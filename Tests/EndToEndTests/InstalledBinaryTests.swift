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

    /// The loader looks for libraries where the system keeps them, never beside the binary: in
    /// a folder another user can write (the binary unpacked in /tmp), a planted libcurl or
    /// libncursesw would run as whoever starts HotTask.
    @Test func librariesBesideTheBinaryAreNeverLoaded() throws {
        let installed = try requireVariable("HOTTASK_INSTALLED") + "/bin/hottask"
        let folder = TemporaryFolder()
        let bin = folder.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: installed, toPath: bin + "/hottask")
        try FileManager.default.createSymbolicLink(atPath: bin + "/hottask-sync", withDestinationPath: "hottask")
        // Not libraries at all: loading either would fail the command ("file too short").
        for planted in ["libcurl.so.4", "libncursesw.so.6", "libtinfo.so.6"] { _ = folder.write("", to: "bin/" + planted) }
        let config = folder.write("[sync]\nurl = \"http://127.0.0.1:9/tasks/\"\nusername = \"u\"\npassword_command = \"echo p\"\n", to: "config.toml")
        let store = folder.storePath
        expectOutput(
            HotTaskRun(runProcess([bin + "/hottask", "--file", store, "--add", "Safe"])), stdout: "Added to Top Priority: Safe\n",
            command: "hottask --add")
        let sync = runProcess([bin + "/hottask", "--file", store, "--config", config, "--sync"])
        #expect(sync.status == 5)
        #expect(sync.stderr.contains("127.0.0.1:9 refused the connection"), "\(sync.stderr)")
    }
}
