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
        let add = runHotTask(["--file", relative, "--add", "A"], prefix: inFolder)
        #expect(add.status == 0, "\(add.stderr)")
        let list = runHotTask(["--file", relative, "--list"], prefix: inFolder)
        #expect(list.status == 0)
        #expect(list.stdout.contains("A"))
        let created = try FileManager.default.attributesOfItem(atPath: folder.path("t"))
        #expect((created[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aStorePathThroughAFileIsRefusedNamingItNeverATrap() throws {
        let folder = TemporaryFolder()
        folder.write("not a folder", to: "t")
        let add = runHotTask(["--file", "t/u/tasks.json", "--add", "A"], prefix: ["env", "-C", folder.path])
        #expect(add.status == 3, "a refusal, not a signal: \(add.status)")
        #expect(add.stderr.contains("cannot create the folder t"), "\(add.stderr)")
        #expect(fileText(folder.path("t")) == "not a folder")
    }

    // MARK: Damage is detected, never guessed

    /// Five acknowledged adds: the first is in the snapshot, the other four only in the log.
    private func storeWithFiveAdds(_ folder: TemporaryFolder) {
        for number in 1...5 { #expect(runHotTask(["--file", folder.storePath, "--add", "Task \(number)"]).status == 0) }
    }

    /// Every kind of command refuses with exit 2 naming `file` and `problem`, says how to
    /// recover, and leaves every file of the store as it was.
    private func everyCommandRefuses(
        _ folder: TemporaryFolder, naming file: String, _ problem: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let files = { folder.contents().filter { !$0.hasSuffix(".lock") }.sorted().map { ($0, fileBytes(folder.path($0))) } }
        let before = files()
        for args in [["--list"], ["--add", "More"], ["--done", "1"], ["--export", "-"], ["--undo"]] {
            let run = runHotTask(["--file", folder.storePath] + args)
            #expect(run.status == 2, "\(args): \(run.stderr)", sourceLocation: sourceLocation)
            #expect(run.stderr.contains(file) && run.stderr.contains(problem), "\(args): \(run.stderr)", sourceLocation: sourceLocation)
            #expect(run.stderr.contains("hottask --file '\(folder.storePath)' --recover"), "\(run.stderr)", sourceLocation: sourceLocation)
            #expect(!run.stderr.contains("cp '"), "no advice that drops a change: \(run.stderr)", sourceLocation: sourceLocation)
            #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(files().map(\.0) == before.map(\.0), sourceLocation: sourceLocation)
        #expect(files().map(\.1) == before.map(\.1), "nothing was changed", sourceLocation: sourceLocation)
    }

    private func captions(_ folder: TemporaryFolder) -> [String] {
        let run = runHotTask(["--file", folder.storePath, "--list", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        return ((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any])
            .flatMap { $0["tasks"] as? [[String: Any]] }?.compactMap { $0["caption"] as? String }.sorted() ?? []
    }

    @Test func anEmptiedLogIsRefusedAndRecoverSaysWhatItCouldNotKeep() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let journal = folder.path("tasks.json.journal")
        folder.write("", to: "tasks.json.journal")
        everyCommandRefuses(folder, naming: journal, "is empty (0 bytes)")
        let recover = runHotTask(["--file", folder.storePath, "--recover"])
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(recover.stdout.contains("Set aside (not deleted): \(journal) is now \(journal).damaged-"), "\(recover.stdout)")
        #expect(recover.stderr.contains("could not keep any change acknowledged after"), "\(recover.stderr)")
        #expect(folder.contents().contains { $0.hasPrefix("tasks.json.journal.damaged-") })
        #expect(captions(folder) == ["Task 1"], "what the snapshot held; the log's four adds are gone and the report said so")
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"]).status == 0)
        #expect(captions(folder) == ["Task 1", "Task 6"])
    }

    @Test func aRecordRemovedFromTheMiddleOfTheLogIsRefusedAndRecoverNamesWhatIsLost() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let journal = folder.path("tasks.json.journal")
        var lines = try #require(fileText(journal)).split(separator: "\n", omittingEmptySubsequences: false)
        let third = try #require(lines.firstIndex { $0.contains("Task 3") })
        lines.remove(at: third)  // a hand edit, or a tool that dropped one line
        folder.write(lines.joined(separator: "\n"), to: "tasks.json.journal")
        everyCommandRefuses(folder, naming: journal, "has lost records: record 2 is missing")
        let recover = runHotTask(["--file", folder.storePath, "--recover"])
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(recover.stderr.contains("could not keep the changes of the records missing from the log (record 2 is missing"), "\(recover.stderr)")
        #expect(captions(folder) == ["Task 1", "Task 2", "Task 4", "Task 5"], "every change still readable is kept")
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
        #expect(captions(folder) == ["Task 1", "Task 2", "Task 3", "Task 4"])
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"]).status == 0)
        #expect(captions(folder) == ["Task 1", "Task 2", "Task 3", "Task 4", "Task 6"])
    }

    @Test func aSnapshotWhoseGenerationWasChangedIsRefusedAndRecoverKeepsEveryChange() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        var text = try #require(fileText(folder.storePath))
        let range = try #require(text.range(of: #""generation": ""#))
        let digit = text.index(range.upperBound, offsetBy: 0)
        text.replaceSubrange(digit...digit, with: text[digit] == "0" ? "1" : "0")
        folder.write(text, to: "tasks.json")
        everyCommandRefuses(folder, naming: folder.path("tasks.json.journal"), "belongs to another snapshot")
        let recover = runHotTask(["--file", folder.storePath, "--recover"])
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(recover.stderr.isEmpty, "every change was kept: \(recover.stderr)")
        #expect(captions(folder) == (1...5).map { "Task \($0)" })
    }

    @Test func aLogOfAnotherStoreIsRefusedAndSetAsideWhole() throws {
        let folder = TemporaryFolder()
        let other = TemporaryFolder()
        storeWithFiveAdds(folder)
        for caption in ["Other 1", "Other 2"] { #expect(runHotTask(["--file", other.storePath, "--add", caption]).status == 0) }
        let foreign = try #require(fileBytes(other.path("tasks.json.journal")))
        folder.write(foreign, to: "tasks.json.journal")
        everyCommandRefuses(folder, naming: folder.path("tasks.json.journal"), "belongs to another snapshot")
        let recover = runHotTask(["--file", folder.storePath, "--recover"])
        #expect(recover.status == 0, "\(recover.stderr)")
        let aside = try #require(folder.contents().first { $0.hasPrefix("tasks.json.journal.damaged-") })
        #expect(fileBytes(folder.path(aside)) == foreign, "set aside as it was")
        #expect(captions(folder) == ["Other 1", "Other 2", "Task 1"], "the snapshot, and every change the log could still give")
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
        #expect(captions(folder) == ["A", "B", "D"])
        folder.write("{ garbage", to: "tasks.json")
        let run = runHotTask(["--file", folder.storePath, "--list"])
        #expect(run.status == 2)
        #expect(!run.stderr.contains("cp '"), "the backup lacks D: \(run.stderr)")
        #expect(run.stderr.contains("--recover"), "\(run.stderr)")
        let recover = runHotTask(["--file", folder.storePath, "--recover"])
        #expect(recover.status == 0, "\(recover.stderr)")
        let aside = try #require(folder.contents().first { $0.hasPrefix("tasks.json.damaged-") })
        #expect(fileText(folder.path(aside)) == "{ garbage", "the damaged snapshot set aside as it was")
        let kept = captions(folder)
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
        let list = runHotTask(["--file", folder.storePath, "--list"])
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list.stderr)")
        #expect(captions(folder) == (1...6).map { "Task \($0)" }, "the folded log's records are in the snapshot, and not applied twice")
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 7"]).status == 0)
        #expect(captions(folder) == (1...7).map { "Task \($0)" })
    }

    @Test func aTornLastRecordIsDroppedAloneAndNothingElseIsSaid() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let journal = folder.path("tasks.json.journal")
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"g": "0123456789abcdef", "clock": "17"#.utf8))
        try handle.close()
        let list = runHotTask(["--file", folder.storePath, "--list"])
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list.stderr)")
        #expect(captions(folder) == (1...5).map { "Task \($0)" })
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"]).status == 0)
        #expect(captions(folder) == (1...6).map { "Task \($0)" })
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
        #expect(captions(folder) == (1...5).map { "Task \($0)" })
        #expect(runHotTask(["--file", folder.storePath, "--add", "Task 6"]).status == 0)
        #expect(fileText(folder.storePath)?.contains(#""follows": ""#) == true)
        #expect(captions(folder) == (1...6).map { "Task \($0)" })
    }

    @Test func recoverOnAWholeStoreChangesNothing() throws {
        let folder = TemporaryFolder()
        storeWithFiveAdds(folder)
        let files = { folder.contents().filter { !$0.hasSuffix(".lock") }.sorted().map { fileBytes(folder.path($0)) } }
        let before = files()
        let run = runHotTask(["--file", folder.storePath, "--recover"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Nothing to recover"))
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
        let add = runWithFullStandardOutput(["--file", folder.storePath, "--add", "B"])
        #expect(add.status == 6, "\(add.stderr)")
        #expect(add.stderr.contains("saved, but could not write the output"), "\(add.stderr)")
        let export = runHotTask(["--file", folder.storePath, "--add", "C", "--export", "/dev/full"])
        #expect(export.status == 6, "\(export.stderr)")
        #expect(captions(folder) == ["A", "B", "C"], "each saved once")
        // Nothing saved: still 3, and the store is as it was.
        let before = fileBytes(folder.path("tasks.json.journal"))
        let list = runWithFullStandardOutput(["--file", folder.storePath, "--list"])
        #expect(list.status == 3, "\(list.stderr)")
        #expect(!list.stderr.contains("saved"))
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
        let load = runHotTask(["--file", folder.storePath, "--import", file], environment: ["HOTTASK_LOG_LIMIT": "1"])
        #expect(load.status == 0, "\(load.stderr)")
        let files = { folder.contents().filter { !$0.hasSuffix(".lock") }.sorted().map { fileBytes(folder.path($0)) } }
        let before = files()
        let undo = runHotTask(["--file", folder.storePath, "--undo"])
        #expect(undo.status == 1, "\(undo.stdout) \(undo.stderr)")
        #expect(undo.stderr.contains("cannot undo 'Added to Top Priority: B'") && undo.stderr.contains("Nothing was changed"), "\(undo.stderr)")
        #expect(files() == before, "nothing was changed")
        let kept = captions(folder)
        #expect(kept.count == 602 && kept.contains("A") && kept.contains("B"))
        // Changes made after it can still be taken back.
        #expect(runHotTask(["--file", folder.storePath, "--add", "C"]).status == 0)
        let undoC = runHotTask(["--file", folder.storePath, "--undo"])
        #expect(undoC.status == 0 && undoC.stdout.contains("Undone: Added to Top Priority: C"), "\(undoC.stdout) \(undoC.stderr)")
        #expect(runHotTask(["--file", folder.storePath, "--undo"]).status == 1)
    }

    // MARK: Side files are data, not trust

    /// A named pipe with no writer: a read that blocks on it would wait forever.
    private func plantPipe(_ path: String) {
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
    }

    @Test func aNamedPipeInPlaceOfTheImportBaseIsAnErrorNamingItNeverAWait() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let file = folder.write(#"{"version": 2, "tasks": []}"#, to: "in.json")
        plantPipe(folder.path("tasks.json.imported"))
        let run = runHotTask(["--file", folder.storePath, "--import", file], timeout: 10)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains(folder.path("tasks.json.imported")) && run.stderr.contains("named pipe"), "\(run.stderr)")
        #expect(run.stderr.contains("Nothing was changed"))
    }

    @Test func anImportBaseThatCannotBeReadIsAnErrorNotAnEmptyBase() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let file = folder.write(#"{"version": 2, "tasks": []}"#, to: "in.json")
        try FileManager.default.createDirectory(atPath: folder.path("tasks.json.imported"), withIntermediateDirectories: false)
        let run = runHotTask(["--file", folder.storePath, "--import", file])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("the import base \(folder.path("tasks.json.imported")) cannot be read: it is a folder"), "\(run.stderr)")
    }

    @Test func aNamedPipeInPlaceOfTheSyncBaseIsAnErrorNamingItNeverAWait() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let config = folder.write("[sync]\nurl = \"http://127.0.0.1:9/calendar/\"\n", to: "config.toml")
        plantPipe(folder.path("tasks.json.sync"))
        let run = runHotTask(["--file", folder.storePath, "--config", config, "--sync"], timeout: 10)
        #expect(run.status == 5, "\(run.stderr)")
        #expect(run.stderr.contains(folder.path("tasks.json.sync")) && run.stderr.contains("named pipe"), "\(run.stderr)")
    }

    @Test func aNamedPipeInPlaceOfTheDamagedLinesFileIsAnErrorNamingItNeverAWait() throws {
        let folder = TemporaryFolder()
        for caption in ["One", "Two", "Three"] { #expect(runHotTask(["--file", folder.storePath, "--add", caption]).status == 0) }
        let journal = folder.path("tasks.json.journal")
        var text = try #require(fileText(journal))
        text = text.replacingOccurrences(of: "\"caption\": \"Two\"", with: "\"caption\": \"Twx\"")
        folder.write(text, to: "tasks.json.journal")
        plantPipe(journal + ".damaged")
        let run = runHotTask(["--file", folder.storePath, "--add", "Four"], timeout: 10)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains(journal + ".damaged"), "\(run.stderr)")
        #expect(captions(folder) == ["One", "Three"], "nothing was changed (the damaged line is still skipped with a warning)")
    }

    @Test func aNamedPipeInPlaceOfTheIndexIsPassedOverAndTheChangeIsMade() throws {
        let folder = TemporaryFolder()
        let add = runHotTask(["--file", folder.storePath, "--add", "A", "--json"])
        let id = try #require(add.stdout.firstMatch(of: /"id": "([0-9a-f-]{36})"/)).1
        plantPipe(folder.path("tasks.json.index"))
        let done = runHotTask(["--file", folder.storePath, "--done", String(id)], timeout: 10)
        #expect(done.status == 0, "\(done.stderr)")
        #expect(runHotTask(["--file", folder.storePath, "--list"]).stdout.contains("[x] A"))
    }

    @Test func aNamedPipeOrALinkInPlaceOfTheLogIsNamedForWhatItIs() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let journal = folder.path("tasks.json.journal")
        let real = folder.path("elsewhere.journal")
        #expect(rename(journal, real) == 0)
        #expect(symlink(real, journal) == 0)
        let linked = runHotTask(["--file", folder.storePath, "--list"])
        #expect(linked.status == 2, "\(linked.stderr)")
        #expect(linked.stderr.contains(journal) && linked.stderr.contains("symbolic link"), "\(linked.stderr)")
        #expect(!linked.stderr.contains("chmod"), "no advice that changes the link's target: \(linked.stderr)")
        plantPipe(journal)
        let piped = runHotTask(["--file", folder.storePath, "--list"], timeout: 10)
        #expect(piped.status == 2, "\(piped.stderr)")
        #expect(piped.stderr.contains(journal) && piped.stderr.contains("named pipe"), "\(piped.stderr)")
    }

    @Test func leftoverTempFilesOfTheImportBaseFromDeadWritersAreRemoved() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        // A pid no process can have (above any pid_max): its writer is certainly gone.
        let leftover = folder.write("half a base", to: ".tasks.json.imported.tmp-2147483646-12345")
        let file = folder.write(
            #"{"version": 2, "tasks": [{"id": "7abacbb1-d371-42a1-b953-c21babeb349b", "caption": "B", "section": "bonus", "completed": false, "createdAt": "2026-11-21T10:00:00Z", "completedAt": null, "modifiedAt": "2026-11-21T10:00:00Z"}]}"#,
            to: "in.json")
        #expect(runHotTask(["--file", folder.storePath, "--import", file]).status == 0)
        #expect(fileBytes(leftover) == nil)
        #expect(fileBytes(folder.path("tasks.json.imported")) != nil)
    }

    /// The lock file says which HotTask took the lock last; the message must name the process
    /// that holds it now (here `flock(1)`, which never writes its pid there).
    @Test func aHeldLockIsBlamedOnTheProcessHoldingItNow() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "One"]).status == 0)
        let lock = try HeldLock(store: folder.storePath)
        defer { withExtendedLifetime(lock) {} }
        let holder = lock.holder
        let deadline = Date().addingTimeInterval(5)
        var run = runHotTask(["--file", folder.storePath, "--add", "Two"], environment: ["HOTTASK_LOCK_WAIT": "0"])
        while Date() < deadline, run.status == 0 {
            usleep(20_000)
            run = runHotTask(["--file", folder.storePath, "--add", "Two"], environment: ["HOTTASK_LOCK_WAIT": "0"])
        }
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("process \(holder.pid) (flock "), "\(run.stderr)")
    }
}

