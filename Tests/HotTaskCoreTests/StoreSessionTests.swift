import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("The UI's store session: its own changes out, other processes' records in")
struct StoreSessionTests {
    let folder = TemporaryFolder()
    private var store: TaskStore { TaskStore(path: folder.storePath) }

    private func opened() throws -> (StoreSession, TaskList) {
        try store.save(Fixtures.sampleList())
        let session = StoreSession(store: store)
        return (session, try session.open())
    }

    @Test("a UI change and a command-line change to other fields of the same task both hold")
    func sameTaskOtherFields() throws {
        let (session, list) = try opened()
        try store.change { [$0.moving(from: 0, to: .bonus, index: 0)!] }  // `hottask --move 1`
        let complete = list.completing(true, at: 0, now: Fixtures.date(hours: 1), local: .current)!
        guard case .committed(_, let outside) = try session.save([complete], what: "Completed", current: list) else {
            Issue.record("expected a plain commit")
            return
        }
        #expect(outside.count == 1, "the move is handed to the UI to show")
        let stored = try store.load().task(withID: Fixtures.id(1))
        #expect(stored?.section == .bonus)
        #expect(stored?.completed == true)
    }

    @Test("a save never waits for the lock: held by another process, it says busy and writes nothing")
    func busy() throws {
        let (session, list) = try opened()
        let journal = fileBytes(store.journalPath)
        let saved = try store.withLock {
            try session.save([list.completing(true, at: 0, now: Fixtures.baseDate, local: .current)!], what: "Completed", current: list)
        }
        #expect(saved == .busy)
        #expect(fileBytes(store.journalPath) == journal)
        #expect(try store.load().task(withID: Fixtures.id(1))?.completed == false)
    }

