import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 10's promises with the real binary: every change is one record in one log, so two
/// writers touching one task both keep their change, undo works by id in the UI and from the
/// shell, and damaged or locked side files give a message, never a trap or a hang.
@Suite("One logged change")
struct OneLogTests {
    // MARK: Two writers, one task

    @Test func aShellMoveAndAUISpaceOnTheSameTaskBothSurvive() throws {
        let session = try TmuxSession(seededTasks: 3)
        session.waitForText("Task 3")
        session.press("Tab")
        session.waitForText("› [ ] Task 1")
        let id = try #require(TaskStore(path: session.storePath).load().task(withID: try firstID(session))?.id)
        // Within a few milliseconds of each other: the shell's move, the UI's completion.
        let shell = try ChildProcess([HotTaskBinary.url.path, "--file", session.storePath, "--move", id.uuidString])
        session.press("Space")
        #expect(shell.wait() == 0)
        session.waitForStore("hold both changes") { _ in
            let task = try? TaskStore(path: session.storePath).load().task(withID: id)
            return task?.section == .bonus && task?.completed == true
        }
        session.waitForScreen("the UI to show both") { screen in
            screen.contains("Bonus (1)") && screen.contains("[x] Task 1")
        }
        session.expectScreenSnapshot()
    }

    @Test func aTaskDeletedFromTheShellStaysDeletedWhenTheUISavesAgain() throws {
        let session = try TmuxSession(seededTasks: 3)
        session.waitForText("Task 3")
        let third = try #require(TaskStore(path: session.storePath).load().all.last)
        #expect(runHotTask(["--file", session.storePath, "--delete", third.id.uuidString]).status == 0)
        session.press("Tab", "Space")  // a save right after, before or after the UI has seen the delete
        session.waitForStore("complete Task 1") { $0.contains("\"completed\": true") }
        #expect(try TaskStore(path: session.storePath).load().all.map(\.caption) == ["Task 1", "Task 2"])
        session.waitForScreen("the delete to show") { !$0.contains("Task 3") }
        session.expectScreenSnapshot()
    }

    // MARK: Undo by id

    @Test func undoInTheUIWorksAfterAnotherProcessAddsATask() throws {
        let session = try TmuxSession(seededTasks: 2)
        session.waitForText("Task 2")
        session.press("Tab", "Space")
        session.waitForText("› [x] Task 1")
        #expect(runHotTask(["--file", session.storePath, "--add", "From the shell"]).status == 0)
        session.waitForText("From the shell")
        session.press("u")
        session.waitForText("Undone: Completed “Task 1”")
        session.waitForStore("reopen Task 1 and keep the shell's task") { _ in
            let list = try? TaskStore(path: session.storePath).load()
            return list?.all.map(\.caption) == ["From the shell", "Task 1", "Task 2"] && list?.completedCount == 0
        }
        session.expectScreenSnapshot()
    }

    @Test func undoInTheUISaysSoWhenItsTaskWasChangedElsewhere() throws {
        let session = try TmuxSession(seededTasks: 2)
        session.waitForText("Task 2")
        session.press("Tab", "Space")
        session.waitForText("› [x] Task 1")
        let id = try firstID(session)
        #expect(runHotTask(["--file", session.storePath, "--undone", id.uuidString]).status == 0)
        session.waitForText("› [ ] Task 1")
        session.press("u")
        session.waitForText("was changed in another program since")
        session.expectScreenSnapshot()
    }

