import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Notes and tags through a sync: a phone's DESCRIPTION and CATEGORIES arrive, edits here reach
/// it, each merges by its own clock, and tags changed on both sides keep both sides' changes.
@Suite("Notes and tags in a sync")
struct NotesAndTagsSyncTests {
    let folder = TemporaryFolder()
    let server = InMemoryCalendar()

    func replica(_ name: String) -> SyncEngineTests.Replica {
        SyncEngineTests.Replica(folder.path(name), server: server, now: SyncEngineTests.start)
    }

    func vtodo(_ caption: String) throws -> ICalComponent {
        let todo = try #require(server.objects.values.compactMap { TodoMapping.read($0.body).todo }.first { $0.fields.caption == caption })
        return try #require(todo.calendar.components.first { $0.name == "VTODO" })
    }

    func href(_ caption: String) throws -> String {
        try #require(server.objects.first { TodoMapping.read($0.value.body).todo?.fields.caption == caption }?.key)
    }

    @Test("a phone's DESCRIPTION and CATEGORIES arrive; a note and tags set here reach the phone")
    func bothWays() throws {
        let a = replica("a.json")
        server.store("/calendar/phone-1.ics", SyncEngineTests.phoneObject(uid: "phone-1", summary: "Dentist", priority: "9"))
        let href = try href("Dentist")
        server.edit(href, "DESCRIPTION", "Bring the card\\nand the letter", now: SyncEngineTests.start)
        try a.sync()
        #expect(a.task("Dentist")?.note == "Bring the card\nand the letter")
        #expect(a.task("Dentist")?.tags == ["errands", "health"])
        a.now += 60
        try a.change("Dentist") { list, position in list.noting(at: position, to: "Bring the card") }
        try a.change("Dentist") { list, position in ChangeRules.tag(list[position], adding: ["urgent"], removing: ["errands"]) }
        try a.sync()
        let todo = try vtodo("Dentist")
        #expect(todo.first("DESCRIPTION")?.value == "Bring the card")
        #expect(todo.first("CATEGORIES")?.value == "health,urgent")
        #expect(todo.first("TRIGGER") == nil && todo.components.first?.name == "VALARM", "the alarm stays")
        // And nothing moves on the next sync.
        let quiet = try a.sync()
        #expect(quiet.pulled == 0 && quiet.pushed == 0)
    }

    @Test("a phone's CATEGORIES edit and a caption edit here both survive")
    func categoriesThereCaptionHere() throws {
        let a = replica("a.json")
        server.store("/calendar/phone-1.ics", SyncEngineTests.phoneObject(uid: "phone-1", summary: "Dentist", priority: nil))
        try a.sync()
        a.now += 60
        server.edit(try href("Dentist"), "CATEGORIES", "health,work", now: a.now)
        a.now += 60
        try a.change("Dentist") { list, position in list.renaming(at: position, to: "Dentist at 3") }
        let report = try a.sync()
        #expect(report.merged == 1)
        #expect(a.task("Dentist at 3")?.tags == ["health", "work"])
        #expect(try vtodo("Dentist at 3").first("CATEGORIES")?.value == "health,work")
    }

    @Test("tags changed on both sides keep what each side added and took away")
    func tagsOnBothSides() throws {
        let a = replica("a.json")
        server.store("/calendar/phone-1.ics", SyncEngineTests.phoneObject(uid: "phone-1", summary: "Dentist", priority: nil))
        try a.sync()
        a.now += 60
        server.edit(try href("Dentist"), "CATEGORIES", "health,phone", now: a.now)
        a.now += 60
        try a.change("Dentist") { list, position in ChangeRules.tag(list[position], adding: ["urgent"], removing: []) }
        try a.sync()
        #expect(a.task("Dentist")?.tags == ["health", "phone", "urgent"])
        #expect(try vtodo("Dentist").first("CATEGORIES")?.value == "health,phone,urgent")
    }

    @Test("a task synced before notes brings the DESCRIPTION its server copy had, and writes nothing back")
    func aBaseFromBeforeNotes() throws {
        let a = replica("a.json")
        var object = SyncEngineTests.phoneObject(uid: "phone-1", summary: "Dentist", priority: nil)
        object = object.replacingOccurrences(of: "CATEGORIES:errands,health", with: "DESCRIPTION:Bring the card")
        server.store("/calendar/phone-1.ics", object)
        try a.sync()
        // As an older HotTask left it: no note here, and a base entry that knows no note.
        var old = try #require(a.task("Dentist"))
        old.note = ""
        try a.store.save(TaskList([old]))
        let path = SyncBase.path(besides: a.store)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let key = old.id.uuidString.lowercased()
        try text.replacingOccurrences(of: #""note":"Bring the card","#, with: "").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try SyncBase.readFile(besides: a.store)?.entries[key]?.agreed[.note] == nil)
        server.forgetRequests()
        let report = try a.sync()
        #expect(a.task("Dentist")?.note == "Bring the card")
        #expect(report.pushed == 0)
        #expect(!server.requests.contains { $0.hasPrefix("PUT") })
    }
}
