import Foundation
import Seeded
import TestSupport
import Testing

@testable import HotTaskCore

/// The sync engine against a calendar in memory that keeps the protocol's promises: what two
/// HotTask stores and a phone see after syncing, and what a sync with nothing to do costs.
@Suite("Sync engine")
struct SyncEngineTests {
    let folder = TemporaryFolder()
    let server = InMemoryCalendar()

    /// A HotTask replica on its own store, with a clock the test moves.
    final class Replica {
        let store: TaskStore
        let server: CalendarCollection
        var now: Date

        init(_ path: String, server: CalendarCollection, now: Date) {
            store = TaskStore(path: path)
            self.server = server
            self.now = now
        }

        @discardableResult
        func sync() throws -> SyncReport {
            let now = self.now
            return try SyncEngine(store: store, collection: server, now: { now }).run()
        }

        var list: TaskList {
            do { return try store.load() } catch {
                Issue.record("cannot read \(store.path): \(error)")
                return TaskList()
            }
        }

        func add(_ caption: String, _ section: Section = .priority) throws {
            let task = TaskItem(caption: caption, section: section, createdAt: now)
            try store.commit([list.adding(onTop: task)], what: "add", now: now)
        }

        func change(_ caption: String, _ make: (TaskList, Int) -> TaskChange?) throws {
            let list = self.list
            guard let position = list.all.firstIndex(where: { $0.caption == caption }) else {
                Issue.record("no task \"\(caption)\" here")
                return
            }
            if let change = make(list, position) { try store.commit([change], what: "edit", now: now) }
        }

        func task(_ caption: String) -> TaskItem? { list.all.first { $0.caption == caption } }
    }

    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    func replica(_ name: String) -> Replica { Replica(folder.path(name), server: server, now: Self.start) }

    func href(of caption: String) -> String? {
        server.objects.first { TodoMapping.read($0.value.body).todo?.fields.caption == caption }?.key
    }

    func phoneTodo(_ caption: String) -> RemoteTodo? {
        server.objects.values.compactMap { TodoMapping.read($0.body).todo }.first { $0.fields.caption == caption }
    }

    @Test("tasks made on either side reach the other, sections mapped to PRIORITY both ways")
    func tasksTravel() throws {
        let a = replica("a.json")
        try a.add("Pay rent")
        try a.add("Read a book", .bonus)
        server.store("/calendar/phone-1.ics", Self.phoneObject(uid: "phone-1", summary: "From phone", priority: "3"))
        server.store("/calendar/phone-2.ics", Self.phoneObject(uid: "phone-2", summary: "Phone low", priority: "9"))
        let report = try a.sync()
        #expect(report.pulled == 2 && report.pushed == 2)
        #expect(a.task("From phone")?.section == .priority)
        #expect(a.task("Phone low")?.section == .bonus)
        #expect(phoneTodo("Pay rent")?.calendar.components[0].first("PRIORITY")?.value == "1")
        #expect(phoneTodo("Read a book")?.calendar.components[0].first("PRIORITY") == nil)

        let b = replica("b.json")
        try b.sync()
        #expect(Set(b.list.all.map(\.caption)) == ["Pay rent", "Read a book", "From phone", "Phone low"])
        // A phone task keeps its UID, whatever its form, and its id is the same everywhere.
        #expect(b.task("From phone")?.id == a.task("From phone")?.id)
    }

    @Test("a field changed on each side is kept on both; the phone's other properties survive an edit here")
    func fieldsMerge() throws {
        let a = replica("a.json")
        server.store("/calendar/phone-1.ics", Self.phoneObject(uid: "phone-1", summary: "Dentist", priority: "9"))
        try a.sync()
        let href = try #require(self.href(of: "Dentist"))
        a.now += 60
        server.edit(href, "SUMMARY", "Dentist at 3", now: a.now)
        a.now += 60
        try a.change("Dentist") { list, position in list.completing(true, at: position, now: a.now, local: .current) }
        let report = try a.sync()
        #expect(report.merged == 1)
        #expect(a.task("Dentist at 3")?.completed == true)
        let todo = try #require(phoneTodo("Dentist at 3"))
        let vtodo = todo.calendar.components[0]
        #expect(vtodo.first("STATUS")?.value == "COMPLETED")
        #expect(vtodo.first("COMPLETED") != nil)
        #expect(vtodo.first("DUE")?.value == "20261201")
        #expect(vtodo.first("CATEGORIES")?.value == "errands,health")
        #expect(vtodo.first("PRIORITY")?.value == "9", "a phone's PRIORITY:9 stays while the task stays in Bonus")
        #expect((vtodo.first("SEQUENCE").flatMap { Int($0.value) } ?? 0) >= 1)
    }