    @Test func undoFromTheShellTakesBackTheLastChangeWhoeverMadeIt() throws {
        let folder = TemporaryFolder()
        func hottask(_ args: String...) -> (status: Int32, stdout: String, stderr: String) { runHotTask(["--file", folder.storePath] + args) }
        #expect(hottask("--add", "Buy milk", "--add", "Call mum").status == 0)
        #expect(hottask("--done", "1").status == 0)
        #expect(hottask("--edit", "2", "Call mum about Sunday").status == 0)
        var undo = hottask("--undo")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout == "Undone: Edited: Call mum → Call mum about Sunday\n")
        undo = hottask("--undo")
        #expect(undo.stdout == "Undone: Completed: Buy milk\n")
        let list = try TaskStore(path: folder.storePath).load()
        #expect(list.all.map(\.caption) == ["Buy milk", "Call mum"])
        #expect(list.completedCount == 0)
        undo = hottask("--undo")
        #expect(undo.stdout.hasPrefix("Undone: Added to Top Priority: Buy milk"))
        #expect(try TaskStore(path: folder.storePath).load().isEmpty)
        undo = hottask("--undo")
        #expect(undo.status == 1)
        #expect(undo.stderr.contains("nothing to undo"))
    }

    // MARK: Damage and locks

    @Test(arguments: [
        (
            "an old journal header out of range",
            #"{"journal": 1, "snapshot": {"device": 1e300, "inode": -1, "size": 1e300, "modified": "x"}, "count": 1e300}"# + "\n"
        ),
        ("a log header out of range", #"{"log": 2, "generation": "zz", "snapshot": "-1:99999999999999999999999:1e300:1.-5"}"# + "\n"),
        ("garbage", "\u{0}\u{1}not json at all\n{\"g\": 1}\n"),
    ])
    func aDamagedLogNeverTrapsAndNeverBlocksACommand(name: String, log: String) throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "Kept"]).status == 0)
        folder.write(log, to: "tasks.json.journal")
        // The log the snapshot was made with is gone: a refusal naming it (issue 25), no trap.
        for args in [["--list"], ["--add", "After"]] {
            expectRun(
                ["--file", folder.storePath] + args,
                stderr: "hottask: the change log \(folder.path("tasks.json.journal")) has no readable header line, so its changes cannot be placed. "
                    + "Nothing was changed. To keep every change that can still be read and set the damaged file aside: "
                    + "hottask --file '\(folder.storePath)' --recover\n", status: 2)
        }
        // What it could not keep depends on the damage (damaged lines, then the lost changes).
        expectRun(
            ["--file", folder.storePath, "--recover"],
            stdout: "Recovered \(folder.storePath): 1 tasks, with 0 changes read from the log\n"
                + "Set aside (not deleted): \(folder.path("tasks.json.journal")) is now \(folder.path("tasks.json.journal")).damaged-[..]\n",
            stderr: "...\nhottask: note: could not keep any change acknowledged after [..], when the snapshot was made: "
                + "the log has no readable header line, so its changes cannot be placed\n")
        expectRun(["--file", folder.storePath, "--list"], stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Kept\nBonus (0)\n  (none)\n")
        expectRun(["--file", folder.storePath, "--add", "After"], stdout: "Added to Top Priority: After\n")
        #expect(try TaskStore(path: folder.storePath).load().all.map(\.caption) == ["After", "Kept"])
    }

    @Test func aDamagedRecordIsSkippedWithAWarningAndKeptAside() throws {
        let folder = TemporaryFolder()
        func hottask(_ args: String...) -> (status: Int32, stdout: String, stderr: String) { runHotTask(["--file", folder.storePath] + args) }
        #expect(hottask("--add", "One").status == 0)
        #expect(hottask("--add", "Two").status == 0)
        #expect(hottask("--add", "Three").status == 0)
        // Flip one byte inside the middle record ("Two" becomes "Twx"): its checksum no longer holds.
        let journal = folder.path("tasks.json.journal")
        var text = try String(contentsOfFile: journal, encoding: .utf8)
        let range = try #require(text.range(of: "\"caption\": \"Two\""))
        text.replaceSubrange(range, with: "\"caption\": \"Twx\"")
        try text.write(toFile: journal, atomically: false, encoding: .utf8)
        expectRun(
            ["--file", folder.storePath, "--list"],
            stdout: "Get started - 2 to go!\n\nTop Priority (2)\n  1. [ ] Three\n  2. [ ] One\nBonus (0)\n  (none)\n",
            stderr: "hottask: warning: line 3 of \(folder.path)/tasks.json.journal was skipped: its checksum does not match its content\n")
        #expect(hottask("--add", "Four").status == 0, "a writer folds the log and moves the damaged line aside")
        let aside = try String(contentsOfFile: journal + ".damaged", encoding: .utf8)
        #expect(aside.contains("Twx"))
        #expect(hottask("--list").stderr.isEmpty)
    }

    @Test func aMissingSnapshotWithTasksBesideItIsRefusedAndNothingIsWritten() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "One"]).status == 0)
        #expect(runHotTask(["--file", folder.storePath, "--add", "Two"]).status == 0)
        try FileManager.default.removeItem(atPath: folder.storePath)
        let files = { folder.contents().filter { !$0.hasSuffix(".lock") }.map { fileBytes(folder.path($0)) } }
        let before = files()
        for args in [["--list"], ["--add", "Three"], ["--export", "-"], ["--done", "1"]] {
            expectRun(
                ["--file", folder.storePath] + args,
                stderr:
                    "hottask: the task store \(folder.path)/tasks.json is missing: \(folder.path)/tasks.json.journal and \(folder.path)/tasks.json.bak beside it still hold tasks; to restore the last snapshot and replay the log on it: cp '\(folder.path)/tasks.json.bak' '\(folder.path)/tasks.json'. Nothing was written\n",
                status: 2)
        }
        #expect(files() == before)
        try FileManager.default.copyItem(atPath: folder.storePath + ".bak", toPath: folder.storePath)
        #expect(try TaskStore(path: folder.storePath).load().all.map(\.caption) == ["Two", "One"], "the backup and the log hold every task")
    }

    @Test func aWriterFacingAHeldLockExitsWithinSecondsWithAMessage() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "One"]).status == 0)
        let lock = try HeldLock(store: folder.storePath)
        defer { withExtendedLifetime(lock) {} }
        // Wait until the lock is really held.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, runHotTask(["--file", folder.storePath, "--add", "probe"], environment: ["HOTTASK_LOCK_WAIT": "0"]).status == 0 {
            usleep(20_000)
        }
        let start = Date()
        expectRun(
            ["--file", folder.storePath, "--done", "1"], environment: ["HOTTASK_LOCK_WAIT": "1"],
            stderr:
                "hottask: could not change the task store \(folder.path)/tasks.json: process \(lock.holder.pid) (flock [..]) has held the lock \(folder.path)/tasks.json.lock for over 1 s; nothing was changed. If it is a HotTask stopped with Ctrl-Z, resume it (fg) or end it, then try again\n",
            status: 3)
        #expect(Date().timeIntervalSince(start) < 5)
        expectRun(["--file", folder.storePath, "--list"], stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] One\nBonus (0)\n  (none)\n")
    }

    @Test func sideFilesOthersCanWriteAreRefused() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "One"]).status == 0)
        chmod(folder.storePath + ".journal", 0o666)
        expectRun(
            ["--file", folder.storePath, "--list"],
            stderr:
                "hottask: cannot read the task store \(folder.path)/tasks.json.journal: not safe to use: others may write it (mode 666); chmod go-w '\(folder.path)/tasks.json.journal' and try again\n",
            status: 2)
        expectRun(
            ["--file", folder.storePath, "--recover"],
            stderr:
                "hottask: cannot read the task store \(folder.path)/tasks.json.journal: not safe to use: others may write it (mode 666); chmod go-w '\(folder.path)/tasks.json.journal' and try again\n",
            status: 2)
    }

    // MARK: Reads

    @Test func readsDuringWritesAlwaysShowAStateSomeCommandMade() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "T0"]).status == 0)
        // A writer adds T1, T2, ... while compacting every few records; every read must be a
        // prefix of that history: T(n) ... T0, nothing skipped, nothing else.
        let writer = try ChildProcess(
            ["sh", "-c", "for n in $(seq 1 150); do '\(HotTaskBinary.url.path)' --file '\(folder.storePath)' --add T$n || exit 1; done"],
            environment: ProcessInfo.processInfo.environment.merging(["HOTTASK_LOG_LIMIT": "4"]) { $1 })
        var reads = 0
        var mixed: [String] = []
        while reads < 400 {
            let run = runHotTask(["--file", folder.storePath, "--list", "--json"])
            reads += 1
            guard run.status == 0, let snapshot = try? StoreDocument.decode(Array(run.stdout.utf8)) else {
                mixed.append("unreadable: \(run.stderr)")
                continue
            }
            let captions = snapshot.list.all.map(\.caption)
            let expected = (0..<captions.count).reversed().map { "T\($0)" }
            if captions != expected { mixed.append(captions.joined(separator: " ")) }
            if captions.count == 151 { break }
        }
        #expect(writer.wait(timeout: 120) == 0)
        #expect(mixed.isEmpty, "\(mixed.count) of \(reads) reads showed a state no command made: \(mixed.prefix(3))")
    }

    private func firstID(_ session: TmuxSession) throws -> UUID {
        try #require(TaskStore(path: session.storePath).load().all.first?.id)
    }
}
