import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 25's promises with the real binary: no acknowledged change is ever lost silently.
/// Whatever a hostile world does to the store's path and files, a command keeps every change it
/// acknowledged, or refuses naming the file; it never traps, hangs or guesses.
@Suite("No acknowledged change lost silently")
struct StoreTrustTests {
    // MARK: Paths

    /// `--file t/tasks.json` in a folder without `t` once died with SIGILL (exit 132) inside
    /// Foundation's path code. Runs in the folder, so that the path stays relative as typed.
    @Test(arguments: ["t/tasks.json", "t/u/tasks.json", "t//u/v/tasks.json", "./t/tasks.json"])
    func aStoreInFoldersThatDoNotExistYetGetsThemCreatedPrivate(relative: String) throws {
        let folder = TemporaryFolder()
        let inFolder = ["env", "-C", folder.path]
        expectRun(["--file", relative, "--add", "A"], prefix: inFolder, stdout: "Added to Top Priority: A\n")
        expectRun(
            ["--file", relative, "--list"], prefix: inFolder, stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] A\nBonus (0)\n  (none)\n")
        let created = try FileManager.default.attributesOfItem(atPath: folder.path("t"))
        #expect((created[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aStorePathThroughAFileIsRefusedNamingItNeverATrap() throws {
        let folder = TemporaryFolder()
        folder.write("not a folder", to: "t")
        expectRun(
            ["--file", "t/u/tasks.json", "--add", "A"], prefix: ["env", "-C", folder.path],
            stderr:
                "hottask: could not save the task store t/u/tasks.json: cannot create the folder t: something that is not a folder is in its place. Nothing was written\n",
            status: 3)
        #expect(fileText(folder.path("t")) == "not a folder")
    }

    // MARK: Damage is detected, never guessed

    /// Five acknowledged adds: the first is in the snapshot, the other four only in the log.
    private func storeWithFiveAdds(_ folder: TemporaryFolder) {
        for number in 1...5 { #expect(runHotTask(["--file", folder.storePath, "--add", "Task \(number)"]).status == 0) }
    }

    /// Every kind of command refuses with exit 2, saying `message` (what is wrong with which
    /// file) and how to recover, never with a backup that would drop a change, and leaves every
    /// file of the store as it was.
    private func everyCommandRefuses(_ folder: TemporaryFolder, saying message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let files = { folder.contents().filter { !$0.hasSuffix(".lock") }.sorted().map { ($0, fileBytes(folder.path($0))) } }
        let before = files()
        // The same message whatever the command: the store is refused before the command runs.
        for args in [["--list"], ["--add", "More"], ["--done", "1"], ["--export", "-"], ["--undo"]] {
            expectRun(
                ["--file", folder.storePath] + args,
                stderr: "hottask: \(message)Nothing was changed. To keep every change that can still be read and set the damaged file aside: "
                    + "hottask --file '\(folder.storePath)' --recover\n", status: 2, sourceLocation: sourceLocation)
        }
        #expect(files().map(\.0) == before.map(\.0), sourceLocation: sourceLocation)
        #expect(files().map(\.1) == before.map(\.1), "nothing was changed", sourceLocation: sourceLocation)
    }

    @Test func anEmptiedLogIsRefusedAndRecoverSaysWhatItCouldNotKeep() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let journal = folder.path("tasks.json.journal")
        folder.write("", to: "tasks.json.journal")
        everyCommandRefuses(folder, saying: "the change log \(journal) is empty (0 bytes): it has lost its header and every change it held. ")
        expectRun(
            ["--file", folder.storePath, "--recover"],
            stdout:
                "Recovered \(folder.path)/tasks.json: 1 tasks, with 0 changes read from the log\nSet aside (not deleted): \(folder.path)/tasks.json.journal is now \(folder.path)/tasks.json.journal.damaged-[..]\n",
            stderr:
                "hottask: note: could not keep any change acknowledged after [..], when the snapshot was made: the log is empty (0 bytes): it has lost its header and every change it held\n"
        )
        #expect(folder.contents().contains { $0.hasPrefix("tasks.json.journal.damaged-") })
        #expect(storedCaptions(folder) == ["Task 1"], "what the snapshot held; the log's four adds are gone and the report said so")
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"]).status == 0)
        #expect(storedCaptions(folder) == ["Task 1", "Task 6"])
    }