    @Test("changed on both sides to different values: the later change wins")
    func laterWins() throws {
        let a = replica("a.json")
        let b = replica("b.json")
        try a.add("Call mum")
        try a.sync()
        try b.sync()
        b.now += 10
        try b.change("Call mum") { list, position in list.renaming(at: position, to: "Call mum (b)") }
        a.now += 20
        try a.change("Call mum") { list, position in list.renaming(at: position, to: "Call mum (a, later)") }
        try b.sync()
        try a.sync()
        try b.sync()
        #expect(a.list.all.map(\.caption) == ["Call mum (a, later)"])
        #expect(b.list.all.map(\.caption) == ["Call mum (a, later)"])
    }

    @Test("deletes travel both ways, and an edit beats a delete made on the other side")
    func deletes() throws {
        let a = replica("a.json")
        let b = replica("b.json")
        try a.add("Stays")
        try a.add("Old task")
        try a.add("Edited here")
        try a.sync()
        try b.sync()
        try a.change("Old task") { list, position in list.deleting(at: position) }
        try a.change("Edited here") { list, position in list.deleting(at: position) }
        b.now += 5
        try b.change("Edited here") { list, position in list.renaming(at: position, to: "Edited here, kept") }
        try a.sync()
        #expect(href(of: "Old task") == nil)
        try b.sync()
        try a.sync()
        #expect(b.task("Old task") == nil)
        #expect(a.task("Edited here, kept") != nil && b.task("Edited here, kept") != nil)
        // Deleted on the phone: the summary names it.
        let href = try #require(self.href(of: "Edited here, kept"))
        server.remove(href)
        let report = try a.sync()
        #expect(a.list.all.map(\.caption) == ["Stays"])
        #expect(report.deletedHereCaptions == ["Edited here, kept"])
        #expect(report.description.hasSuffix("deleted here: \"Edited here, kept\""))
    }

    // MARK: Deletion needs proof

    /// A replica with `count` tasks synced, and the files of its store and base as they are.
    func syncedReplica(_ count: Int, offersSyncCollection: Bool = true) throws -> Replica {
        server.offersSyncCollection = offersSyncCollection
        let a = replica("a.json")
        for index in 1...count { try a.add("Task \(index)") }
        try a.sync()
        #expect(server.objects.count == count)
        return a
    }

    func files(_ names: String...) -> [Data?] { names.map { FileManager.default.contents(atPath: folder.path($0)) } }

    @Test("another client empties the calendar: the sync refuses, changes nothing, and --force-delete then deletes", arguments: [true, false])
    func calendarEmptied(syncCollection: Bool) throws {
        let a = try syncedReplica(20, offersSyncCollection: syncCollection)
        for href in server.objects.keys { server.remove(href) }
        let before = files("a.json", "a.json.journal", "a.json.sync")
        let refusal = #expect(throws: SyncRefusal.self) { try a.sync() }
        #expect(refusal?.message.contains("--force-delete") == true)
        #expect(refusal?.message.contains(syncCollection ? "all 20 tasks synced before were deleted" : "lists no tasks") == true)
        #expect(files("a.json", "a.json.journal", "a.json.sync") == before, "nothing changed here")
        #expect(a.list.count == 20)
        #expect(server.objects.isEmpty, "nothing written there")
        let report = try SyncEngine(store: a.store, collection: server, now: { a.now }, forceDelete: true).run()
        #expect(report.deletedHere == 20 && a.list.isEmpty)
    }

    @Test("the server forgets the token and lists nothing once: no task is deleted, and the next sync goes on as before")
    func forgottenTokenEmptyListing() throws {
        let a = try syncedReplica(20)
        let forgetful = ForgetfulCalendar(server)
        forgetful.emptyListings = 1
        let replica = Replica(a.store.path, server: forgetful, now: a.now)
        #expect(throws: SyncRefusal.self) { try replica.sync() }
        #expect(a.list.count == 20)
        // The listing is whole again: nothing was lost, nothing is deleted.
        let report = try replica.sync()
        #expect(report.deletedHere == 0 && report.deletedThere == 0 && a.list.count == 20 && server.objects.count == 20)
    }

