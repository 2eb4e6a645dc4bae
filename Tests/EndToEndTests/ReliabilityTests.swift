import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 5's promises, shown with the real binary: killed mid-save, run twice at once, handed
/// broken files or a full disk, HotTask loses nothing and says what happened.
@Suite("Never lose a task", .serialized)
struct ReliabilityTests {
    /// Names in a store's folder that are not debris.
    static let storeFiles: Set<String> = ["tasks.json", "tasks.json.bak", "tasks.json.lock", "tasks.json.journal", "tasks.json.index"]

    // MARK: Crashes

    @Test func addsKilledAtRandomMomentsNeverDamageTheStoreOrLoseAConfirmedTask() throws {
        let folder = TemporaryFolder()
        var generator = SeededGenerator(seed: 5)
        // Kills spread over twice an add's time on this machine and build, so that some adds
        // finish and some are cut short (a fixed 15 ms was shorter than every debug add).
        var confirmed: [String] = []
        var took: [TimeInterval] = []
        for number in 0..<3 {
            let started = Date()
            expectRun(["--file", folder.storePath, "--add", "timed \(number)"], stdout: "Added to Top Priority: timed \(number)\n")
            took.append(Date().timeIntervalSince(started))
            confirmed.append("timed \(number)")
        }
        let window = UInt32(took.sorted()[1] * 2 * 1_000_000)
        for number in 0..<300 {
            let caption = "crash \(number)"
            let child = try ChildProcess([HotTaskBinary.url.path, "--file", folder.storePath, "--add", caption])
            usleep(UInt32.random(in: 0...window, using: &generator))
            child.kill(SIGKILL)
            if child.wait() == 0 { confirmed.append(caption) }
        }
        // Both kinds must happen, or the test shows nothing: adds killed part-way, and adds
        // that finished (whose tasks must then be there).
        #expect(confirmed.count < 303, "no add was interrupted: the kills came too late to test anything")
        #expect(confirmed.count > 3, "no add finished before its kill: nothing confirmed to look for")
        // The next ordinary run cleans up whatever the killed ones left.
        #expect(runHotTask(["--file", folder.storePath, "--add", "after the crashes"]).status == 0)
        let list = try TaskStore(path: folder.storePath).load()
        let captions = list.all.map(\.caption)
        #expect(confirmed.allSatisfy(captions.contains), "every add that exited 0 is there")
        #expect(Set(captions).count == captions.count, "nothing is duplicated")
        #expect(Set(list.all.map(\.id)).count == list.count)
        #expect(Set(folder.contents()).subtracting(Self.storeFiles).isEmpty, "no debris: \(folder.contents())")
    }

    @Test func uiSavesKilledAtRandomMomentsNeverDamageTheStore() throws {
        let folder = TemporaryFolder()
        var generator = SeededGenerator(seed: 9)
        for number in 0..<12 {
            let session = try TmuxSession(storePath: folder.storePath)
            session.waitForText("HotTask")
            session.type("ui \(number)")
            session.press("Enter")
            usleep(UInt32.random(in: 0...20_000, using: &generator))
            if let pid = session.appProcessID() { kill(pid, SIGKILL) }
            // Killed, the app leaves the screen as it was: the shell's line can wrap anywhere
            // (and so no whole-screen snapshot ends this flow).
            session.waitForScreen("the shell to say the app exited") {
                $0.filter { !$0.isWhitespace }.contains("exitedwith")
            }
            #expect(throws: Never.self) { try TaskStore(path: folder.storePath).load() }
        }
        #expect(runHotTask(["--file", folder.storePath, "--add", "after"]).status == 0)
        let captions = try TaskStore(path: folder.storePath).load().all.map(\.caption)
        #expect(Set(captions).count == captions.count)
        #expect(Set(folder.contents()).subtracting(Self.storeFiles).isEmpty, "no debris: \(folder.contents())")
    }

    // MARK: Several writers

