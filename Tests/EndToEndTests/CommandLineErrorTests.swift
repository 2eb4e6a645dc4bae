import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 42: every error the command line says is one line beginning `hottask:`, with the
/// documented exit code, nothing changed, and the next step where there is one. Each case is
/// the whole output (stdout, stderr, status), and the store's files byte for byte after it.
@Suite("Command-line errors: one line, the exit code, the next step", .serialized)
struct CommandLineErrorTests {
    /// A store with two tasks, its files as they are.
    private func store() -> (folder: TemporaryFolder, files: [String: [UInt8]]) {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "Call mum", "--add", "Buy milk"]).status == 0)
        return (folder, snapshot(folder.path))
    }

    /// Every file in `folder` (and below), by relative path.
    private func snapshot(_ folder: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let paths = FileManager.default.subpaths(atPath: folder) ?? []
        for path in paths where !path.hasSuffix(".lock") {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = fileBytes(folder + "/" + path)
            }
        }
        return files
    }

    /// Runs hottask on the store and checks the whole output and that nothing changed.
    private func expectError(
        _ arguments: [String], status: Int32, stderr expected: String, environment: [String: String] = [:], prefix: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (folder, before) = store()
        let expected = expected.replacingOccurrences(of: "STORE", with: folder.storePath).replacingOccurrences(of: "FOLDER", with: folder.path)
        let run = runHotTask(
            ["--file", folder.storePath] + arguments.map { $0.replacingOccurrences(of: "FOLDER", with: folder.path) },
            environment: environment, prefix: prefix)
        #expect(run.status == status, "\(arguments)", sourceLocation: sourceLocation)
        #expect(run.stdout == "", "\(arguments)", sourceLocation: sourceLocation)
        #expect(run.stderr == expected + "\n", "\(arguments)", sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix("hottask: ") && run.stderr.filter { $0 == "\n" }.count == 1, "one line", sourceLocation: sourceLocation)
        #expect(snapshot(folder.path) == before, "\(arguments): nothing changed", sourceLocation: sourceLocation)
    }

    @Test func badOptionsQuoteTheValueAndTheFormsTheyTake() {
        expectError(
            ["--add", "Pay rent", "--due", "today2"], status: 64,
            stderr:
                "hottask: --due: “today2” is not a due date; use " + DueInput.forms
        )
        expectError(["--list", "--sort", "soon"], status: 64, stderr: "hottask: --sort takes manual or due, not 'soon'")
        expectError(
            ["--export", "-", "--export-format", "csv"], status: 64,
            stderr: "hottask: --export-format takes hottask, taskwarrior, todotxt, ics or vdir, not 'csv'")
        expectError(["--add"], status: 64, stderr: "hottask: --add needs a value: --add <text>")
        expectError(["--frob"], status: 64, stderr: "hottask: unknown option '--frob'; did you mean --file? (hottask --help lists them all)")
        expectError(["--bonus"], status: 64, stderr: "hottask: --bonus goes with --add.")
        expectError(
            ["--edit", "1", "a", "b"], status: 64,
            stderr: "hottask: --edit takes a task and its new caption: --edit 3 \"New caption\" (got 3 values).")
        expectError(
            ["Buy milk"], status: 64,
            stderr: "hottask: unexpected argument 'Buy milk' (a caption goes after --add or --edit N, in quotes); hottask --help lists the options")
    }

    @Test func refusedChangesSayWhyAndWhereToLook() {
        expectError(["--done", "9"], status: 1, stderr: "hottask: --done 9: there is no task 9: the numbers run from 1 to 2 (see --list)")
        expectError(
            ["--add", "   "], status: 1, stderr: "hottask: cannot add '   ': a task needs some text: the caption is empty or only whitespace")
        expectError(
            ["--import", "FOLDER/nope.json"], status: 1,
            stderr: "hottask: cannot import FOLDER/nope.json: there is no such file or folder; check the path. Nothing was changed")
    }

    /// Issue 48: the errors a new user meets in the first minute, each with its next step.
    @Test func aNewUsersFirstErrorsEachSayTheNextStep() throws {
        expectError(
            ["--export", "FOLDER/exports/tasks.json"], status: 3,
            stderr: "hottask: could not write the export file FOLDER/exports/tasks.json: the folder FOLDER/exports does not exist; "
                + "make it first (mkdir -p FOLDER/exports)")
        expectError(
            ["--done", "zzzz"], status: 1,
            stderr: "hottask: --done zzzz: 'zzzz' is neither a task number from --list nor an id prefix of at least 8 hex digits; "
                + "hottask --list --ids shows both")
        let scratch = TemporaryFolder()
        var random = SeededGenerator(seed: 48)
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        let binary = scratch.path("photo.bin")
        FileManager.default.createFile(atPath: binary, contents: Data(bytes))
        expectError(
            ["--import", binary], status: 1,
            stderr: "hottask: cannot import \(binary): it is not text (binary data); give a HotTask or Taskwarrior JSON export, "
                + "an .ics file, a calendar folder or a todo.txt file. Nothing was changed")
        // Text in another encoding is text: it keeps the todo.txt hint, never "binary data".
        let latin1 = scratch.write(Array("(A) Caf\u{E9} +work\n".unicodeScalars.map { UInt8($0.value) }), to: "todo")
        expectError(
            ["--import", latin1], status: 1,
            stderr: "hottask: cannot import \(latin1): it is not JSON or iCalendar, and todo.txt is read only from a file named *.txt; "
                + "give --import-format todotxt to read it as todo.txt. Nothing was changed")
        try FileManager.default.createDirectory(atPath: scratch.path("notes"), withIntermediateDirectories: true)
        _ = scratch.write("not a task\n", to: "notes/readme.md")
        expectError(
            ["--import", scratch.path("notes")], status: 1,
            stderr: "hottask: cannot import \(scratch.path("notes")): the folder holds no .ics files, so it is not a calendar folder "
                + "(a vdir holds one per task); give a calendar folder or an export file. Nothing was changed")
        // A config that cannot be read says why and what to do; `--config /dev/null` is no config.
        let config = scratch.write("theme = \"dark\"\n", to: "config.toml")
        chmod(config, 0o000)
        let unreadable = runHotTask(
            ["--file", scratch.storePath, "--config", config, "--list"],
            prefix: geteuid() == 0 ? ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] : [])
        #expect(
            unreadable.stderr
                == "hottask: warning: config \(config): cannot be read (Permission denied); make it readable (chmod u+r \(config)) "
                + "or give another --config; using the defaults\n")
        let none = runHotTask(["--file", scratch.storePath, "--config", "/dev/null", "--list"])
        #expect(none.status == 0)
        #expect(none.stderr == "")
    }

    @Test func syncWithoutASyncTableSaysHowToSetItUp() {
        let config = TemporaryFolder()
        let path = config.write("theme = \"light\"\n", to: "config.toml")
        expectError(
            ["--sync", "--config", path], status: 5,
            stderr: "hottask: cannot sync: \(path) has no [sync] table; set it up with: hottask --sync-setup URL (your CalDAV server)")
    }

    @Test func aFolderWhereTheStoreShouldBeSuggestsAFileInIt() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("tasks"), withIntermediateDirectories: true)
        for arguments in [["--list"], ["--add", "Buy milk"]] {
            let run = runHotTask(["--file", folder.path("tasks")] + arguments)
            #expect(run.status == 2)
            #expect(run.stdout == "")
            #expect(
                run.stderr
                    == "hottask: cannot read the task store \(folder.path("tasks")): it is a folder, not a file; to keep the store in it, name a file there: --file '\(folder.path("tasks"))/tasks.json'\n"
            )
            #expect(folder.contents() == ["tasks"], "nothing made beside it")
        }
    }

    /// The issue's read-only folder: the first thousand changes were taken (appended to the log)
    /// and then every one refused with a bare "Permission denied". Now the first is refused,
    /// naming the folder and the fix, and nothing is acknowledged.
    @Test func aReadOnlyFolderIsNamedAtTheFirstChange() throws {
        let (folder, before) = store()
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        // Root writes anywhere: the run drops the capability that lets it (DAC override).
        let prefix = geteuid() == 0 ? ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] : []
        for arguments in [["--add", "Pay rent"], ["--done", "1"], ["--undo"]] {
            let run = runHotTask(["--file", folder.storePath] + arguments, prefix: prefix)
            #expect(run.status == 3, "\(arguments): \(run.stderr)")
            #expect(run.stdout == "")
            #expect(
                run.stderr
                    == "hottask: could not save the task store \(folder.storePath): its folder \(folder.path) is read-only to you, and the store's files are written there: chmod u+w '\(folder.path)'. The previous file is unchanged\n"
            )
        }
        #expect(snapshot(folder.path) == before, "nothing changed")
        // Reading still works.
        #expect(runHotTask(["--file", folder.storePath, "--list"], prefix: prefix).status == 0)
        // Before any store exists there: the same fix, and no word of a previous file.
        let empty = TemporaryFolder()
        chmod(empty.path, 0o555)
        defer { chmod(empty.path, 0o755) }
        let first = runHotTask(["--file", empty.storePath, "--add", "Pay rent"], prefix: prefix)
        #expect(first.status == 3)
        #expect(
            first.stderr
                == "hottask: could not save the task store \(empty.storePath): its folder \(empty.path) is read-only to you, and the store's files are written there: chmod u+w '\(empty.path)'. Nothing was written\n"
        )
        #expect(empty.contents() == [])
    }

    @Test func aStoreHeldOrDamagedSaysWhoHoldsItOrHowToGoBack() throws {
        let (folder, before) = store()
        let lock = try HeldLock(store: folder.storePath)
        waitUntil("flock holds the store's lock", timeout: 10) { runProcess(["flock", "-n", folder.storePath + ".lock", "true"]).status != 0 }
        let held = runHotTask(["--file", folder.storePath, "--add", "Pay rent"], environment: ["HOTTASK_LOCK_WAIT": "0.3"])
        #expect(held.status == 3 && held.stdout == "")
        // The holder's command line as /proc shows it, cut to a length: the whole line around it.
        let head = "hottask: could not change the task store \(folder.storePath): process \(lock.holder.pid) ("
        let tail =
            ") has held the lock \(folder.storePath).lock for over 0.3 s; nothing was changed. If it is a HotTask stopped with Ctrl-Z, resume it (fg) or end it, then try again\n"
        #expect(held.stderr.hasPrefix(head) && held.stderr.hasSuffix(tail), "\(held.stderr)")
        let command = held.stderr.dropFirst(head.count).dropLast(tail.count)
        #expect(command.count >= 20 && "flock \(folder.storePath).lock sleep 30".hasPrefix(command), "\(command)")
        #expect(snapshot(folder.path) == before)
        let damaged = TemporaryFolder()
        #expect(runHotTask(["--file", damaged.storePath, "--add", "Buy milk"]).status == 0)
        _ = damaged.write("garbage", to: "tasks.json")
        let files = snapshot(damaged.path)
        let run = runHotTask(["--file", damaged.storePath, "--add", "Pay rent"])
        #expect(run.status == 2 && run.stdout == "")
        #expect(
            run.stderr
                == "hottask: the task store \(damaged.storePath) is damaged: not valid JSON: expected a JSON value, found 'g' at line 1, column 1 (byte 0). It was left untouched; the backup \(damaged.storePath).bak reads whole and, with the change log beside it, holds every change since it was made (to go back to it: cp '\(damaged.storePath).bak' '\(damaged.storePath)')\n"
        )
        #expect(snapshot(damaged.path) == files)
    }

    @Test func theUIWithoutATerminalSaysWhatToUseInstead() {
        expectError(
            [], status: 4, stderr: "hottask: the task list UI needs a terminal; for scripts use --list, --add and the other options (see --help)")
    }
}