    @Test("a listing that names a synced member under another host deletes nothing here: its absence proves nothing")
    func memberUnderAnotherHost() throws {
        let a = try syncedReplica(20)
        let proxied = ForgetfulCalendar(server)
        proxied.proxiedMember = true
        let replica = Replica(a.store.path, server: proxied, now: a.now)
        let report = try replica.sync()
        #expect(report.deletedHere == 0 && a.list.count == 20, "\(report)")
        #expect(report.notes.contains { $0.hasPrefix("skipped https://proxy.invalid/") }, "\(report.notes)")
        #expect(try replica.sync().deletedHere == 0 && a.list.count == 20 && server.objects.count == 20)
    }

    @Test("a calendar deleted and made again under the same address is no proof of deletion; --resync keeps both sides")
    func calendarReplaced() throws {
        let a = try syncedReplica(3, offersSyncCollection: false)
        for href in server.objects.keys { server.remove(href) }
        server.store("/calendar/other-1.ics", Self.phoneObject(uid: "other-1", summary: "In the new calendar", priority: nil))
        let refusal = #expect(throws: SyncRefusal.self) { try a.sync() }
        #expect(refusal?.message.contains("lacks 3 of the 3 synced before") == true)
        #expect(a.list.count == 3)
        let report = try SyncEngine(store: a.store, collection: server, now: { a.now }, forgetBase: true).run()
        #expect(report.deletedHere == 0 && report.pushed == 3 && report.pulled == 1)
        #expect(a.list.count == 4 && server.objects.count == 4)
    }

    @Test("a listing that lacks more than half of the synced tasks is refused; a few deletions on the phone are not")
    func shrunkenListing() throws {
        let a = try syncedReplica(10, offersSyncCollection: false)
        let hrefs = server.objects.keys.sorted()
        server.remove(hrefs[0])
        server.remove(hrefs[1])
        #expect(try a.sync().deletedHere == 2)
        for href in hrefs[2..<7] { server.remove(href) }
        #expect(throws: SyncRefusal.self) { try a.sync() }
        #expect(a.list.count == 8)
    }

    @Test("a store that lost its synced tasks (replaced by an empty one) does not empty the server")
    func storeReplaced() throws {
        let a = try syncedReplica(5)
        // What the syncs agreed is in the base file once the log is folded (before, it is in the
        // log, and a store replaced whole takes it along: a first sync that deletes nothing).
        try a.store.compact()
        for name in ["a.json", "a.json.journal", "a.json.bak"] { try? FileManager.default.removeItem(atPath: folder.path(name)) }
        let refusal = #expect(throws: SyncRefusal.self) { try a.sync() }
        #expect(refusal?.message.contains("5 synced tasks are missing from the store with no record of their deletion") == true)
        #expect(server.objects.count == 5)
        // Deleting with HotTask is proof: those deletions go through.
        let b = replica("b.json")
        try b.sync()
        try b.change("Task 1") { list, position in list.deleting(at: position) }
        #expect(try b.sync().deletedThereCaptions == ["Task 1"])
        #expect(server.objects.count == 4)
        // --resync brings the other four back into the emptied store.
        let report = try SyncEngine(store: a.store, collection: server, now: { a.now }, forgetBase: true).run()
        #expect(report.pulled == 4 && a.list.count == 4)
    }

    @Test("one refused write leaves the others going; it is named, and written at the next sync")
    func refusedWrite() throws {
        let a = replica("a.json")
        try a.add("Fine")
        try a.add("Refused once")
        let refusing = RefusingCalendar(server, refuse: "Refused once")
        let replica = Replica(a.store.path, server: refusing, now: a.now)
        let report = try replica.sync()
        #expect(report.pushed == 1)
        #expect(report.problems.count == 1 && report.problems[0].contains("\"Refused once\" (403"))
        #expect(server.objects.count == 1)
        refusing.refuse = nil
        let again = try replica.sync()
        #expect(again.pushed == 1 && again.problems.isEmpty && server.objects.count == 2)
    }

    @Test("a task listed but not sent is named, and fetched at the next sync")
    func undelivered() throws {
        let a = replica("a.json")
        server.store("/calendar/phone-1.ics", Self.phoneObject(uid: "phone-1", summary: "Withheld", priority: nil))
        server.withheld = ["/calendar/phone-1.ics"]
        let report = try a.sync()
        #expect(report.problems.count == 1 && report.problems[0].contains("/calendar/phone-1.ics"))
        server.withheld = []
        #expect(try a.sync().pulled == 1)
        #expect(a.task("Withheld") != nil)
    }

