import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// A calendar synced before that this sync's discovery does not list (a server's hiccup, a
/// folder moved) is never taken for an empty one: asked for by itself, anything but a 404 stops
/// the sync with nothing changed; a 404 (deleted there) is judged calendar by calendar.
@Suite("Sync: a calendar missing from discovery")
struct SyncListsMissingTests {
    let folder = TemporaryFolder()
    let work = InMemoryCalendar(name: "work")
    let home = InMemoryCalendar(name: "home")
    let errands = InMemoryCalendar(name: "errands")
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// The three calendars, as discovery finds them.
    func all() -> CalendarSet {
        CalendarSet(
            url: "memory://server/",
            members: [.init(list: "Errands", calendar: errands), .init(list: "Home", calendar: home), .init(list: "Work", calendar: work)])
    }

    /// Work 5, Home 5, Errands 2, synced.
    func synced() throws -> SyncEngineTests.Replica {
        let a = SyncEngineTests.Replica(folder.path("a.json"), server: all(), now: Self.start)
        for (list, count) in [("Work", 5), ("Home", 5), ("Errands", 2)] {
            for number in 1...count {
                var task = TaskItem(caption: "\(list) \(number)", section: .priority, createdAt: a.now)
                task.list = list
                try a.store.commit([a.list.adding(onTop: task)], what: "add", now: a.now)
            }
        }
        try a.sync()
        #expect(errands.objects.count == 2)
        return a
    }

    /// The same store synced with Work and Home only, Errands asked for with `probe`.
    func without(_ a: SyncEngineTests.Replica, probe: @escaping (String) throws(SyncFailure) -> Bool) -> SyncEngineTests.Replica {
        let set = CalendarSet(
            url: "memory://server/", members: [.init(list: "Home", calendar: home), .init(list: "Work", calendar: work)], probe: probe)
        return SyncEngineTests.Replica(a.store.path, server: set, now: a.now + 60)
    }

    func captions(_ a: SyncEngineTests.Replica) -> [String] { a.list.all.map(\.caption).sorted() }

    @Test("missing from discovery but there, or no clean answer: the sync fails and nothing is deleted on either side")
    func hiccup() throws {
        let a = try synced()
        let before = captions(a)
        let asked = LockedStrings()
        let there = without(a) { url throws(SyncFailure) in
            asked.append(url)
            return true
        }
        #expect(throws: SyncFailure.self) { try there.sync() }
        #expect(asked.values == ["memory://server/errands/"])
        let silent = without(a) { _ throws(SyncFailure) in throw SyncFailure("cannot reach the server") }
        let failure = #expect(throws: SyncFailure.self) { try silent.sync() }
        #expect(failure?.message.contains("cannot reach the server") == true)
        #expect(captions(a) == before)
        // Back in the listing: nothing is deleted there either.
        let back = try SyncEngineTests.Replica(a.store.path, server: all(), now: a.now + 120).sync()
        #expect(back.deletedHere == 0 && back.deletedThere == 0)
        #expect(errands.objects.count == 2 && captions(a) == before)
    }

    @Test("a calendar deleted there (404): its tasks' deletion is refused for that calendar, then --force-delete deletes them")
    func deletedThere() throws {
        let a = try synced()
        let before = captions(a)
        let gone = without(a) { _ throws(SyncFailure) in false }
        let refusal = #expect(throws: SyncRefusal.self) { try gone.sync() }
        #expect(refusal?.message.contains("\"Errands\" (/errands/) lacks all 2 tasks") == true, "\(refusal?.message ?? "")")
        #expect(refusal?.message.contains("hottask --sync --force-delete") == true)
        #expect(captions(a) == before)
        let now = gone.now
        let report = try SyncEngine(store: a.store, collection: gone.server, now: { now }, forceDelete: true).run()
        #expect(report.deletedHere == 2 && report.deletedThere == 0)
        #expect(captions(a) == before.filter { !$0.hasPrefix("Errands") })
    }

    @Test("a calendar still there whose tasks a phone deleted, all of them, is synced: those are a person's deletions")
    func phoneEmptiesAListsCalendar() throws {
        let a = try synced()
        for href in Array(errands.objects.keys) { _ = try errands.delete(href, ifMatch: nil) }
        a.now += 60
        let report = try a.sync()
        #expect(report.deletedHere == 2)
        #expect(!captions(a).contains { $0.hasPrefix("Errands") } && captions(a).count == 10)
    }

    @Test("a list no calendar could be made for: its task's write is refused and told, never put in another list's calendar")
    func listWithoutCalendar() throws {
        let set = CalendarSet(url: "memory://server/", members: [.init(list: "Work", calendar: work)])
        let a = SyncEngineTests.Replica(folder.path("a.json"), server: set, now: Self.start)
        _ = try a.store.newList("Work")
        _ = try a.store.newList("Garden")
        var task = TaskItem(caption: "Roses", section: .priority, createdAt: a.now)
        task.list = "Garden"
        try a.store.commit([a.list.adding(onTop: task)], what: "add", now: a.now)
        let report = try a.sync()
        #expect(
            report.problems == [
                "the server refused \"Roses\" (0 memory://server/no-calendar/\(Subtasks.text(task.id)).ics is in none of the calendars synced); it is tried again next time"
            ])
        #expect(work.objects.isEmpty)
        #expect(a.list.all.map(\.list) == ["Garden"], "still in its list")
        // No member at all: the same, not a crash.
        let none = SyncEngineTests.Replica(a.store.path, server: CalendarSet(url: "memory://server/", members: []), now: a.now + 60)
        #expect(try none.sync().pushed == 0)
    }

    @Test("a delete in a calendar that is not synced is refused unless that calendar answered 404")
    func deleteOutsideMembers() throws {
        let set = CalendarSet(url: "memory://server/", members: [.init(list: "Work", calendar: work)])
        #expect(
            try set.delete("/elsewhere/a.ics", ifMatch: nil) == .refused(status: 0, reason: "/elsewhere/a.ics is in none of the calendars synced"))
        set.provenGone.insert("/elsewhere/")
        #expect(try set.delete("/elsewhere/a.ics", ifMatch: nil) == .gone)
    }
}

/// Strings appended from any thread.
final class LockedStrings: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ value: String) { lock.withLock { stored.append(value) } }
    var values: [String] { lock.withLock { stored } }
}
