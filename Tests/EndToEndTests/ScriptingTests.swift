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
        expectRun(["--file", store, "--export", link], stdout: "Exported 3 tasks to \(folder.path)/link.json\n")
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
        expectRun(["--file", store, "--export", target], stdout: "Exported 3 tasks to \(folder.path)/out.json\n")
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
        expectRun(
            ["--file", store, "--export", pipe],
            stderr: "hottask: could not write the export file \(folder.path)/lonely: it is a pipe nobody is reading\n", status: 3)
        let before = fileBytes(store)
        let link = folder.path("innocent.txt")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
        // The side files too, made yet or not (an export over tasks.json.imported would be taken
        // for the last import's file by the next re-import).
        for target in [store, link, store + ".lock", store + ".journal", store + ".imported", store + ".sync"] {
            expectRun(
                ["--file", store, "--export", target, "--export-format", "todotxt"],
                stderr:
                    "hottask: could not write the export file \(target): it is the task store itself (or one of its files); export somewhere else\n",
                status: 3)
        }
        #expect(fileBytes(store) == before)
        #expect(hottask("--add", "X", "--json", "--export", "-").status == 64)
        #expect(hottask("--list", "--export", "-").status == 64)
    }

    @Test func aFullDeviceIsAnErrorAndStaysADevice() throws {
        seed()
        expectRun(
            ["--file", store, "--export", "/dev/full"], stderr: "hottask: could not write the export file /dev/full: No space left on device\n",
            status: 3)
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
        expectRun(["--file", store, "--add", "W", "-q"])
    }

    // MARK: Handles a script can trust

    @Test func theIdPrintedByAddJSONCompletesThatTaskAfterMoreAdds() throws {
        seed()
        let added = expectRun(
            ["--file", store, "--add", "Pay rent", "--json"],
            stdout:
                "{\n  \"version\": 2,\n  \"tasks\": [\n    {\n      \"id\": \"[..]\",\n      \"caption\": \"Pay rent\",\n      \"section\": \"priority\",\n      \"completed\": false,\n      \"createdAt\": \"[..]\",\n      \"completedAt\": null,\n      \"modifiedAt\": \"[..]\"\n    }\n  ]\n}\n",
            stderr: "Added to Top Priority: Pay rent\n")
        let batch = try ImportBatch.parse(Array(added.stdout.utf8))
        let id = try #require(batch.tasks.first?.id.uuidString.lowercased())
        #expect(batch.tasks.map(\.caption) == ["Pay rent"])
        #expect(hottask("--add", "Something newer").status == 0)
        expectRun(["--file", store, "--done", String(id.prefix(8))], stdout: "Completed: Pay rent\n")
        #expect(try TaskStore(path: store).load().task(withID: UUID(uuidString: id)!)?.completed == true)
    }

    @Test func listIDsShowHandlesThatWork() throws {
        seed()
        let list = expectRun(
            ["--file", store, "--list", "--ids"],
            stdout:
                "1 down 2 to go!\n\nTop Priority (2)\n  1. f0000001 [ ] Buy milk\n  2. f0000002 [x] Call mum\nBonus (1)\n  3. f0000003 [ ] Read a book\n"
        )
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
        expectRun(["--file", store, "--delete", "00000042"], stdout: "Deleted: Forty-two\n")
        expectRun(
            ["--file", store, "--done", "abcd1234"],
            stderr:
                "hottask: --done abcd1234: 'abcd1234' is the start of 2 tasks' ids: abcd1234-1 'First', abcd1234-2 'Second'; give more of the id\n",
            status: 1)
        #expect(try TaskStore(path: store).load().all.allSatisfy { !$0.completed })
    }

    // MARK: Switchers' basics

    @Test func editOpenAndFilterWorkFromTheShell() throws {
        seed()
        let before = fileBytes(store)
        expectRun(
            ["--file", store, "--edit", "1", "   "],
            stderr: "hottask: --edit 1: cannot use '   ': a task needs some text: the caption is empty or only whitespace\n", status: 1)
        #expect(fileBytes(store) == before)
        #expect(hottask("--edit", "1", "Call mum about Sunday").status == 0)
        expectRun(
            ["--file", store, "--list", "--open"],
            stdout: "1 down 2 to go!\n\nTop Priority (1 of 2)\n  1. [ ] Call mum about Sunday\nBonus (1)\n  3. [ ] Read a book\n")
        expectRun(
            ["--file", store, "--list", "--filter", "SUNDAY"],
            stdout: "1 down 2 to go!\n\nTop Priority (1 of 2)\n  1. [ ] Call mum about Sunday\nBonus (0 of 1)\n  (none shown)\n")
        let json = expectRun(
            ["--file", store, "--list", "--open", "--json"],
            stdout:
                "{\n  \"version\": 2,\n  \"tasks\": [\n    {\n      \"id\": \"f0000001-0000-4000-8000-000000000001\",\n      \"caption\": \"Call mum about Sunday\",\n      \"section\": \"priority\",\n      \"completed\": false,\n      \"createdAt\": \"2026-11-21T10:00:00Z\",\n      \"completedAt\": null,\n      \"modifiedAt\": \"[..]\"\n    },\n    {\n      \"id\": \"f0000003-0000-4000-8000-000000000003\",\n      \"caption\": \"Read a book\",\n      \"section\": \"bonus\",\n      \"completed\": false,\n      \"createdAt\": \"2026-11-21T13:00:00Z\",\n      \"completedAt\": null,\n      \"modifiedAt\": \"2026-11-21T13:00:00Z\"\n    }\n  ]\n}\n"
        )
        let tasks = try ImportBatch.parse(Array(json.stdout.utf8)).tasks
        #expect(!tasks.isEmpty && tasks.allSatisfy { !$0.completed })
    }

    // MARK: Formats in and out

    @Test func todoTxtRoundTripsKeepIdentityAndAReImportChangesNothing() throws {
        seed()
        let file = folder.path("todo.txt")
        #expect(hottask("--export", file, "--export-format", "todotxt").status == 0)
        expectRun(
            ["--file", store, "--import", file],
            stdout: "Imported from todo.txt \(folder.path)/todo.txt: added 0, updated 0, unchanged 3, skipped 0\n")
        // Another app ticks a line off; the import completes that task, not a copy of it.
        var lines = (fileText(file) ?? "").split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("Buy milk") })
        lines[index] = "x 2026-11-23 " + lines[index].replacingOccurrences(of: "(A) ", with: "")
        folder.write(lines.joined(separator: "\n") + "\n", to: "todo.txt")
        expectRun(
            ["--file", store, "--import", file],
            stdout: "Imported from todo.txt \(folder.path)/todo.txt: added 0, updated 1, unchanged 2, skipped 0\n")
        #expect(try TaskStore(path: store).load().task(withID: Fixtures.id(1))?.completed == true)
        // Reopened here, then the same file again: the reopening stays.
        #expect(hottask("--undone", String(Fixtures.id(1).uuidString.lowercased().prefix(8))).status == 0)
        expectRun(
            ["--file", store, "--import", file],
            stdout: "Imported from todo.txt \(folder.path)/todo.txt: added 0, updated 0, unchanged 3, skipped 0\n")
        let after = try TaskStore(path: store).load()
        #expect(after.task(withID: Fixtures.id(1))?.completed == false)
        #expect(after.count == 3)
        // A hand-written line with no date and no tag is the same task, and keeps its date.
        let undated = folder.write("Read a book\n", to: "undated.txt")
        expectRun(
            ["--file", store, "--import", undated],
            stdout: "Imported from todo.txt \(folder.path)/undated.txt: added 0, updated 0, unchanged 1, skipped 0\n")
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
        expectRun(
            ["--file", store, "--import", file],
            stdout: "Imported from todo.txt \(folder.path)/todo.txt: added 1, updated 2, unchanged 0, skipped 1\n",
            stderr: "hottask: note: skipped 1 task deleted here that the file still has; an export to it leaves it out\n")
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
        expectRun(
            ["--file", emptyStore, "--import", damaged],
            stderr:
                "hottask: cannot import \(folder.path)/backup.txt: not valid JSON: unexpected end of the text: the JSON is cut short at line 2, column 1 (byte 26). Nothing was changed\n",
            status: 1)
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

    /// A caption with nothing to show (an older version accepted a zero-width space; a phone's
    /// to-do without a title) loads, shows as "(no title)", and an import takes it as it is;
    /// typing one is refused.
    @Test func aStoredCaptionWithNothingToShowLoadsAndShowsAsUntitled() throws {
        seed(TaskList([Fixtures.task("\u{200B}", id: 1), Fixtures.task("Visible", id: 2)]))
        expectRun(
            ["--file", store, "--list"],
            stdout: "Get started - 2 to go!\n\nTop Priority (2)\n  1. [ ] (no title)\n  2. [ ] Visible\nBonus (0)\n  (none)\n")
        let other = folder.path("other.json")
        expectRun(
            ["--file", other, "--import", store],
            stdout: "Imported from HotTask \(folder.path)/tasks.json: added 2, updated 0, unchanged 0, skipped 0\n")
        #expect(try TaskStore(path: other).load().all.map(\.caption) == ["\u{200B}", "Visible"])
        #expect(hottask("--add", "\u{200B}\u{FE0F}").status == 1)
    }

    @Test func aPrivateKeyIsNotTakenForTodoTxt() throws {
        seed()
        let before = fileBytes(store)
        let key = folder.write(
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n",
            to: "id_ed25519")
        expectRun(
            ["--file", store, "--import", key],
            stderr:
                "hottask: cannot import \(folder.path)/id_ed25519: it is not JSON or iCalendar, and todo.txt is read only from a file named *.txt; give --import-format todotxt to read it as todo.txt. Nothing was changed\n",
            status: 1)
        #expect(fileBytes(store) == before)
    }

    @Test func controlCharactersInMessagesAreEscaped() throws {
        seed()
        let file = folder.write(
            #"[{"uuid":"\u001b]52;c;aGk=\u0007","description":"x","status":"pending","entry":"20261121T100000Z"}]"#, to: "evil.json")
        expectRun(
            ["--file", store, "--import", file],
            stderr:
                "hottask: cannot import \(folder.path)/evil.json: task 1: \"uuid\" is not a UUID: \"\\u001B]52;c;aGk=\\u0007\". Nothing was changed\n",
            status: 1)
        expectRun(
            ["--file", store, "--done", "\u{1B}[2J"],
            stderr:
                "hottask: --done \\u001B[2J: '\\u001B[2J' is neither a task number from --list nor an id prefix of at least 8 hex digits; "
                + "hottask --list --ids shows both\n",
            status: 1)
        // Messages about the command line quote what was given, escaped too.
        expectRun(
            ["--file", store, "--export-format", "\u{1B}[2J", "--export", "x"],
            stderr: "hottask: --export-format takes hottask, taskwarrior, todotxt, ics or vdir, not '\\u001B[2J'\n", status: 64)
        expectRun(
            ["--file", store, "--\u{1B}[2J"],
            stderr: "hottask: unknown option '--\\u001B[2J'; hottask --help lists them all\n", status: 64)
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
        #expect(run.stdout == "my tasks.txt|\nbackup.json|\ntodotxt|\n--list|--lists|\n", "\(run.stderr)")
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
