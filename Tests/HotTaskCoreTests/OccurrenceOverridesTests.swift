import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// A phone that moves, renames or completes one occurrence of a repeating to-do writes an
/// override (a VTODO with RECURRENCE-ID). HotTask shows that occurrence as the phone left it,
/// completing it here moves the series on from the occurrence's own date, and an edit here stays
/// with that occurrence.
@Suite("Occurrence overrides")
struct OccurrenceOverridesTests {
    let folder = TemporaryFolder()
    let server = InMemoryCalendar()
    static let href = "/calendar/plants.ics"

    /// "Water plants" every Sunday from Sunday 29 November, with the given overrides after it.
    static func series(count: Int? = nil, _ overrides: [[String]]) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:plants", "DTSTAMP:20261120T100000Z",
            "LAST-MODIFIED:20261120T100000Z", "SUMMARY:Water plants", "STATUS:NEEDS-ACTION", "DTSTART;VALUE=DATE:20261129",
            "DUE;VALUE=DATE:20261129", "RRULE:FREQ=WEEKLY" + (count.map { ";COUNT=\($0)" } ?? ""), "END:VTODO",
        ]
        for override in overrides {
            lines += ["BEGIN:VTODO", "UID:plants", "DTSTAMP:20261121T100000Z", "LAST-MODIFIED:20261121T100000Z"] + override + ["END:VTODO"]
        }
        return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static let moved = ["RECURRENCE-ID;VALUE=DATE:20261129", "SUMMARY:Water plants (balcony only)", "DUE;VALUE=DATE:20261128"]

    func read(_ body: String) throws -> SharedFields { try #require(TodoMapping.read(body).todo).fields }

    func replica() -> SyncEngineTests.Replica {
        SyncEngineTests.Replica(folder.path("a.json"), server: server, now: SyncEngineTests.start)
    }

    /// The VTODOs on the server now: each one's RECURRENCE-ID, SUMMARY, DTSTART and DUE.
    func serverTodos() throws -> [[String?]] {
        let body = try #require(server.objects[Self.href]?.body)
        let calendar = try #require(try ICalendar.parse(body).first)
        return calendar.components.filter { $0.name == "VTODO" }.map { todo in
            ["RECURRENCE-ID", "SUMMARY", "DTSTART", "DUE", "STATUS"].map { todo.first($0)?.value }
        }
    }

    @Test("the occurrence a phone moved and renamed is shown as the phone left it, still repeating")
    func movedOccurrenceIsShown() throws {
        let fields = try read(Self.series([Self.moved]))
        #expect(fields.caption == "Water plants (balcony only)")
        #expect(fields.due == DueDate.date(year: 2026, month: 11, day: 28))
        #expect(fields.completed == false)
        #expect(fields[.repeatRule] == .repeatRule(RepeatRule(rrule: "FREQ=WEEKLY")!))
    }

    @Test("occurrences a phone completed are passed over; the series' last one completed completes the task")
    func completedOccurrencesArePassed() throws {
        let done = ["RECURRENCE-ID;VALUE=DATE:20261129", "SUMMARY:Water plants", "STATUS:COMPLETED", "COMPLETED:20261129T090000Z"]
        let next = try read(Self.series([done]))
        #expect(next.caption == "Water plants" && next.completed == false)
        #expect(next.due == DueDate.date(year: 2026, month: 12, day: 6))
        // Two in a row, the second cancelled.
        let cancelled = ["RECURRENCE-ID;VALUE=DATE:20261206", "STATUS:CANCELLED"]
        #expect(try read(Self.series([cancelled, done])).due == DueDate.date(year: 2026, month: 12, day: 13))
        let last = try read(Self.series(count: 1, [done]))
        #expect(last.completed == true)
    }

    @Test("a RECURRENCE-ID in UTC names a start written in a zone")
    func utcRecurrenceID() throws {
        let body = Self.series([])
            .replacingOccurrences(of: "DTSTART;VALUE=DATE:20261129", with: "DTSTART;TZID=Europe/Berlin:20261129T090000")
            .replacingOccurrences(of: "DUE;VALUE=DATE:20261129", with: "DUE;TZID=Europe/Berlin:20261129T090000")
            .replacingOccurrences(
                of: "END:VTODO\r\nEND:VCALENDAR",
                with: "END:VTODO\r\nBEGIN:VTODO\r\nUID:plants\r\nRECURRENCE-ID:20261129T080000Z\r\nSUMMARY:Balcony\r\nEND:VTODO\r\nEND:VCALENDAR")
        #expect(try read(body).caption == "Balcony")
        // An override of another occurrence leaves this one as the series has it.
        #expect(try read(body.replacingOccurrences(of: "20261129T080000Z", with: "20261206T080000Z")).caption == "Water plants")
    }

    @Test("completing the moved occurrence here moves the series on from its own date, and the override goes")
    func completingHere() throws {
        server.store(Self.href, Self.series([Self.moved]))
        let a = replica()
        try a.sync()
        a.now += 60
        try a.change("Water plants (balcony only)") { list, position in ChangeRules.complete(list[position], true, now: a.now, local: .current) }
        try a.sync()
        #expect(try serverTodos() == [[nil, "Water plants", "20261206", "20261206", "NEEDS-ACTION"]])
        // Here too: the next occurrence, with the series' text and date.
        #expect(a.task("Water plants")?.due == DueDate.date(year: 2026, month: 12, day: 6))
        #expect(a.list.all.count == 1)
        let quiet = try a.sync()
        #expect(quiet.pulled == 0 && quiet.pushed == 0)
    }

    @Test("a caption edited here on an overridden occurrence goes to that occurrence; the series keeps its own")
    func editHereStaysWithTheOccurrence() throws {
        server.store(Self.href, Self.series([Self.moved]))
        let a = replica()
        try a.sync()
        a.now += 60
        try a.change("Water plants (balcony only)") { list, position in list.renaming(at: position, to: "Water the balcony") }
        try a.sync()
        #expect(
            try serverTodos() == [
                [nil, "Water plants", "20261129", "20261129", "NEEDS-ACTION"], ["20261129", "Water the balcony", nil, "20261128", nil],
            ])
        #expect(a.task("Water the balcony")?.due == DueDate.date(year: 2026, month: 11, day: 28))
    }

    @Test("writing a series settles the occurrences a phone completed into it")
    func settlesCompleted() throws {
        let done = ["RECURRENCE-ID;VALUE=DATE:20261129", "STATUS:COMPLETED", "COMPLETED:20261129T090000Z"]
        server.store(Self.href, Self.series([done]))
        let a = replica()
        try a.sync()
        #expect(a.task("Water plants")?.due == DueDate.date(year: 2026, month: 12, day: 6))
        a.now += 60
        try a.change("Water plants") { list, position in ChangeRules.complete(list[position], true, now: a.now, local: .current) }
        try a.sync()
        #expect(try serverTodos() == [[nil, "Water plants", "20261213", "20261213", "NEEDS-ACTION"]])
        #expect(a.task("Water plants")?.due == DueDate.date(year: 2026, month: 12, day: 13))
    }
}
