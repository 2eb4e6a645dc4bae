import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Installing, the config file, themes, todo.txt and `--list` for scripts: the real binary.
@Suite("A finished tool", .serialized)
struct FinishedToolTests {
    /// The repository (where the Makefile is).
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func makeInstallPutsEveryFileInPlaceAndUninstallRemovesThem() throws {
        let folder = TemporaryFolder()
        let destination = folder.path("stage")
        let make = ["make", "-s", "-C", root, "DESTDIR=\(destination)", "PREFIX=/usr", "BIN=\(HotTaskBinary.url.path)"]
        let installed = runProcess(make + ["install"], timeout: 60)
        #expect(installed.status == 0, "\(installed.stderr)")
        let files = [
            "bin/hottask", "share/man/man1/hottask.1", "share/bash-completion/completions/hottask",
            "share/zsh/site-functions/_hottask", "share/fish/vendor_completions.d/hottask.fish",
        ].map { destination + "/usr/" + $0 }
        for file in files {
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            #expect(size > 0, "\(file) missing or empty")
        }
        #expect(FileManager.default.isExecutableFile(atPath: files[0]))
        #expect(fileText(files[2])?.contains("--add") == true)
        #expect(fileText(files[3])?.contains("#compdef hottask") == true)
        #expect(fileText(files[4])?.contains("complete -c hottask -l import -r -F") == true)
        let removed = runProcess(make + ["uninstall"], timeout: 60)
        #expect(removed.status == 0, "\(removed.stderr)")
        for file in files { #expect(!FileManager.default.fileExists(atPath: file), "\(file) left behind") }
    }

    @Test func aBadConfigIsAWarningOnStderrAndChangesNothingElse() {
        let folder = TemporaryFolder()
        let config = folder.write("theme = \"light\"\n[keys]\ntoggle = \"x\"\ndelete = \"x\"\n", to: "config.toml")
        expectRun(
            ["--file", folder.storePath, "--config", config, "--add", "Buy milk"], stdout: "Added to Top Priority: Buy milk\n",
            stderr:
                "hottask: warning: config \(folder.path)/config.toml line 4: key 'x' is bound to both toggle and delete; [keys] not used: the standard keys\n"
        )
        expectRun(
            ["--file", folder.storePath, "--config", folder.path("nope.toml"), "--list"],
            stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Buy milk\nBonus (0)\n  (none)\n",
            stderr: "hottask: warning: config \(folder.path)/nope.toml: no such file; using the defaults\n")
    }

    @Test func theConfigIsFoundUnderXDGConfigHomeAndSetsTheDefaultSection() {
        let folder = TemporaryFolder()
        _ = folder.write("", to: "x")
        try? FileManager.default.createDirectory(atPath: folder.path("config/hottask"), withIntermediateDirectories: true)
        _ = folder.write("default_section = \"bonus\"\n", to: "config/hottask/config.toml")
        let environment = ["XDG_CONFIG_HOME": folder.path("config")]
        expectRun(["--file", folder.storePath, "--add", "Walk the dog"], environment: environment, stdout: "Added to Bonus: Walk the dog\n")
        expectRun(
            ["--file", folder.storePath, "--add", "Call mom", "--priority"], environment: environment, stdout: "Added to Top Priority: Call mom\n")
    }

    @Test func todoTxtImportsAndExportsAndRoundTrips() throws {
        let folder = TemporaryFolder()
        let text = """
            (A) 2026-11-01 Call mom @phone
            x 2026-11-20 2026-11-01 Buy milk +groceries pri:A
            (C) 2026-11-03 Read a book
            x 2026-11-21 2026-11-04 Walk the dog

            """
        let source = folder.write(text, to: "todo.txt")
        expectRun(
            ["--file", folder.storePath, "--import", source],
            stdout: "Imported from todo.txt \(folder.path)/todo.txt: added 4, updated 0, unchanged 0, skipped 0\n")
        expectRun(
            ["--file", folder.storePath, "--import", source],
            stdout: "Imported from todo.txt \(folder.path)/todo.txt: added 0, updated 0, unchanged 4, skipped 0\n")
        let exported = expectRun(
            ["--file", folder.storePath, "--export", "-", "--export-format", "todotxt"],
            stdout:
                "(A) 2026-11-01 Call mom @phone id:42a03ad8\nx 2026-11-20 2026-11-01 Buy milk +groceries pri:A id:8edeff38\n(C) 2026-11-03 Read a book id:8aa91734\nx 2026-11-21 2026-11-04 Walk the dog id:c0c9cb75\n"
        )
        let withoutTags = exported.stdout.replacingOccurrences(of: #" id:[0-9a-f]{8,}"#, with: "", options: .regularExpression)
        // Every line comes back as it was, (C) included (kept aside for the export back).
        #expect(withoutTags == text)
        let file = folder.path("out.txt")
        expectRun(
            ["--file", folder.storePath, "--export", file, "--export-format", "todotxt"], stdout: "Exported 4 tasks to \(folder.path)/out.txt\n")
        #expect(fileText(file) == exported.stdout)
        expectRun(
            ["--file", folder.storePath, "--list", "--export-format", "todotxt"],
            stderr: "hottask: --export-format goes with --export.\n", status: 64
        )
    }

    @Test func listIsPlainInAPipeAndStyledOnATerminalUnlessNoColor() {
        let folder = TemporaryFolder()
        _ = runHotTask(["--file", folder.storePath, "--add", "Buy milk", "--add", "Call mom"])
        _ = runHotTask(["--file", folder.storePath, "--done", "1"])
        expectRun(
            ["--file", folder.storePath, "--list"],
            stdout: "1 down 1 to go!\n\nTop Priority (2)\n  1. [x] Buy milk\n  2. [ ] Call mom\nBonus (0)\n  (none)\n")
        // `script` gives the command a terminal of its own.
        let command = "'\(HotTaskBinary.url.path)' --file '\(folder.storePath)' --list"
        // NO_COLOR may be set around the tests (swift test sets it); empty means unset.
        let styled = runProcess(["script", "-qec", command, "/dev/null"], environment: ["TERM": "xterm-256color", "NO_COLOR": ""])
        #expect(styled.stdout.contains("\u{1B}[1mTop Priority (2)\u{1B}[0m"))
        #expect(styled.stdout.contains("\u{1B}[2m  1. [x] Buy milk\u{1B}[0m"))
        let noColor = runProcess(["script", "-qec", command, "/dev/null"], environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        #expect(noColor.stdout.contains("Top Priority (2)"))
        #expect(!noColor.stdout.contains("\u{1B}["))
    }

    @Test func theSampleTasksAreAValidStore() throws {
        let list = try TaskStore(path: root + "/Assets/sample-tasks.json").load()
        #expect(list.count == 4)
        #expect(list.tasks(in: .priority).count == 2)
        #expect(list.tasks(in: .bonus).count == 2)
        #expect(list.all.filter(\.completed).count == 1)
    }

    // MARK: In the real terminal

    @Test func aConfigThatMapsToggleToTCompletesATaskWithT() throws {
        let folder = TemporaryFolder()
        let config = folder.write("theme = \"mono\"\n[keys]\ntoggle = \"t\"\n", to: "config.toml")
        let session = try TmuxSession(seededCaptions: ["Buy milk"], arguments: ["--config", config])
        session.waitForText("Buy milk")
        session.press("Tab")
        session.type("x")
        session.waitForText("Press Tab or i to type a new task")
        session.type("t")
        session.waitForText("[x] Buy milk")
        session.waitForStore("hold the completed task") { $0.contains("\"completed\": true") }
        session.type("?")
        session.waitForScreen("the help with t") { $0.contains("│ t ") && $0.contains("done / not done") }
        session.expectScreenSnapshot()
        session.press("C-c")
        session.waitForText("exited with 0")
    }

    @Test func aBrokenConfigShowsItsMessageInTheFooterAndTheAppUsesTheDefaults() throws {
        let folder = TemporaryFolder()
        let config = folder.write("[keys]\ntoggle = \"spcae\"\n", to: "config.toml")
        let session = try TmuxSession(seededCaptions: ["Buy milk"], arguments: ["--config", config])
        // Listed over the list until the next key, naming the file briefly (the full path is for
        // the command line's stderr), and what was done: the standard keys.
        let screen = session.waitForText("config.toml line 2: unknown key name")
        #expect(screen.components(separatedBy: "\n").contains { $0.hasPrefix("│ config.toml line 2: unknown key name \"spcae\"") })
        #expect(screen.contains("[keys] not used: the"), "the standard keys")
        #expect(screen.components(separatedBy: "\n").contains { $0.hasPrefix("The config file has a problem (above; F1 shows it again)") })
        session.press("Tab")
        session.press("Space")
        session.waitForText("[x] Buy milk")
        session.expectScreenSnapshot()
        session.press("q")
        session.waitForText("exited with 0")
    }
}