    @Test("a sync with nothing to do sends one request and writes nothing, here or there")
    func nothingToDo() throws {
        let a = replica("a.json")
        try a.add("Pay rent")
        server.store("/calendar/phone-1.ics", Self.phoneObject(uid: "phone-1", summary: "From phone", priority: nil))
        try a.sync()
        let files = ["a.json", "a.json.journal", "a.json.sync"].map {
            (try? FileManager.default.attributesOfItem(atPath: folder.path($0))) as NSDictionary?
        }
        let objects = server.objects
        server.forgetRequests()
        let report = try a.sync()
        #expect(server.requests == ["REPORT sync-collection"])
        #expect(report == SyncReport(), "nothing pulled, pushed, merged or deleted")
        #expect(server.objects == objects)
        let after = ["a.json", "a.json.journal", "a.json.sync"].map {
            (try? FileManager.default.attributesOfItem(atPath: folder.path($0))) as NSDictionary?
        }
        for (before, now) in zip(files, after) {
            #expect(before?[FileAttributeKey.modificationDate] as? Date == now?[FileAttributeKey.modificationDate] as? Date)
            #expect(before?[FileAttributeKey.systemFileNumber] as? Int == now?[FileAttributeKey.systemFileNumber] as? Int)
        }
    }

    @Test("without sync-collection, ETags are compared and the answer is the same")
    func etagFallback() throws {
        server.offersSyncCollection = false
        let a = replica("a.json")
        let b = replica("b.json")
        try a.add("One")
        try a.sync()
        try b.sync()
        try b.change("One") { list, position in list.completing(true, at: position, now: b.now, local: .current) }
        try b.sync()
        server.forgetRequests()
        try a.sync()
        #expect(a.task("One")?.completed == true)
        #expect(server.requests.contains("REPORT calendar-query"))
    }

    @Test("a 412 (the phone wrote in between) is fetched, merged and written again")
    func conflictRetried() throws {
        let a = replica("a.json")
        try a.add("Buy milk")
        try a.sync()
        let href = try #require(self.href(of: "Buy milk"))
        a.now += 30
        try a.change("Buy milk") { list, position in list.completing(true, at: position, now: a.now, local: .current) }
        var interfered = false
        server.beforeWrite = { server, target in
            guard !interfered, target == href else { return }
            interfered = true
            server.edit(target, "CATEGORIES", "shop", now: a.now - 10)
        }
        server.forgetRequests()
        let report = try a.sync()
        #expect(interfered)
        #expect(server.requests.filter { $0 == "PUT" }.count == 2)
        #expect(report.pushed == 1)
        let vtodo = try #require(phoneTodo("Buy milk")).calendar.components[0]
        #expect(vtodo.first("STATUS")?.value == "COMPLETED")
        #expect(vtodo.first("CATEGORIES")?.value == "shop")
    }

    @Test("a server that cannot be reached leaves the store as it was")
    func unreachable() throws {
        let a = replica("a.json")
        try a.add("Stay here")
        let before = fileBytes(folder.path("a.json.journal"))
        let down = Replica(folder.path("a.json"), server: Unreachable(), now: Self.start)
        #expect(throws: SyncFailure.self) { try down.sync() }
        #expect(fileBytes(folder.path("a.json.journal")) == before)
        #expect(a.list.all.map(\.caption) == ["Stay here"])
    }
}

/// A server that is never there.
struct Unreachable: CalendarCollection {
    let url = "http://127.0.0.1:9/"
    func checkTakesTasks() throws(SyncFailure) { throw SyncFailure("cannot reach \(url): Connection refused") }
    func version() throws(SyncFailure) -> CollectionVersion { throw SyncFailure("cannot reach \(url): Connection refused") }
    func changes(since token: String) throws(SyncFailure) -> CollectionChanges? { throw SyncFailure("down") }
    func listing() throws(SyncFailure) -> [String: String?] { throw SyncFailure("down") }
    func fetch(_ hrefs: [String]) throws(SyncFailure) -> [String: CalendarResource] { throw SyncFailure("down") }
    func put(_ href: String, body: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome { throw SyncFailure("down") }
    func delete(_ href: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome { throw SyncFailure("down") }
    func href(forUID uid: String) -> String { uid }
    var parallelRequests: Int { 1 }
}
