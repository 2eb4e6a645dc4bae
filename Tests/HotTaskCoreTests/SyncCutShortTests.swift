import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Syncs cut short (a killed `hottask-sync`, a closed lid), then a delete or an edit here and a
/// phone's change there: nothing deleted comes back and no acknowledged edit is lost, whether
/// the server's answer to the last write arrived or not.
@Suite("Syncs cut short")
struct SyncCutShortTests {
    let folder = TemporaryFolder()
    let server = InMemoryCalendar()
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    func replica(_ calendar: CalendarCollection) -> SyncEngineTests.Replica {
        SyncEngineTests.Replica(folder.path("a.json"), server: calendar, now: Self.start)
    }

    var serverCaptions: Set<String> { Set(server.objects.values.compactMap { TodoMapping.read($0.body).todo?.fields.caption }) }

    func href(of caption: String) throws -> String {
        try #require(server.objects.first { TodoMapping.read($0.value.body).todo?.fields.caption == caption }?.key)
    }

    /// A sync of `count` new tasks (after `synced` that went up whole) cut after 10 writes.
    func cutSync(new count: Int, synced: Int) throws -> (SyncEngineTests.Replica, CutCalendar, uploaded: [String]) {
        let cut = CutCalendar(server, writesBeforeCut: nil)
        let a = replica(cut)
        for index in 0..<synced { try a.add("Synced \(index)") }
        if synced > 0 { try a.sync() }
        for index in 0..<count { try a.add("Task \(index)") }
        cut.writesBeforeCut = cut.writesSent + 10
        #expect(throws: SyncFailure.self) { try a.sync() }
        cut.writesBeforeCut = nil
        let uploaded = serverCaptions.filter { $0.hasPrefix("Task") }.sorted()
        #expect(uploaded.count == 10)
        try expectBaseAgreesWithServer(a)
        return (a, cut, uploaded)
    }

    /// Every entry the store's base holds as heard back names the server's current version.
    func expectBaseAgreesWithServer(_ a: SyncEngineTests.Replica) throws {
        let base = try SyncBase.load(besides: a.store, collection: server.url, pending: try a.store.pendingSync())
        for entry in base.entries.values where !entry.isTentative {
            #expect(server.objects[entry.href]?.etag == entry.etag, "\(entry.caption): the base and the server disagree")
        }
    }

    @Test("a delete after a cut sync holds: nothing comes back, and the server loses the task too", arguments: [0, 3])
    func deleteAfterACutSync(synced: Int) throws {
        let (a, _, uploaded) = try cutSync(new: 30, synced: synced)
        a.now += 60
        // The ten that went up (the last one's answer lost) and one that did not.
        let notUploaded = try #require((0..<30).map { "Task \($0)" }.first { !uploaded.contains($0) })
        for caption in uploaded + [notUploaded] { try a.change(caption) { list, position in list.deleting(at: position) } }
        let report = try a.sync()
        #expect(report.pulled == 0)
        #expect(Set(a.list.all.map(\.caption)) == serverCaptions)
        #expect(a.list.count == 30 + synced - 11)
        #expect(serverCaptions.isDisjoint(with: uploaded + [notUploaded]))
        try expectBaseAgreesWithServer(a)
        // And again: nothing moves.
        let quiet = try a.sync()
        #expect(quiet.pulled == 0 && quiet.pushed == 0 && quiet.deletedHere == 0 && quiet.deletedThere == 0)
    }

    @Test("after a cut sync, an edit here and a phone's completion of the same task both hold")
    func editHereAndPhoneCompletionAfterACutSync() throws {
        let (a, _, uploaded) = try cutSync(new: 20, synced: 0)
        a.now += 60
        for caption in uploaded { try a.change(caption) { list, position in list.renaming(at: position, to: caption + " (edited)") } }
        // The phone's change is the later one, and it changes only the status.
        for caption in uploaded { server.edit(try href(of: caption), "STATUS", "COMPLETED", now: a.now.addingTimeInterval(60)) }
        a.now += 120
        try a.sync()
        for caption in uploaded {
            let task = try #require(a.task(caption + " (edited)"), "\(caption): the edit made here was lost")
            #expect(task.completed, "\(caption): the phone's completion was lost")
        }
        #expect(serverCaptions == Set(a.list.all.map(\.caption)))
        try expectBaseAgreesWithServer(a)
    }