    @Test("a save whose condition no longer holds in the store writes nothing and says why")
    func conditionCheckedInTheTransaction() throws {
        let (session, list) = try opened()
        let id = Fixtures.id(1)
        let position = try #require(list.position(of: id))
        let typed = try #require(list.noting(at: position, to: "Landlord: 555-0199"))
        let condition = SaveCondition.note(of: id, was: list[position].note, becomes: "Landlord: 555-0199")
        // Another program sets the note after the editor opened, before the save: it stands.
        try store.change { [$0.noting(at: position, to: "Cash only")!] }
        let journal = fileBytes(store.journalPath)
        let refused = try session.save([typed], what: "Note added", count: list.count, list: nil, condition: condition)
        #expect(refused == .refused(reason: "the note was changed elsewhere meanwhile"))
        #expect(fileBytes(store.journalPath) == journal, "nothing was written")
        #expect(try store.load().task(withID: id)?.note == "Cash only")
        // Deleted meanwhile: refused too, and the task is not brought back.
        try store.change { list in [.delete(list[list.position(of: id)!])] }
        #expect(
            try session.save([typed], what: "Note added", count: list.count, list: nil, condition: condition)
                == .refused(reason: "its task was deleted elsewhere meanwhile"))
        #expect(try store.load().task(withID: id) == nil)
        // Unchanged since: the condition holds and the note is saved.
        let other = Fixtures.id(2)
        let otherPosition = try #require(list.position(of: other))
        let note = try #require(list.noting(at: otherPosition, to: "Ask about the lease"))
        guard
            case .committed = try session.save(
                [note], what: "Note added", count: list.count - 1, list: nil,
                condition: .note(of: other, was: list[otherPosition].note, becomes: "Ask about the lease"))
        else {
            Issue.record("expected a commit")
            return
        }
        #expect(try store.load().task(withID: other)?.note == "Ask about the lease")
    }

    @Test("other processes' commits arrive as records, and only new ones")
    func pollRecords() throws {
        let (session, _) = try opened()
        #expect(try session.poll() == nil)
        try store.addOnTop([Fixtures.task("from the shell", id: 20)], what: "Added")
        guard case .records(let records)? = try session.poll() else {
            Issue.record("expected the add as a record")
            return
        }
        #expect(records.map(\.what) == ["Added"])
        #expect(try session.poll() == nil, "a record is handed over once")
    }

    @Test("a store whose every file vanished is never read as an empty list; the next save writes the UI's whole list")
    func vanishedStoreIsNotEmpty() throws {
        let (session, list) = try opened()
        for file in store.ownFiles { try? FileManager.default.removeItem(atPath: file) }
        #expect(try session.poll() == nil, "nothing deleted: the store is missing, not empty")
        var current = list
        let added = current.adding(onTop: Fixtures.task("typed after", id: 30))
        current.apply(added, clock: .zero, force: true)
        _ = try session.save([added], what: "Added", current: current)
        #expect(try store.load().all.map(\.caption) == current.all.map(\.caption))
    }

    /// `rm -r` of the folder takes the files one at a time: a poll or a save between two of
    /// them read what was left (the log, the backup) as the store, every task deleted, and
    /// the save then wrote the UI's new task alone (seen in CI, `ReliabilityTests`).
    @Test("a store whose snapshot is gone, the rest going, is never read as what is left; the next save writes the UI's whole list")
    func halfRemovedStoreIsNotWhatIsLeft() throws {
        for left in [[store.journalPath], [store.backupPath], [store.journalPath, store.backupPath, store.lockPath]] {
            let (session, list) = try opened()
            for file in store.ownFiles where !left.contains(file) { try? FileManager.default.removeItem(atPath: file) }
            #expect(try session.poll() == nil, "nothing deleted: the store is going, not empty")
            var current = list
            let added = current.adding(onTop: Fixtures.task("typed after", id: 30))
            current.apply(added, clock: .zero, force: true)
            _ = try session.save([added], what: "Added", current: current)
            #expect(try store.load().all.map(\.caption) == current.all.map(\.caption), "left: \(left)")
            for file in store.ownFiles { try? FileManager.default.removeItem(atPath: file) }
        }
    }

    @Test("a compaction of what the UI has seen is followed without reading the list again")
    func followsCompaction() throws {
        let (session, list) = try opened()
        _ = try session.save([list.completing(true, at: 0, now: Fixtures.baseDate, local: .current)!], what: "Completed", current: list)
        try store.compact()
        #expect(try session.poll() == nil)
        try store.addOnTop([Fixtures.task("after the compaction", id: 21)], what: "Added")
        guard case .records(let records)? = try session.poll() else {
            Issue.record("expected the add after the compaction as a record")
            return
        }
        #expect(records.count == 1)
    }

    @Test("a clear of thousands of tasks is appended to the log, not a rewrite of the store while the screen waits; the UI takes the stamp alone")
    func largeRecordIsAppended() throws {
        let caption = String(repeating: "a caption long enough to make the record large ", count: 3)
        try store.save(TaskList((0..<6000).map { Fixtures.task("\(caption)\($0)", id: 1000 + $0, completed: $0 < 5000) }))
        let session = StoreSession(store: store)
        var list = try session.open()
        let snapshot = fileBytes(store.path)
        let clear = list.removingCompleted()
        #expect(clear.count == 5000)
        list.applyInOnePass(clear, clock: .zero, force: true)
        guard case .committed(_, let outside) = try session.save(clear, what: "Cleared", current: list) else {
            Issue.record("expected an append, not a reload")
            return
        }
        #expect(outside.isEmpty)
        #expect((fileBytes(store.journalPath)?.count ?? 0) > 1 << 20, "over a command's 1 MB: the UI's record is in the log")
        #expect(fileBytes(store.path) == snapshot, "the snapshot is not rewritten")
        #expect(try store.load().count == 1000)
    }

    @Test("the longest log the UI appends to, with its largest record on top, is one every reader still takes")
    func appendedLogStaysReadable() {
        #expect(StoreLimits.uiFoldsLogPastBytes + StoreLimits.uiRecordInLog < StoreLimits.logBytes)
    }

    @Test("after a compaction of what it saw (the UI's background job), a save appends to the new log: no reload")
    func saveFollowsCompaction() throws {
        let (session, list) = try opened()
        var current = list
        let complete = current.completing(true, at: 0, now: Fixtures.baseDate, local: .current)!
        current.apply(complete, clock: .zero, force: true)
        _ = try session.save([complete], what: "Completed", current: current)
        try store.compact()
        let added = current.adding(onTop: Fixtures.task("after the compaction", id: 40))
        current.apply(added, clock: .zero, force: true)
        guard case .committed(_, let outside) = try session.save([added], what: "Added", current: current) else {
            Issue.record("expected an append to the new log")
            return
        }
        #expect(outside.isEmpty)
        #expect(try store.load().all.map(\.caption) == current.all.map(\.caption))
        #expect(try session.poll() == nil, "the session follows the new snapshot")
    }

    @Test("a snapshot the UI cannot follow is read again in full")
    func reloads() throws {
        let (session, _) = try opened()
        try store.save(TaskList([Fixtures.task("Replaced", id: 30)]))
        guard case .reloaded(let list, _)? = try session.poll() else {
            Issue.record("expected a reload")
            return
        }
        #expect(list.all.map(\.caption) == ["Replaced"])
    }

    @Test("a reload carries the lasting history, with the records another process folded into its snapshot")
    func reloadCarriesTheHistory() throws {
        let (session, list) = try opened()
        let opening = try store.read().activity
        // Another process completes a task, then folds its log into a new snapshot.
        try store.change { _ in [list.completing(true, at: 0, now: Date(), local: .current)!] }
        try store.compact()
        guard case .reloaded(let reloaded, let activity)? = try session.poll() else {
            Issue.record("expected a reload")
            return
        }
        #expect(reloaded.completedCount == list.completedCount + 1)
        let zone = ZoneInfo(identifier: "UTC")!
        let completions = { (history: ActivityHistory) in history.days(in: zone).values.reduce(0) { $0 + $1.completed } }
        #expect(completions(activity) == completions(opening) + 1, "the completion folded away is counted")
    }
}