    @Test func aRecordRemovedFromTheMiddleOfTheLogIsRefusedAndRecoverNamesWhatIsLost() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let journal = folder.path("tasks.json.journal")
        var lines = try #require(fileText(journal)).split(separator: "\n", omittingEmptySubsequences: false)
        let third = try #require(lines.firstIndex { $0.contains("Task 3") })
        lines.remove(at: third)  // a hand edit, or a tool that dropped one line
        folder.write(lines.joined(separator: "\n"), to: "tasks.json.journal")
        everyCommandRefuses(
            folder,
            saying: "the change log \(journal) has lost records: record 2 is missing before line 4 (record 3): removed from the middle of the log. ")
        expectRun(
            ["--file", folder.storePath, "--recover"],
            stdout:
                "Recovered \(folder.path)/tasks.json: 4 tasks, with 4 changes read from the log\nSet aside (not deleted): \(folder.path)/tasks.json.journal is now \(folder.path)/tasks.json.journal.damaged-[..]\n",
            stderr:
                "hottask: note: could not keep the changes of the records missing from the log (record 2 is missing before line 4 (record 3): removed from the middle of the log)\n"
        )
        #expect(storedCaptions(folder) == ["Task 1", "Task 2", "Task 4", "Task 5"], "every change still readable is kept")
    }

    @Test func theLastRecordCutAtALineBoundaryLeavesNoGapAndTheLogStillReads() throws {
        // The one cut numbering cannot see (RELIABILITY.md says so): the store reads as it was
        // before the last command, and the next record takes the freed number.
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let journal = folder.path("tasks.json.journal")
        var lines = try #require(fileText(journal)).split(separator: "\n").map(String.init)
        lines.removeLast()
        folder.write(lines.joined(separator: "\n") + "\n", to: "tasks.json.journal")
        #expect(storedCaptions(folder) == ["Task 1", "Task 2", "Task 3", "Task 4"])
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"]).status == 0)
        #expect(storedCaptions(folder) == ["Task 1", "Task 2", "Task 3", "Task 4", "Task 6"])
    }

    @Test func aSnapshotWhoseGenerationWasChangedIsRefusedAndRecoverKeepsEveryChange() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        var text = try #require(fileText(folder.storePath))
        let range = try #require(text.range(of: #""generation": ""#))
        let digit = text.index(range.upperBound, offsetBy: 0)
        text.replaceSubrange(digit...digit, with: text[digit] == "0" ? "1" : "0")
        folder.write(text, to: "tasks.json")
        // The generations are random: said, not stated.
        everyCommandRefuses(
            folder,
            saying:
                "the change log \(folder.path("tasks.json.journal")) belongs to another snapshot: it names generation [..], but the snapshot is generation [..], made from the log of [..]. "
        )
        expectRun(
            ["--file", folder.storePath, "--recover"],
            stdout:
                "Recovered \(folder.path)/tasks.json: 5 tasks, with 5 changes read from the log\nSet aside (not deleted): \(folder.path)/tasks.json.journal is now \(folder.path)/tasks.json.journal.damaged-[..]\n"
        )
        #expect(storedCaptions(folder) == (1...5).map { "Task \($0)" })
    }

    @Test func aLogOfAnotherStoreIsRefusedAndSetAsideWhole() throws {
        let folder = TemporaryFolder()
        let other = TemporaryFolder()
        storeWithFiveAdds(folder)
        for caption in ["Other 1", "Other 2"] { #expect(runHotTask(["--file", other.storePath, "--add", caption]).status == 0) }
        let foreign = try #require(fileBytes(other.path("tasks.json.journal")))
        folder.write(foreign, to: "tasks.json.journal")
        // The generations are random: said, not stated.
        everyCommandRefuses(
            folder,
            saying:
                "the change log \(folder.path("tasks.json.journal")) belongs to another snapshot: it names generation [..], but the snapshot is generation [..], made from the log of [..]. "
        )
        expectRun(
            ["--file", folder.storePath, "--recover"],
            stdout:
                "Recovered \(folder.path)/tasks.json: 3 tasks, with 2 changes read from the log\nSet aside (not deleted): \(folder.path)/tasks.json.journal is now \(folder.path)/tasks.json.journal.damaged-[..]\n"
        )
        let aside = try #require(folder.contents().first { $0.hasPrefix("tasks.json.journal.damaged-") })
        #expect(fileBytes(folder.path(aside)) == foreign, "set aside as it was")
        #expect(storedCaptions(folder) == ["Other 1", "Other 2", "Task 1"], "the snapshot, and every change the log could still give")
    }

    /// A crash between compaction's two renames leaves the backup on a new generation while the
    /// snapshot and log stay on the old one, and later adds go to that log: the backup then
    /// lacks them. Once the snapshot is damaged, the backup must not be offered.
    @Test func aBackupIsOfferedOnlyWhenItHoldsEveryAcknowledgedChange() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        #expect(runHotTask(["--file", folder.storePath, "--add", "B"]).status == 0)
        // C compacts (a log limit of 1); putting the old snapshot and log back (the very files,
        // kept by hard links) leaves the pair the crash leaves, with the backup of the
        // compaction that never finished.
        for name in ["tasks.json", "tasks.json.journal"] { #expect(link(folder.path(name), folder.path(name + ".kept")) == 0) }
        #expect(runHotTask(["--file", folder.storePath, "--add", "C"], environment: ["HOTTASK_LOG_LIMIT": "1"]).status == 0)
        for name in ["tasks.json", "tasks.json.journal"] { #expect(rename(folder.path(name + ".kept"), folder.path(name)) == 0) }
        #expect(runHotTask(["--file", folder.storePath, "--add", "D"]).status == 0)
        #expect(fileText(folder.path("tasks.json.journal"))?.contains("Added to Top Priority: D") == true, "D went to the old log")
        #expect(storedCaptions(folder) == ["A", "B", "D"])
        folder.write("{ garbage", to: "tasks.json")
        expectRun(
            ["--file", folder.storePath, "--list"],
            stderr:
                "hottask: the task store \(folder.path)/tasks.json is damaged: not valid JSON: expected a quoted key, found 'g' at line 1, column 3 (byte 2). It was left untouched; to keep every change that can still be read and set the damaged file aside: hottask --file '\(folder.path)/tasks.json' --recover\n",
            status: 2)
        expectRun(
            ["--file", folder.storePath, "--recover"],
            stdout:
                "Recovered \(folder.path)/tasks.json: 4 tasks, with 3 changes read from the log\nSet aside (not deleted): \(folder.path)/tasks.json is now \(folder.path)/tasks.json.damaged-[..]\nSet aside (not deleted): \(folder.path)/tasks.json.journal is now \(folder.path)/tasks.json.journal.damaged-[..]\n",
            stderr:
                "hottask: note: could not keep what only the damaged snapshot held (the backup \(folder.path)/tasks.json.bak and the log were used in its place)\n"
        )
        let aside = try #require(folder.contents().first { $0.hasPrefix("tasks.json.damaged-") })
        #expect(fileText(folder.path(aside)) == "{ garbage", "the damaged snapshot set aside as it was")
        let kept = storedCaptions(folder)
        #expect(["A", "B", "D"].allSatisfy(kept.contains), "every acknowledged change: \(kept)")
    }

    /// The state a crash between the snapshot's rename and the start of its new log leaves:
    /// the new snapshot beside the log it folded. It is whole, not damage.
    @Test func theLogACompactionCrashLeavesBehindIsReadAsFoldedNotAsDamage() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let journal = folder.path("tasks.json.journal")
        #expect(link(journal, journal + ".kept") == 0)
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"], environment: ["HOTTASK_LOG_LIMIT": "1"]).status == 0)
        #expect(rename(journal + ".kept", journal) == 0)
        expectRun(
            ["--file", folder.storePath, "--list"],
            stdout:
                "Get started - 6 to go!\n\nTop Priority (6)\n  1. [ ] Task 6\n  2. [ ] Task 5\n  3. [ ] Task 4\n  4. [ ] Task 3\n  5. [ ] Task 2\n  6. [ ] Task 1\nBonus (0)\n  (none)\n"
        )
        #expect(storedCaptions(folder) == (1...6).map { "Task \($0)" }, "the folded log's records are in the snapshot, and not applied twice")
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 7"]).status == 0)
        #expect(storedCaptions(folder) == (1...7).map { "Task \($0)" })
    }

    @Test func aTornLastRecordIsDroppedAloneAndNothingElseIsSaid() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let journal = folder.path("tasks.json.journal")
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"g": "0123456789abcdef", "clock": "17"#.utf8))
        try handle.close()
        expectRun(
            ["--file", folder.storePath, "--list"],
            stdout:
                "Get started - 5 to go!\n\nTop Priority (5)\n  1. [ ] Task 5\n  2. [ ] Task 4\n  3. [ ] Task 3\n  4. [ ] Task 2\n  5. [ ] Task 1\nBonus (0)\n  (none)\n"
        )
        #expect(storedCaptions(folder) == (1...5).map { "Task \($0)" })
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"]).status == 0)
        #expect(storedCaptions(folder) == (1...6).map { "Task \($0)" })
    }

    /// A snapshot of the previous version says nothing of the log it folded: it still opens,
    /// and the next change writes it again with that said.
    @Test func aStoreOfThePreviousVersionOpensAndIsWrittenAgainSayingWhatItFolded() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let text = try #require(fileText(folder.storePath))
        let old = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(#"  "follows""#) && !$0.hasPrefix(#"  "folded""#) }.joined(separator: "\n")
        #expect(old != text)
        folder.write(old, to: "tasks.json")
        #expect(storedCaptions(folder) == (1...5).map { "Task \($0)" })
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"]).status == 0)
        #expect(fileText(folder.storePath)?.contains(#""follows": ""#) == true)
        #expect(storedCaptions(folder) == (1...6).map { "Task \($0)" })
    }

    @Test func recoverOnAWholeStoreChangesNothing() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let files = { folder.contents().filter { !$0.hasSuffix(".lock") }.sorted().map { fileBytes(folder.path($0)) } }
        let before = files()
        expectRun(
            ["--file", folder.storePath, "--recover"],
            stdout: "Nothing to recover: \(folder.path)/tasks.json and its change log read whole; nothing was changed\n")
        #expect(files() == before)
    }

    // MARK: Exit codes tell the truth

    /// `hottask ARGS > /dev/full`, through a shell so that stdout really is the full device.
    private func runWithFullStandardOutput(_ args: [String]) -> (status: Int32, stdout: String, stderr: String) {
        runProcess(["sh", "-c", #"exec "$@" > /dev/full"#, "sh", HotTaskBinary.url.path] + args)
    }

    @Test func aChangeSavedBeforeItsOutputFailedExits6SayingSoAndIsMadeOnce() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let add = HotTaskRun(runWithFullStandardOutput(["--file", folder.storePath, "--add", "B"]))
        expectOutput(
            add,
            stderr:
                "hottask: saved, but could not write the output: could not write to standard output: No space left on device. The change is in the store: running the command again would make it twice\n",
            status: 6)
        expectRun(
            ["--file", folder.storePath, "--add", "C", "--export", "/dev/full"], stdout: "Added to Top Priority: C\n",
            stderr:
                "hottask: saved, but could not write the output: could not write the export file /dev/full: No space left on device. The change is in the store: running the command again would make it twice\n",
            status: 6)
        #expect(storedCaptions(folder) == ["A", "B", "C"], "each saved once")
        // Nothing saved: still 3, and the store is as it was.
        let before = fileBytes(folder.path("tasks.json.journal"))
        // Nothing was saved, so nothing says "saved": exit 3.
        expectOutput(
            HotTaskRun(runWithFullStandardOutput(["--file", folder.storePath, "--list"])),
            stderr: "hottask: could not write to standard output: No space left on device\n", status: 3)
        #expect(fileBytes(folder.path("tasks.json.journal")) == before)
    }

    /// An import too large to keep for undo, folded straight into a snapshot: `--undo` must not
    /// undo the add before it instead.
    @Test func undoRefusesWhenTheLastChangeCannotBeTakenBackAndChangesNothing() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        #expect(runHotTask(["--file", folder.storePath, "--add", "B"]).status == 0)
        let lines = (1...600).map { "Imported task number \($0), long enough that 600 of them make a large record" }
        let file = folder.write(lines.joined(separator: "\n") + "\n", to: "many.txt")
        expectRun(
            ["--file", folder.storePath, "--import", file], environment: ["HOTTASK_LOG_LIMIT": "1"],
            stdout: "Imported from todo.txt \(folder.path)/many.txt: added 600, updated 0, unchanged 0, skipped 0\n")
        let files = { folder.contents().filter { !$0.hasSuffix(".lock") }.sorted().map { fileBytes(folder.path($0)) } }
        let before = files()
        expectRun(
            ["--file", folder.storePath, "--undo"],
            stderr:
                "hottask: cannot undo 'Added to Top Priority: B': changes made up to [..] were folded into the snapshot without being kept for undo (too large, or past the last 100), and one of them is newer, so undoing this would skip it. Nothing was changed\n",
            status: 1)
        #expect(files() == before, "nothing was changed")
        let kept = storedCaptions(folder)
        #expect(kept.count == 602 && kept.contains("A") && kept.contains("B"))
        // Changes made after it can still be taken back.
        #expect(runHotTask(["--file", folder.storePath, "--add", "C"]).status == 0)
        expectRun(["--file", folder.storePath, "--undo"], stdout: "Undone: Added to Top Priority: C\n")
        #expect(runHotTask(["--file", folder.storePath, "--undo"]).status == 1)
    }
}