    @Test("edited here, completed on the phone in its old copy, then deleted here: it stays deleted", arguments: [false, true])
    func editPhoneThenDelete(cutFirst: Bool) throws {
        let a: SyncEngineTests.Replica
        let caption: String
        if cutFirst {
            let cut = try cutSync(new: 12, synced: 0)
            a = cut.0
            caption = cut.uploaded[9]  // the write whose answer was lost
        } else {
            a = replica(server)
            for index in 0..<3 { try a.add("Task \(index)") }
            try a.sync()
            caption = "Task 1"
        }
        let href = try href(of: caption)
        a.now += 60
        try a.change(caption) { list, position in list.renaming(at: position, to: "Renamed") }
        server.edit(href, "STATUS", "COMPLETED", now: a.now.addingTimeInterval(30))
        a.now += 120
        try a.change("Renamed") { list, position in list.deleting(at: position) }
        let report = try a.sync()
        #expect(report.pulled == 0)
        #expect(a.task("Renamed") == nil && a.task(caption) == nil)
        #expect(server.objects[href] == nil)
        #expect(report.deletedThereCaptions.contains("Renamed"))
    }

    @Test("a phone's change made after the delete here brings the task back, with the edit made here before it")
    func aLaterChangeThereBeatsTheDelete() throws {
        let a = replica(server)
        for index in 0..<3 { try a.add("Task \(index)") }
        try a.sync()
        let href = try href(of: "Task 1")
        a.now += 60
        try a.change("Task 1") { list, position in list.renaming(at: position, to: "Task 1 (edited)") }
        a.now += 60
        try a.change("Task 1 (edited)") { list, position in list.deleting(at: position) }
        server.edit(href, "STATUS", "COMPLETED", now: a.now.addingTimeInterval(300))
        a.now += 600
        try a.sync()
        let back = try #require(a.task("Task 1 (edited)"))
        #expect(back.completed)
        #expect(TodoMapping.read(try #require(server.objects[href]).body).todo?.fields.caption == "Task 1 (edited)")
    }

    @Test(
        "a sync committing on a store due to be folded folds what is committed first and appends its own record: the base file never gets ahead of the store"
    )
    func aSyncRecordIsNeverFoldedAsItIsCommitted() throws {
        let a = replica(server)
        for index in 0..<3 { try a.add("Task \(index)") }
        try a.sync()
        // The snapshot copied in place (a restore, a move): the next commit must fold the log.
        let copy = folder.path("copy.json")
        try FileManager.default.copyItem(atPath: a.store.path, toPath: copy)
        try FileManager.default.removeItem(atPath: a.store.path)
        try FileManager.default.moveItem(atPath: copy, toPath: a.store.path)
        #expect(try a.store.read().needsCompaction)
        server.store("/calendar/phone-1.ics", SyncEngineTests.phoneObject(uid: "phone-1", summary: "From phone", priority: nil))
        a.now += 60
        #expect(try a.sync().pulled == 1)
        let phoneKey = TodoMapping.id(forUID: "phone-1").uuidString.lowercased()
        let file = try #require(try SyncBase.readFile(besides: a.store))
        #expect(file.entries.count == 3 && file.entries[phoneKey] == nil, "the base file holds only what was committed before the sync")
        let records = try #require(try a.store.log.read()).records
        #expect(
            records.contains { $0.sync?.set[phoneKey] != nil && $0.changes.contains { $0.isAdd } }, "the pull and its entry are one record of the log"
        )
        try expectBaseAgreesWithServer(a)
    }

    @Test("an undo from the shell never takes back what a sync only learned of the server")
    func undoSkipsAcknowledgements() throws {
        let a = replica(server)
        try a.add("Pay rent")
        try a.sync()
        let lines = try a.store.undoLastChange()
        #expect(lines == ["Undone: add"])
        #expect(a.list.count == 0)
    }
}
