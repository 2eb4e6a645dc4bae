import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Several calendars, each a list (`CalendarSet`): a task goes to its list's calendar, a phone's
/// task arrives in its calendar's list, and a move between lists is a move on both sides, with
/// the same UID, even when a sync is cut at any of its requests.
@Suite("Sync: each list is a calendar")
struct SyncListsTests {
    let folder = TemporaryFolder()
    let work = InMemoryCalendar(name: "work")
    let home = InMemoryCalendar(name: "home")
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// The set as a sync finds it: Work and Home, and a calendar made for any other list.
    func set(_ calendars: [String: CalendarCollection]? = nil, made: Box = Box()) -> CalendarSet {
        let calendars = calendars ?? ["Work": work, "Home": home]
        return CalendarSet(
            url: "memory://server/", members: calendars.sorted { $0.key < $1.key }.map { CalendarSet.Member(list: $0.key, calendar: $0.value) },
            make: { name throws(SyncFailure) in
                let calendar = InMemoryCalendar(name: name.lowercased())
                made.calendars[name] = calendar
                return calendar
            })
    }

    final class Box {
        var calendars: [String: InMemoryCalendar] = [:]
        var names: [String: String] = [:]
    }

    func replica(_ collection: CalendarCollection, _ name: String = "a.json") -> SyncEngineTests.Replica {
        SyncEngineTests.Replica(folder.path(name), server: collection, now: Self.start)
    }

    func captions(_ calendar: InMemoryCalendar) -> [String] {
        calendar.objects.values.compactMap { TodoMapping.read($0.body).todo?.fields.caption }.sorted()
    }

    func add(_ a: SyncEngineTests.Replica, _ caption: String, in list: String) throws {
        var task = TaskItem(caption: caption, section: .priority, createdAt: a.now)
        task.list = list
        try a.store.commit([a.list.adding(onTop: task)], what: "add", now: a.now)
    }

    func move(_ a: SyncEngineTests.Replica, _ caption: String, to list: String) throws {
        let task = try #require(a.task(caption))
        var fields = TaskFields()
        fields[.list] = .list(list)
        a.now += 60
        try a.store.commit([.set(task.id, fields, was: fields.values(in: task))], what: "move", now: a.now)
    }

    @Test("each list goes to its calendar, and each calendar's tasks arrive in its list")
    func listsTravel() throws {
        let a = replica(set())
        try add(a, "Report", in: "Work")
        try add(a, "Plants", in: "Home")
        home.store("/home/phone-1.ics", SyncEngineTests.phoneObject(uid: "phone-1", summary: "Laundry", priority: "9"))
        try a.sync()
        #expect(captions(work) == ["Report"])
        #expect(captions(home) == ["Laundry", "Plants"])
        #expect(a.task("Laundry")?.list == "Home")
    }

    @Test("a move here is a PUT into the other calendar, same UID, then a DELETE from the first")
    func moveHere() throws {
        let a = replica(set())
        try add(a, "Report", in: "Work")
        try a.sync()
        let object = try #require(work.objects.values.first)
        let uid = try #require(TodoMapping.read(object.body).todo?.uid)
        try move(a, "Report", to: "Home")
        work.forgetRequests()
        home.forgetRequests()
        try a.sync()
        #expect(work.objects.isEmpty)
        #expect(home.objects.values.map { TodoMapping.read($0.body).todo?.uid } == [uid])
        #expect(home.requests.contains("PUT") && work.requests.contains("DELETE"))
        let again = try a.sync()
        #expect(again.pushed == 0 && again.pulled == 0 && again.deletedHere == 0 && again.deletedThere == 0)
    }

    @Test("a phone's move (DELETE in Work, PUT in Home, same UID) arrives as a move of the same task")
    func phoneMove() throws {
        let a = replica(set())
        try add(a, "Report", in: "Work")
        try a.sync()
        let before = try #require(a.task("Report"))
        let (href, object) = try #require(work.objects.first)
        work.remove(href)
        home.store(href.replacingOccurrences(of: "/work/", with: "/home/"), object.body)
        let report = try a.sync()
        #expect(report.deletedHere == 0)
        let after = try #require(a.task("Report"))
        #expect(after.id == before.id && after.list == "Home")
        #expect(a.list.all.count == 1)
        #expect(captions(home) == ["Report"] && work.objects.isEmpty)
    }

