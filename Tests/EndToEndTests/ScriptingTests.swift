import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The command line as a user switching from Taskwarrior or todo.txt-cli uses it in scripts:
/// real files, pipes, devices and the real peer programs (`task`, `jq`, bash completion).
@Suite("scripting: files, pipes, handles, formats")
struct ScriptingTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }
    private var binary: String { HotTaskBinary.url.path }

    private func hottask(_ args: String..., stdin: String? = nil) -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(["--file", store] + args, stdin: stdin)
    }

    /// Runs a shell command line; `$H` is hottask on this test's store.
    private func shell(_ script: String, environment: [String: String] = [:]) -> (status: Int32, stdout: String, stderr: String) {
        runProcess(["sh", "-c", "H() { '\(binary)' --file '\(store)' \"$@\"; }; " + script], environment: environment)
    }

    private func seed(_ list: TaskList = Fixtures.sampleList()) {
        folder.write(StoreDocument.encode(list), to: "tasks.json")
    }

    private func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    private func isJSONDocument(_ text: String) -> Bool {
        guard case .object(let root)? = try? JSONParser.parse(Array(text.utf8)), case .array? = root["tasks"] else { return false }
        return true
    }

    // MARK: Export never replaces what it writes to

    @Test func anExportThroughASymlinkReplacesTheTargetAndTheLinkStays() throws {
        seed()
        let target = folder.write("old\n", to: "real.json")
        let link = folder.path("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.json")
        let run = hottask("--export", link)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.json")
        #expect(isJSONDocument(fileText(target) ?? ""))
    }

    /// An export killed before its rename leaves its temp file; the next export to the same
    /// file removes it (its writer is dead), and leaves a live writer's temp file alone.
    @Test func anInterruptedExportsTempFileIsRemovedByTheNextExport() throws {
        try requireTool("strace", from: "strace")
        seed()
        let target = folder.path("out.json")
        let killed = runProcess(
            [
                "strace", "-qq", "-o", "/dev/null", "-e", "trace=rename", "-e", "inject=rename:error=EIO:signal=SIGKILL",
                HotTaskBinary.url.path, "--file", folder.storePath, "--export", target,
            ])
        #expect(killed.status == 128 + SIGKILL)
        func temps() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".out.json.tmp-") }
        }
        #expect(try temps().count == 1, "the killed export left its temp file")
        #expect(!FileManager.default.fileExists(atPath: target))
        // A temp file of a live writer (this test process) must survive.
        let live = folder.write("partial", to: ".out.json.tmp-\(getpid())-7")
        let run = hottask("--export", target)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try temps() == [".out.json.tmp-\(getpid())-7"])
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(isJSONDocument(fileText(target) ?? ""))
    }

    @Test func aNewExportIsPrivateAndAnExistingOneKeepsItsMode() throws {
        seed()
        let fresh = folder.path("new.json")
        #expect(shell("umask 022; H --export '\(fresh)'").status == 0)
        #expect(mode(fresh) == 0o600)
        let shared = folder.write("old\n", to: "shared.json")
        chmod(shared, 0o640)
        #expect(hottask("--export", shared).status == 0)
        #expect(mode(shared) == 0o640)
        let narrow = folder.write("old\n", to: "narrow.txt")
        chmod(narrow, 0o600)
        #expect(hottask("--export", narrow, "--export-format", "todotxt").status == 0)
        #expect(mode(narrow) == 0o600)
    }

    @Test func aNamedPipeIsWrittenThroughToItsReader() throws {
        seed()
        let pipe = folder.path("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        let received = folder.path("received")
        // The reader and the export run at once, as `hottask --export pipe & cat pipe` would.
        let run = shell("cat '\(pipe)' > '\(received)' & H --export '\(pipe)'; status=$?; wait; exit $status")
        #expect(run.status == 0, "\(run.stderr)")
        var info = stat()
        #expect(lstat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe was replaced")
        #expect(isJSONDocument(fileText(received) ?? ""))
    }

    @Test func aPipeNobodyReadsIsAnErrorNotAHangAndTheStoreIsNeverAnExportTarget() throws {
        seed()
        let pipe = folder.path("lonely")
        #expect(mkfifo(pipe, 0o600) == 0)
        let lonely = hottask("--export", pipe)
        #expect(lonely.status == 3 && lonely.stderr.contains("a pipe nobody is reading"), "\(lonely.stderr)")
        let before = fileBytes(store)
        let link = folder.path("innocent.txt")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
        // The side files too, made yet or not (an export over tasks.json.imported would be taken
        // for the last import's file by the next re-import).
        for target in [store, link, store + ".lock", store + ".journal", store + ".imported", store + ".sync"] {
            let run = hottask("--export", target, "--export-format", "todotxt")
            #expect(run.status == 3 && run.stderr.contains("the task store itself"), "\(run.stderr)")
        }
        #expect(fileBytes(store) == before)
        #expect(hottask("--add", "X", "--json", "--export", "-").status == 64)
        #expect(hottask("--list", "--export", "-").status == 64)
    }

    @Test func aFullDeviceIsAnErrorAndStaysADevice() throws {
        seed()
        let export = hottask("--export", "/dev/full")
        #expect(export.status == 3)
        #expect(export.stderr.contains("No space left on device"))
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        for command in ["H --export - > /dev/full", "H --list > /dev/full", "H --list --json > /dev/full"] {
            let run = shell(command)
            #expect(run.status == 3, "\(command)")
            #expect(run.stderr.contains("could not write to standard output: No space left on device"), "\(command): \(run.stderr)")
        }
    }

    @Test func exportingToDevStdoutWritesThroughTheShellsRedirection() throws {
        seed()
        let file = folder.write("kept\n", to: "appended.json")
        let run = shell("H --export /dev/stdout >> '\(file)'")
        #expect(run.status == 0, "\(run.stderr)")
        let text = fileText(file) ?? ""
        #expect(text.hasPrefix("kept\n") && isJSONDocument(String(text.dropFirst(5))))
    }

    @Test func aClosedPipeEndsQuietly() throws {
        seed(TaskList((0..<5_000).map { Fixtures.task("Task number \($0)", id: $0 + 1) }))
        let run = shell("H --list | head -n 1; H --export - | head -c 10 >/dev/null; H --export /dev/stdout --quiet | head -c 10 >/dev/null")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Get started"))
    }

    // MARK: stdout carries only data when data was asked for

    @Test func statusLinesMoveToStderrWhenStdoutCarriesData() throws {
        seed()
        let tw = folder.write(TaskwarriorSample.asArray, to: "tw.json")
        for command in ["H --add X --list --json", "H --import '\(tw)' --export -", "H --done 1 --export -", "H --add Y --json"] {
            let run = shell(command + " | jq -e .tasks >/dev/null")
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(!run.stderr.isEmpty, "\(command) said nothing of what it did")
        }
        let quiet = shell("H --add Z --list --json --quiet | jq -e .tasks >/dev/null")
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let quietAdd = hottask("--add", "W", "-q")
        #expect(quietAdd.status == 0 && quietAdd.stdout.isEmpty && quietAdd.stderr.isEmpty)
    }

    // MARK: Handles a script can trust

    @Test func theIdPrintedByAddJSONCompletesThatTaskAfterMoreAdds() throws {
        seed()
        let added = hottask("--add", "Pay rent", "--json")
        #expect(added.status == 0, "\(added.stderr)")
        let batch = try ImportBatch.parse(Array(added.stdout.utf8))
        let id = try #require(batch.tasks.first?.id.uuidString.lowercased())
        #expect(batch.tasks.map(\.caption) == ["Pay rent"])
        #expect(hottask("--add", "Something newer").status == 0)
        let done = hottask("--done", String(id.prefix(8)))
        #expect(done.stdout == "Completed: Pay rent\n", "\(done.stderr)")
        #expect(try TaskStore(path: store).load().task(withID: UUID(uuidString: id)!)?.completed == true)
    }

    @Test func listIDsShowHandlesThatWork() throws {
        seed()
        let list = hottask("--list", "--ids")
        let row = try #require(list.stdout.split(separator: "\n").first { $0.contains("Buy milk") })
        let id = try #require(row.split(separator: " ").first { $0.count >= 8 && $0.allSatisfy(\.isHexDigit) })
        #expect(hottask("--done", String(id)).stdout == "Completed: Buy milk\n")
    }

    @Test func eightDigitsAreAnIDPrefixNeverANumberAndAnAmbiguousPrefixNamesItsTasks() throws {
        func task(_ caption: String, _ id: String) -> TaskItem {
            TaskItem(id: UUID(uuidString: id)!, caption: caption, createdAt: Fixtures.baseDate)
        }
        // 42 tasks, so that a number 42 exists beside the id starting 00000042.
        let list = TaskList(
            [task("First", "abcd1234-1111-4000-8000-000000000001"), task("Second", "abcd1234-2222-4000-8000-000000000002")]
                + (3...41).map { Fixtures.task("Filler \($0)", id: $0) }
                + [task("Forty-two", "00000042-0000-4000-8000-000000000001")])
        seed(list)
        let fortyTwo = hottask("--delete", "00000042")
        #expect(fortyTwo.stdout == "Deleted: Forty-two\n", "\(fortyTwo.stderr)")
        let ambiguous = hottask("--done", "abcd1234")
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("abcd1234-1 'First'") && ambiguous.stderr.contains("abcd1234-2 'Second'"), "\(ambiguous.stderr)")
        #expect(try TaskStore(path: store).load().all.allSatisfy { !$0.completed })
    }

    // MARK: Switchers' basics

    @Test func editOpenAndFilterWorkFromTheShell() throws {
        seed()
        let before = fileBytes(store)
        let blank = hottask("--edit", "1", "   ")
        #expect(blank.status == 1 && fileBytes(store) == before)
        #expect(hottask("--edit", "1", "Call mum about Sunday").status == 0)
        let open = hottask("--list", "--open")
        #expect(open.stdout.contains("Call mum about Sunday"))
        #expect(!open.stdout.contains("[x]"))
        let filtered = hottask("--list", "--filter", "SUNDAY")
        #expect(filtered.stdout.contains("1. [ ] Call mum about Sunday"))
        #expect(filtered.stdout.split(separator: "\n").filter { $0.contains(". [") }.count == 1)
        let json = hottask("--list", "--open", "--json")
        let tasks = try ImportBatch.parse(Array(json.stdout.utf8)).tasks
        #expect(!tasks.isEmpty && tasks.allSatisfy { !$0.completed })
    }

    // MARK: Formats in and out

    @Test func todoTxtRoundTripsKeepIdentityAndAReImportChangesNothing() throws {
        seed()
        let file = folder.path("todo.txt")
        #expect(hottask("--export", file, "--export-format", "todotxt").status == 0)
        let again = hottask("--import", file)
        #expect(again.stdout.hasSuffix("added 0, updated 0, unchanged 3, skipped 0\n"), "\(again.stdout)")
        // Another app ticks a line off; the import completes that task, not a copy of it.
        var lines = (fileText(file) ?? "").split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("Buy milk") })
        lines[index] = "x 2026-11-23 " + lines[index].replacingOccurrences(of: "(A) ", with: "")
        folder.write(lines.joined(separator: "\n") + "\n", to: "todo.txt")
        let ticked = hottask("--import", file)
        #expect(ticked.stdout.hasSuffix("added 0, updated 1, unchanged 2, skipped 0\n"), "\(ticked.stdout)")
        #expect(try TaskStore(path: store).load().task(withID: Fixtures.id(1))?.completed == true)
        // Reopened here, then the same file again: the reopening stays.
        #expect(hottask("--undone", String(Fixtures.id(1).uuidString.lowercased().prefix(8))).status == 0)
        let unchanged = hottask("--import", file)
        #expect(unchanged.stdout.hasSuffix("added 0, updated 0, unchanged 3, skipped 0\n"), "\(unchanged.stdout)")
        let after = try TaskStore(path: store).load()
        #expect(after.task(withID: Fixtures.id(1))?.completed == false)
        #expect(after.count == 3)
        // A hand-written line with no date and no tag is the same task, and keeps its date.
        let undated = folder.write("Read a book\n", to: "undated.txt")
        let handWritten = hottask("--import", undated)
        #expect(handWritten.stdout.hasSuffix("added 0, updated 0, unchanged 1, skipped 0\n"), "\(handWritten.stdout)")
        #expect(try TaskStore(path: store).load().task(withID: Fixtures.id(3))?.createdAt == Fixtures.date(hours: 3))
    }

    @Test func todoTxtEditsFromAnotherAppMergeAndDeletedTasksStayDeleted() throws {
        #expect(hottask("--add", "Pay rent", "--add", "Buy milk", "--add", "Old idea").status == 0)
        let file = folder.path("todo.txt")
        #expect(hottask("--export", file, "--export-format", "todotxt").status == 0)
        #expect(hottask("--delete", "3").status == 0)  // Old idea
        // Another app: ticks Pay rent off, renames Buy milk, and adds a new "Buy milk".
        var lines = (fileText(file) ?? "").split(separator: "\n").map(String.init)
        let rent = try #require(lines.firstIndex { $0.contains("Pay rent") })
        lines[rent] = "x 2026-11-23 " + lines[rent].replacingOccurrences(of: "(A) ", with: "")
        let milk = try #require(lines.firstIndex { $0.contains("Buy milk") })
        lines[milk] = lines[milk].replacingOccurrences(of: "Buy milk", with: "Buy oat milk")
        lines.append("Buy milk")
        folder.write(lines.joined(separator: "\n") + "\n", to: "todo.txt")
        let run = hottask("--import", file)
        #expect(run.stdout.hasSuffix("added 1, updated 2, unchanged 0, skipped 1\n"), "\(run.stdout) \(run.stderr)")
        let list = try TaskStore(path: store).load()
        #expect(Set(list.all.map(\.caption)) == ["Pay rent", "Buy oat milk", "Buy milk"])
        #expect(list.all.first { $0.caption == "Pay rent" }?.completed == true)
        // An empty list exports and imports back as todo.txt.
        let emptyStore = folder.path("empty.json")
        let emptyFile = folder.path("empty.txt")
        #expect(runHotTask(["--file", emptyStore, "--export", emptyFile, "--export-format", "todotxt"]).status == 0)
        #expect(runHotTask(["--file", emptyStore, "--import", emptyFile]).status == 0)
        // A .txt line that starts like JSON is still todo.txt.
        let bracket = folder.write("[work] finish report\n", to: "work.txt")
        #expect(runHotTask(["--file", emptyStore, "--import", bracket]).stdout.contains("added 1"))
        // A damaged JSON document named .txt is refused as JSON, not read as lines of tasks.
        let damaged = folder.write("{\"version\": 2, \"tasks\": [\n", to: "backup.txt")
        let refused = runHotTask(["--file", emptyStore, "--import", damaged])
        #expect(refused.status == 1 && !refused.stderr.isEmpty, "\(refused.stderr)")
        #expect(try TaskStore(path: emptyStore).load().count == 1, "only the [work] task")
    }

    @Test func taskwarriorImportsHotTasksExportAndItComesBackTheSame() throws {
        try requireTool("task", from: "taskwarrior")
        seed()
        let data = folder.path("taskdata")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let rc = folder.write("data.location=\(data)\nconfirmation=off\nverbose=nothing\n", to: "taskrc")
        let environment = ["TASKRC": rc, "TASKDATA": data]
        let imported = shell("H --export - --export-format taskwarrior | task import -", environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let other = folder.path("back.json")
        let back = runProcess(
            ["sh", "-c", "task export | '\(binary)' --file '\(other)' --import -"], environment: environment)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try TaskStore(path: store).load()
        let returned = try TaskStore(path: other).load()
        for task in original.all {
            let copy = try #require(returned.task(withID: task.id))
            #expect(copy.caption == task.caption && copy.section == task.section && copy.completed == task.completed)
        }
        #expect(returned.count == original.count)
    }

    /// An older version accepted a caption of only a zero-width space; such a store must still
    /// open (not be called damaged), while an import or an add of one is refused.
    @Test func aStoredCaptionTodaysRuleRefusesStillLoadsButIsNotImported() throws {
        seed(TaskList([Fixtures.task("\u{200B}", id: 1), Fixtures.task("Visible", id: 2)]))
        let list = hottask("--list")
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Visible"))
        let other = folder.path("other.json")
        let imported = runHotTask(["--file", other, "--import", store])
        #expect(imported.status == 1 && imported.stderr.contains("task 1"), "\(imported.stderr)")
        #expect(hottask("--add", "\u{200B}\u{FE0F}").status == 1)
    }

    @Test func aPrivateKeyIsNotTakenForTodoTxt() throws {
        seed()
        let before = fileBytes(store)
        let key = folder.write(
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n",
            to: "id_ed25519")
        let run = hottask("--import", key)
        #expect(run.status == 1)
        #expect(run.stderr.contains("--import-format todotxt"))
        #expect(fileBytes(store) == before)
    }

    @Test func controlCharactersInMessagesAreEscaped() throws {
        seed()
        let file = folder.write(
            #"[{"uuid":"\u001b]52;c;aGk=\u0007","description":"x","status":"pending","entry":"20261121T100000Z"}]"#, to: "evil.json")
        let run = hottask("--import", file)
        #expect(run.status == 1)
        #expect(run.stderr.contains("\\u001B]52;c;aGk=\\u0007"), "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let handle = hottask("--done", "\u{1B}[2J")
        #expect(handle.status == 1 && handle.stderr.contains("\\u001B[2J"))
        // swift-argument-parser's own messages quote what was given, escaped too.
        for args in [["--export-format", "\u{1B}[2J", "--export", "x"], ["--\u{1B}[2J"]] {
            let parser = runHotTask(["--file", store] + args)
            #expect(parser.status == 64)
            #expect(parser.stderr.contains("\\u001B[2J") && !parser.stderr.contains("\u{1B}"), "\(parser.stderr)")
        }
    }

    // MARK: Completions

    @Test func bashCompletesFileNamesAfterPathOptions() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets/completions/hottask.bash").path
        folder.write("x", to: "my tasks.txt")
        folder.write("x", to: "backup.json")
        let run = runProcess([
            "bash", "-c",
            """
            cd '\(folder.path(""))' && source '\(script)'
            for words in '--import my' '--file back' '--export-format to' '--li'; do
                read -ra COMP_WORDS <<< "hottask $words"; COMP_CWORD=2; [ "${#COMP_WORDS[@]}" = 2 ] && COMP_CWORD=1
                _hottask; printf '%s|' "${COMPREPLY[@]}"; echo
            done
            """,
        ])
        #expect(run.stdout == "my tasks.txt|\nbackup.json|\ntodotxt|\n--list|\n", "\(run.stderr)")
    }

    @Test func everyOptionIsInEveryCompletionScriptAndNoHelpSubcommand() throws {
        let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets/completions")
        let help = runHotTask(["--help"]).stdout
        let options = Set(help.matches(of: try Regex(#"--[a-z][a-z-]+"#)).map { String(help[$0.range]) })
        #expect(options.count > 20)
        for name in ["hottask.bash", "_hottask", "hottask.fish"] {
            let text = fileText(assets.appendingPathComponent(name).path) ?? ""
            for option in options {
                let spelled = name.hasSuffix(".fish") ? "-l \(option.dropFirst(2)) " : option
                #expect(text.contains(spelled), "\(name) lacks \(option)")
            }
            #expect(!text.contains("'help'") && !text.contains(" help)"), "\(name) offers a help subcommand")
        }
        #expect(runHotTask(["help"]).status == 64)
    }
}
