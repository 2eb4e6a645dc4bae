import Foundation
import TestSupport
import Testing

/// The packages `make deb` and `make dist` build, as people install them. `make test` builds
/// both from the release build it tests (HOTTASK_DEB, HOTTASK_DIST); the .deb is checked by
/// lintian, installed with dpkg on this machine (CI runs as root), used, and removed again.
@Suite("the .deb and the tarball", .serialized)
struct PackageTests {
    /// What the installed package holds, as `dpkg -L` lists it (links last).
    static let files = """
        /.
        /usr
        /usr/bin
        /usr/bin/hottask
        /usr/share
        /usr/share/bash-completion
        /usr/share/bash-completion/completions
        /usr/share/bash-completion/completions/hottask
        /usr/share/doc
        /usr/share/doc/hottask
        /usr/share/doc/hottask/README.md.gz
        /usr/share/doc/hottask/changelog.gz
        /usr/share/doc/hottask/copyright
        /usr/share/fish
        /usr/share/fish/vendor_completions.d
        /usr/share/fish/vendor_completions.d/hottask.fish
        /usr/share/man
        /usr/share/man/man1
        /usr/share/man/man1/hottask-sync.1.gz
        /usr/share/man/man1/hottask.1.gz
        /usr/share/zsh
        /usr/share/zsh/vendor-completions
        /usr/share/zsh/vendor-completions/_hottask
        /usr/bin/hottask-sync

        """

    @Test("lintian finds no error and no warning in the .deb") func lintian() throws {
        let deb = try requireVariable("HOTTASK_DEB")
        try requireTool("lintian", from: "lintian")
        let run = HotTaskRun(runProcess(["lintian", "--fail-on", "error,warning", deb], timeout: 300))
        // lintian says this much when run as root, as CI runs it.
        expectOutput(run, stderr: getuid() == 0 ? "running with root privileges is not recommended!\n" : "", command: "lintian \(deb)")
    }

    @Test("dpkg -i installs it, the commands work, and dpkg -r leaves nothing behind") func installAndRemove() throws {
        let deb = try requireVariable("HOTTASK_DEB")
        try requireTool("dpkg", from: "dpkg")
        let installed = runProcess(["dpkg-query", "-W", "-f=${db:Status-Status}", "hottask"])
        try #require(
            installed.stdout != "installed", "hottask is installed on this machine already; the test would replace it (dpkg -r hottask first)")

        expectOutput(HotTaskRun(runProcess(asRoot + ["dpkg", "-i", deb], timeout: 120)), stdout: "...\n", command: "dpkg -i \(deb)")
        defer { _ = runProcess(asRoot + ["dpkg", "-r", "hottask"], timeout: 120) }
        expectOutput(HotTaskRun(runProcess(["dpkg", "-L", "hottask"])), stdout: Self.files, command: "dpkg -L hottask")
        // One binary: the sync helper is a link to it, and libcurl, which it loads, is a dependency.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/usr/bin/hottask-sync") == "hottask")
        #expect(runProcess(["dpkg-query", "-W", "-f=${Depends}", "hottask"]).stdout.contains("libcurl4 (>= 7.85.0)"))
        // Time zones come from the system's zoneinfo files, not from a copy in the binary.
        #expect(runProcess(["dpkg-query", "-W", "-f=${Depends}", "hottask"]).stdout.hasSuffix(", tzdata"))
        // Issue 48: at most 25 MB installed (dpkg counts KiB); 118 MB at first, 32 MiB with ICU's trimmed data.
        let kibibytes = try #require(Int(runProcess(["dpkg-query", "-W", "-f=${Installed-Size}", "hottask"]).stdout))
        #expect(kibibytes * 1024 <= 25_000_000, "hottask is \(kibibytes) KiB installed")

        let folder = TemporaryFolder()
        let version = try #require(HotTaskBinary.version)
        expectOutput(HotTaskRun(runProcess(["/usr/bin/hottask", "--version"])), stdout: "hottask \(version)\n", command: "hottask --version")
        expectOutput(
            HotTaskRun(runProcess(["/usr/bin/hottask", "--file", folder.storePath, "--add", "Installed"])),
            stdout: "Added to Top Priority: Installed\n", command: "hottask --add")
        expectOutput(
            HotTaskRun(runProcess(["/usr/bin/hottask", "--file", folder.storePath, "--list"])),
            stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Installed\nBonus (0)\n  (none)\n",
            command: "hottask --list")

        expectOutput(HotTaskRun(runProcess(asRoot + ["dpkg", "-r", "hottask"], timeout: 120)), stdout: "...\n", command: "dpkg -r hottask")
        let left = Self.files.split(separator: "\n").map(String.init).filter { $0.hasPrefix("/usr/bin/") || $0.contains("hottask") }
            .filter { FileManager.default.fileExists(atPath: $0) }
        #expect(left == [], "dpkg -r left these behind")
        #expect(runProcess(["dpkg-query", "-W", "-f=${db:Status-Status}", "hottask"]).stdout != "installed")
        expectOutput(
            HotTaskRun(runProcess(["dpkg-query", "-W", "hottask"])), stderr: "dpkg-query: no packages found matching hottask\n", status: 1,
            command: "dpkg-query -W hottask")
    }

    @Test("the tarball's install.sh installs into a prefix and --uninstall takes everything out again") func tarball() throws {
        let tarball = try requireVariable("HOTTASK_DIST")
        let version = try #require(HotTaskBinary.version)
        let folder = TemporaryFolder()
        expectOutput(HotTaskRun(runProcess(["tar", "-xzf", tarball, "-C", folder.path])), command: "tar -xzf \(tarball)")
        let script = folder.path("hottask-\(version)-linux-x86_64/install.sh")
        let prefix = folder.path("prefix")
        expectOutput(
            HotTaskRun(runProcess([script, "--prefix", prefix])), stdout: "installed HotTask in \(prefix): \(prefix)/bin/hottask\n",
            command: "install.sh")
        expectOutput(HotTaskRun(runProcess([prefix + "/bin/hottask", "--version"])), stdout: "hottask \(version)\n", command: "hottask --version")
        let installed = runProcess(["find", prefix, "!", "-type", "d"]).stdout.split(separator: "\n").map { String($0.dropFirst(prefix.count)) }
            .sorted()
        #expect(
            installed == [
                "/bin/hottask", "/bin/hottask-sync", "/share/bash-completion/completions/hottask", "/share/fish/vendor_completions.d/hottask.fish",
                "/share/man/man1/hottask-sync.1", "/share/man/man1/hottask.1", "/share/zsh/site-functions/_hottask",
            ])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/bin/hottask-sync") == "hottask")
        expectOutput(
            HotTaskRun(runProcess([script, "--prefix", prefix, "--uninstall"])), stdout: "removed HotTask from \(prefix)\n",
            command: "install.sh --uninstall")
        #expect(runProcess(["find", prefix, "!", "-type", "d"]).stdout == "", "install.sh --uninstall left files")
    }
}