    @Test("a list made here becomes a calendar with its tasks")
    func listMadeHere() throws {
        let made = Box()
        let a = replica(set(made: made))
        try add(a, "Milk", in: "Errands")
        let report = try a.sync()
        let errands = try #require(made.calendars["Errands"])
        #expect(captions(errands) == ["Milk"])
        #expect(report.notes.contains { $0.contains("Errands") })
    }

    @Test("a move cut at each of its requests leaves exactly one copy after the next sync", arguments: 0..<4)
    func cutMove(writes: Int) throws {
        let budget = CutCalendar.Budget(writesBeforeCut: nil)
        let cutWork = CutCalendar(work, budget: budget)
        let cutHome = CutCalendar(home, budget: budget)
        let a = replica(set(["Work": cutWork, "Home": cutHome]))
        try add(a, "Report", in: "Work")
        try a.sync()
        try move(a, "Report", to: "Home")
        budget.writesBeforeCut = budget.writesSent + writes
        // Cut before the PUT (0), after it with its answer lost (1), the same for the DELETE
        // after it (2); 3 lets the move through.
        if writes < 3 { #expect(throws: SyncFailure.self) { try a.sync() } } else { try a.sync() }
        budget.writesBeforeCut = nil
        try a.sync()
        #expect(captions(work) + captions(home) == ["Report"])
        #expect(captions(home) == ["Report"])
        #expect(a.task("Report")?.list == "Home" && a.list.all.count == 1)
        let quiet = try a.sync()
        #expect(quiet.pushed == 0 && quiet.deletedThere == 0 && quiet.deletedHere == 0)
    }

    @Test("a calendar renamed on the server renames its list here; a list renamed here renames its calendar there")
    func renames() throws {
        let a = replica(set())
        try add(a, "Report", in: "Work")
        try add(a, "Plants", in: "Home")
        try a.sync()
        // The same calendar, another display name (renamed on a phone).
        let renamedThere = CalendarSet(
            url: "memory://server/", members: [.init(list: "Job", calendar: work), .init(list: "Home", calendar: home)])
        let b = SyncEngineTests.Replica(folder.path("a.json"), server: renamedThere, now: a.now + 60)
        let report = try b.sync()
        #expect(b.task("Report")?.list == "Job", "its tasks follow the list")
        #expect(captions(work) == ["Report"] && report.pushed == 0, "nothing moves there")
        #expect(b.list.allListNames.contains("Job") && !b.list.allListNames.contains("Work"))

        let renamed = Box()
        let named = CalendarSet(
            url: "memory://server/", members: [.init(list: "Job", calendar: work), .init(list: "Home", calendar: home)], make: nil,
            rename: { url, name throws(SyncFailure) in renamed.names[url] = name })
        let c = SyncEngineTests.Replica(folder.path("a.json"), server: named, now: b.now + 60)
        _ = try c.store.renameList("Home", to: "House")
        let renaming = try c.sync()
        #expect(renamed.names == [home.url: "House"])
        #expect(captions(home) == ["Plants"] && renaming.pushed == 0, "nothing moves there")
        #expect(c.task("Plants")?.list == "House")
    }

    @Test("a list deleted here and another made in its place is no rename: the old calendar keeps its name, the new list gets its own")
    func deleteAndMakeIsNoRename() throws {
        let a = replica(set())
        try add(a, "Report", in: "Work")
        try add(a, "Plants", in: "Home")
        try a.sync()
        // The last list goes and the new one takes its place.
        let synced = a.list.lists.names
        let (gone, other) = synced.last == "Home" ? ("Home", "Work") : ("Work", "Home")
        let renamed = Box()
        let named = CalendarSet(
            url: "memory://server/", members: [.init(list: "Work", calendar: work), .init(list: "Home", calendar: home)], make: nil,
            rename: { url, name throws(SyncFailure) in renamed.names[url] = name })
        let b = SyncEngineTests.Replica(folder.path("a.json"), server: named, now: a.now + 60)
        _ = try b.store.deleteList(gone, tasks: .moveTo(other))
        _ = try b.store.newList("Garden")
        #expect(b.list.lists.names == synced.dropLast() + ["Garden"])
        try b.sync()
        #expect(renamed.names.isEmpty, "\(renamed.names)")
        #expect(b.list.all.map(\.list).sorted() == [other, other])
    }
}