/// Side files that steer merges are not taken from another user or from a file others can write.
extension StoreTrustTests {
    @Test func anImportBaseOrSyncStateAnotherUserCouldWriteIsRefusedNamingIt() throws {
        let folder = TemporaryFolder()
        let file = folder.write(
            #"{"version": 2, "tasks": [{"id": "c0000001-0000-4000-8000-000000000001", "caption": "Imported", "section": "priority", "completed": false, "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z"}]}"#,
            to: "in.json")
        #expect(runHotTask(["--file", folder.storePath, "--import", file]).status == 0)
        let base = folder.storePath + ".imported"
        try #require(FileManager.default.fileExists(atPath: base))
        chmod(base, 0o666)
        let refused = runHotTask(["--file", folder.storePath, "--import", file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(base) && refused.stderr.contains("others may write it (mode 666)"), "\(refused.stderr)")
        chmod(base, 0o600)
        chown(base, 65534, 65534)
        let foreign = runHotTask(["--file", folder.storePath, "--import", file])
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("belongs to another user (uid 65534, nobody)"), "\(foreign.stderr)")

        let state = folder.write(#"{"collection": "http://127.0.0.1:9/", "entries": {}, "server": {}, "version": 1}"#, to: "tasks.json.sync")
        chmod(state, 0o666)
        let config = folder.write("[sync]\nurl = \"http://127.0.0.1:9/\"\n", to: "c.toml")
        let sync = runHotTask(["--file", folder.storePath, "--config", config, "--sync"])
        #expect(sync.status == 5)
        #expect(sync.stderr.contains("cannot use the sync state") && sync.stderr.contains("mode 666"), "\(sync.stderr)")
    }
}