    @Test func twoProcessesAdding500EachLeaveExactly1000() throws {
        let folder = TemporaryFolder()
        let script = """
            for i in $(seq 500); do '\(HotTaskBinary.url.path)' --file '\(folder.storePath)' --add "$0 $i" > /dev/null || exit 1; done
            """
        let writers = try ["left", "right"].map { try ChildProcess(["sh", "-c", script, $0]) }
        for writer in writers { #expect(writer.wait(timeout: 300) == 0) }
        let captions = try TaskStore(path: folder.storePath).load().all.map(\.caption)
        #expect(captions.count == 1_000)
        #expect(Set(captions) == Set(["left", "right"].flatMap { name in (1...500).map { "\(name) \($0)" } }))
    }

    @Test func theUIShowsAnAddFromTheShellWithoutAKeyPressAndItsNextSaveKeepsIt() throws {
        let session = try TmuxSession(seededTasks: 2)
        session.waitForText("Task 2")
        session.type("typed meanwhile")
        session.waitForText("+ typed meanwhile")
        #expect(runHotTask(["--file", session.storePath, "--add", "from the shell"]).status == 0)
        session.waitForScreen("the shell's task without a key press, the input still holding its text", timeout: 3) {
            $0.contains("[ ] from the shell") && $0.contains("+ typed meanwhile")
        }
        session.press("Enter")
        session.waitForStore("hold the UI's task") { $0.contains("typed meanwhile") }
        #expect(try TaskStore(path: session.storePath).load().all.map(\.caption) == ["typed meanwhile", "from the shell", "Task 1", "Task 2"])
        session.expectScreenSnapshot()
    }

    // MARK: Bad stores

    struct DamagedStore: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        /// What the message says is wrong, and where.
        let problem: String
        var testDescription: String { name }
    }

    static let validTask =
        #"{"id": "00000000-0000-4000-8000-000000000001", "caption": "A", "section": "priority", "completed": false, "createdAt": "2026-11-21T10:00:00Z", "completedAt": null, "modifiedAt": "2026-11-21T10:00:00Z"}"#

    static let damagedStores: [DamagedStore] = [
        DamagedStore(
            name: "truncated", bytes: Array(#"{"version": 1, "tasks": [{"id": "0000"#.utf8),
            problem: "not valid JSON: a string is not closed: the JSON is cut short at line 1, column 33 (byte 32)"),
        DamagedStore(name: "0 bytes", bytes: [], problem: "the file is empty (0 bytes)"),
        DamagedStore(
            name: "NUL-filled", bytes: [UInt8](repeating: 0, count: 4096),
            problem: "the file holds only NUL bytes (4096), as a crash or power cut can leave"),
        DamagedStore(
            name: "unknown version", bytes: Array(#"{"version": 3, "tasks": []}"#.utf8),
            problem: "unknown store version 3; this HotTask reads version 2"),
        DamagedStore(
            name: "wrong types", bytes: Array(validTask.replacingOccurrences(of: "\"completed\": false", with: "\"completed\": \"no\"").wrapped.utf8),
            problem: "task 1: \"completed\" must be true or false, found a string"),
        DamagedStore(
            name: "duplicate ids", bytes: Array("\(validTask), \(validTask)".wrapped.utf8),
            problem: "task 2: the id 00000000-0000-4000-8000-000000000001 is used by an earlier task too"),
        DamagedStore(
            name: "invalid UTF-8",
            bytes: Array(validTask.wrapped.utf8).replacing(Array("\"A\"".utf8), with: [0x22, 0xC3, 0x28, 0x22]),
            problem: "not valid JSON: a string is not valid UTF-8 at line 1, column 85 (byte 84)"),
    ]

    @Test(arguments: damagedStores)
    func everyCommandRefusesADamagedStoreAndLeavesItByteIdentical(store: DamagedStore) throws {
        let folder = TemporaryFolder()
        let path = folder.write(store.bytes, to: "tasks.json")
        let importFile = folder.write(StoreDocument.encode(Fixtures.sampleList()), to: "import.json")
        for args in [["--list"], ["--add", "x"], ["--done", "1"], ["--import", importFile], ["--export", "-"]] {
            // What is wrong and where; the safe next step; never a backup there is none of.
            expectRun(
                ["--file", path] + args,
                stderr: "hottask: the task store \(path) is damaged: \(store.problem). It was left untouched; "
                    + "to keep every change that can still be read and set the damaged file aside: hottask --file '\(path)' --recover\n", status: 2)
            #expect(fileBytes(path) == store.bytes, "\(args) left the file as it was")
        }
    }

    @Test func theUIRefusesToStartOnADamagedStoreAndSaysWhy() throws {
        let folder = TemporaryFolder()
        let path = folder.write(Array(#"{"version": 1, "tasks": ["#.utf8), to: "tasks.json")
        let session = try TmuxSession(storePath: path)
        let screen = session.waitForExit()
        #expect(screen.contains("exited with 2"))
        #expect(screen.contains("is damaged"))
        #expect(fileText(path) == #"{"version": 1, "tasks": ["#)
        session.expectScreenSnapshot()
    }

    @Test func aDamagedStorePointsToTheBackupThatRestoresIt() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "first"]).status == 0)
        #expect(runHotTask(["--file", folder.storePath, "--add", "second"]).status == 0)
        folder.write("{ garbage", to: "tasks.json")
        expectRun(
            ["--file", folder.storePath, "--list"],
            stderr:
                "hottask: the task store \(folder.path)/tasks.json is damaged: not valid JSON: expected a quoted key, found 'g' at line 1, column 3 (byte 2). It was left untouched; the backup \(folder.path)/tasks.json.bak reads whole and, with the change log beside it, holds every change since it was made (to go back to it: cp '\(folder.path)/tasks.json.bak' '\(folder.path)/tasks.json')\n",
            status: 2)
        #expect(runProcess(["cp", folder.storePath + ".bak", folder.storePath]).status == 0)
        // The backup, with the journal of later adds read on top, gives back every task.
        let restored = runHotTask(["--file", folder.storePath, "--list"]).stdout
        #expect(restored.contains("1. [ ] second") && restored.contains("2. [ ] first"), "\(restored)")
    }

    @Test func aFolderInPlaceOfTheStoreIsReported() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.storePath, withIntermediateDirectories: true)
        expectRun(
            ["--file", folder.storePath, "--add", "x"],
            stderr:
                "hottask: cannot read the task store \(folder.path)/tasks.json: it is a folder, not a file; to keep the store in it, name a file there: --file '\(folder.path)/tasks.json/tasks.json'\n",
            status: 2)
    }

    /// Root reads any file, and CI runs as root: there the commands run as `nobody`, with
    /// privileges dropped by setpriv, in a folder of nobody's own.
    @Test func anUnreadableStoreIsReported() throws {
        let folder = TemporaryFolder()
        var user: [String] = []
        if getuid() == 0 {
            try requireTool("setpriv", from: "util-linux")
            user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
            try CalDAVTestServer.letOthersThrough(folder.path)
            #expect(chown(folder.path, 65534, 65534) == 0, "cannot give the folder to nobody")
        }
        expectRun(["--file", folder.storePath, "--add", "x"], prefix: user, stdout: "Added to Top Priority: x\n")
        chmod(folder.storePath, 0)
        expectRun(
            ["--file", folder.storePath, "--list"], prefix: user,
            stderr: "hottask: cannot read the task store \(folder.storePath): Permission denied\n", status: 2)
    }

    // MARK: Failing disk

    @Test func aFullDiskSaysWhichDiskAndTheNextStep() throws {
        try requireTool("strace", from: "strace")
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "first"]).status == 0)
        let before = fileBytes(folder.storePath)
        // The change's first write (the log's) finds the disk full.
        expectRun(
            ["--file", folder.storePath, "--add", "second"],
            prefix: ["strace", "-qq", "-o", "/dev/null", "-e", "trace=write", "-e", "inject=write:error=ENOSPC:when=1"],
            stderr:
                "hottask: could not save the task store \(folder.storePath): No space left on device. The previous file is unchanged; free some space on the disk that holds \(folder.path) (df -h '\(folder.path)') and try again\n",
            status: 3)
        #expect(fileBytes(folder.storePath) == before)
    }

    @Test func aWriteThatFailsLeavesTheOldFileAndNoDebris() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "first"]).status == 0)
        let before = try #require(fileBytes(folder.storePath))
        // A file-size limit below the new file's size: the write fails as on a full disk.
        expectRun(
            ["--file", folder.storePath, "--add", "second"], prefix: ["prlimit", "--fsize=\(before.count)"],
            stderr: "hottask: could not save the task store \(folder.path)/tasks.json: File too large. The previous file is unchanged\n", status: 3)
        #expect(fileBytes(folder.storePath) == before)
        #expect(Set(folder.contents()).subtracting(Self.storeFiles).isEmpty, "no debris: \(folder.contents())")
    }

    @Test func theUIKeepsAnUnsavedChangeSaysSoAndSavesItOnTheNextChange() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "first"]).status == 0)
        let before = try #require(fileBytes(folder.storePath))
        let session = try TmuxSession(storePath: folder.storePath, prefix: "prlimit --fsize=\(before.count):unlimited")
        session.waitForText("first")
        session.type("kept in memory")
        session.press("Enter")
        session.waitForText("Not saved: File too large")
        session.waitForText("› [ ] kept in memory")
        #expect(fileBytes(folder.storePath) == before)
        let pid = try #require(session.appProcessID())
        let raise = runProcess(["prlimit", "--pid", "\(pid)", "--fsize=unlimited"])
        #expect(raise.status == 0, "\(raise.stderr)")
        session.type("next change")
        session.press("Enter")
        session.waitForStore("hold both tasks") { $0.contains("kept in memory") && $0.contains("next change") }
        session.waitForScreen("the warning gone") { !$0.contains("Not saved") }
        session.expectScreenSnapshot()
    }

    @Test func quittingWithAChangeThatCannotBeSavedSaysSoAndExitsNonZero() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "first"]).status == 0)
        let before = try #require(fileBytes(folder.storePath))
        let session = try TmuxSession(storePath: folder.storePath, prefix: "prlimit --fsize=\(before.count):unlimited")
        session.waitForText("first")
        session.press("Tab", "Space")
        session.waitForText("Not saved: File too large")
        session.press("C-c")
        let screen = session.waitForExit()
        #expect(screen.contains("quit with changes that could not be saved"))
        #expect(screen.contains("exited with 3"))
        session.expectScreenSnapshot()
    }

    @Test func theUIWritesTheStoreAgainWhenItsFolderIsRemoved() throws {
        let folder = TemporaryFolder()
        let path = folder.path("data/tasks.json")
        #expect(runHotTask(["--file", path, "--add", "before"]).status == 0)
        let session = try TmuxSession(storePath: path)
        session.waitForText("before")
        try FileManager.default.removeItem(atPath: folder.path("data"))
        session.type("after the folder vanished")
        session.press("Enter")
        // Both tasks: the rewrite is several files, and a reader may come between them (the
        // lock file went with the folder), once seen in CI with the new task alone.
        session.waitForStore("be written again") { $0.contains("after the folder vanished") && $0.contains("before") }
        #expect(try TaskStore(path: path).load().all.map(\.caption) == ["after the folder vanished", "before"])
        session.expectScreenSnapshot()
    }

    /// Mounting a tmpfs needs root, as CI runs; anyone else gets a failure saying so.
    @Test func aFullOrReadOnlyDiskFailsTheSaveAndKeepsTheOldFile() throws {
        try #require(getuid() == 0, "mounting a small tmpfs for a real full disk needs root: run make test as root, as CI does")
        let disk = try SmallDisk(kilobytes: 128)
        defer { disk.unmount() }
        let path = disk.path + "/tasks.json"
        let captions = (1...120).map { "Task number \($0) with a caption long enough to fill the disk" }
        #expect(runHotTask(["--file", path] + captions.flatMap { ["--add", $0] }).status == 0)
        let before = try #require(fileBytes(path))
        // Fill what is left, so that even the journal's one-line append finds no room.
        let filler = disk.path + "/filler"
        _ = runProcess(["dd", "if=/dev/zero", "of=\(filler)", "bs=1k", "count=128"])
        // More than the journal's last, partly used 4 KB page can take.
        let large = (1...5).flatMap { ["--add", String(repeating: "\($0)", count: 900)] }
        var run = runHotTask(["--file", path] + large)
        #expect(run.status == 3)
        #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
        #expect(fileBytes(path) == before)
        #expect(try TaskStore(path: path).load().count == 120, "a failed add leaves no partial adds behind")
        try FileManager.default.removeItem(atPath: filler)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).allSatisfy(Self.storeFiles.contains))

        try disk.remount(options: "ro")
        run = runHotTask(["--file", path, "--add", "read-only"])
        #expect(run.status == 3)
        #expect(run.stderr.contains("Read-only file system"), "\(run.stderr)")
        #expect(fileBytes(path) == before)
    }

    // MARK: Hostile content

    @Test func escapeSequencesAndBidiControlsInAnImportNeverReachTheTerminal() throws {
        let folder = TemporaryFolder()
        let evil = #"\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\u202eevil\u009b31m"#
        let file = folder.write(
            #"[{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","description":"\#(evil)","status":"pending","entry":"20261121T100000Z"}]"#,
            to: "tw.json")
        #expect(runHotTask(["--file", folder.storePath, "--import", file]).status == 0)
        expectRun(
            ["--file", folder.storePath, "--list"], stdout: "Get started - 1 to go!\n\nTop Priority (0)\n  (none)\nBonus (1)\n  1. [ ] redevil\n")
        let session = try TmuxSession(storePath: folder.storePath)
        // The caption shown as text, and the title still there: nothing cleared the screen.
        session.waitForScreen("the caption as harmless text") {
            $0.contains("redevil") && $0.contains("Get started - 1 to go!")
        }
        session.expectScreenSnapshot()
    }

    /// From the command line it is refused (the input rule is for typed text); from a
    /// Taskwarrior file it is kept whole, and shown on one line cut to the screen.
    @Test func aHundredKilobyteCaptionIsRefusedFromTheCommandLineAndKeptWholeFromAFile() throws {
        let folder = TemporaryFolder()
        let long = String(repeating: "x", count: 100_000)
        var run = runHotTask(["--file", folder.storePath, "--add", long])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the limit is 8192"), "the byte cap is met first")
        let file = folder.write(
            #"[{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","description":"\#(long)","status":"pending","entry":"20261121T100000Z"}]"#,
            to: "tw.json")
        run = runHotTask(["--file", folder.storePath, "--import", file])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(try TaskStore(path: folder.storePath).load().all.first?.caption == long)
        let back = runHotTask(["--file", folder.storePath, "--export", "-", "--export-format", "taskwarrior"])
        #expect(back.stdout.contains("\"description\":\"\(long)\""))
    }

    @Test func deeplyNestedJSONIsRefusedWithoutACrash() throws {
        let folder = TemporaryFolder()
        let file = folder.write(String(repeating: "[", count: 200_000), to: "deep.json")
        expectRun(
            ["--file", folder.storePath, "--import", file],
            stderr:
                "hottask: cannot import \(folder.path)/deep.json: not valid JSON: the JSON is nested more than 64 levels deep at line 1, column 65 (byte 64). Nothing was changed\n",
            status: 1)
    }

    @Test func aMillionTaskImportIsRefusedWithAClearMessage() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "mine"]).status == 0)
        let before = fileBytes(folder.storePath)
        let path = folder.write("", to: "million.json")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        var chunk = ""
        for number in 0..<1_000_000 {
            let id = String(number, radix: 16)
            chunk +=
                #"{"uuid":"00000000-0000-4000-8000-\#(String(repeating: "0", count: 12 - id.count) + id)","description":"Task \#(number)","status":"pending","entry":"20261121T100000Z"}"#
                + "\n"
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data(chunk.utf8))
        try handle.close()
        expectRun(
            ["--file", folder.storePath, "--import", path],
            stderr:
                "hottask: cannot import \(path): it holds more than 250000 tasks, and HotTask keeps at most 250000; split it into smaller files, or leave out the completed tasks, and import each. Nothing was changed\n",
            status: 1)
        #expect(fileBytes(folder.storePath) == before)
    }
}

extension String {
    /// A store document holding these task objects.
    fileprivate var wrapped: String { #"{"version": 1, "tasks": ["# + self + "]}" }
}

extension Array where Element == UInt8 {
    fileprivate func replacing(_ old: [UInt8], with new: [UInt8]) -> [UInt8] {
        guard let start = firstRange(of: old) else { return self }
        var copy = self
        copy.replaceSubrange(start, with: new)
        return copy
    }
}

/// A small tmpfs mounted for one test, for a real "No space left on device".
struct SmallDisk {
    let folder = TemporaryFolder()
    var path: String { folder.path("disk") }

    init(kilobytes: Int) throws {
        try FileManager.default.createDirectory(atPath: folder.path("disk"), withIntermediateDirectories: true)
        let run = runProcess(["mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder.path("disk")])
        guard run.status == 0 else { throw Refusal(description: "cannot mount a tmpfs: \(run.stderr)") }
    }

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    func remount(options: String) throws {
        guard runProcess(["mount", "-o", "remount,\(options)", path]).status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func unmount() {
        _ = runProcess(["umount", path])
    }
}
