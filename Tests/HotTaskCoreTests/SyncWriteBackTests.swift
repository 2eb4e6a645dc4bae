import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// What a sync writes back onto a phone's task: only what changed here.
extension SyncEngineTests {
    /// A phone's task as apps write them: a SUMMARY with a line break and a LANGUAGE, no
    /// CREATED, no X-APPLE-SORT-ORDER, in progress at 40 %.
    static func sparsePhoneObject(uid: String, extra: [String] = []) -> String {
        let lines =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261120T100000Z",
                "LAST-MODIFIED:20261120T100000Z", "SUMMARY;LANGUAGE=de:Milch\\nund Brot", "STATUS:IN-PROCESS", "PERCENT-COMPLETE:40",
            ] + extra + ["END:VTODO", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func vtodo(at href: String) throws -> ICalComponent {
        let body = try #require(server.objects[href]?.body)
        return try #require(try ICalendar.parse(body).first?.components.first { $0.name == "VTODO" })
    }

    @Test("completing a phone's task here writes STATUS and COMPLETED and nothing made up; reopening gives back IN-PROCESS at 40 %")
    func writeBackOnlyWhatChanged() throws {
        let a = replica("a.json")
        server.store("/calendar/p1.ics", Self.sparsePhoneObject(uid: "p1"))
        try a.sync()
        // The line break kept, shown as a space.
        #expect(a.task("Milch\nund Brot").map { CaptionRule.shown($0.caption) } == "Milch und Brot")
        a.now += 60
        try a.change("Milch\nund Brot") { list, position in list.completing(true, at: position, now: a.now, local: .current) }
        try a.sync()
        var todo = try vtodo(at: "/calendar/p1.ics")
        #expect(todo.first("SUMMARY") == ICalProperty(name: "SUMMARY", parameters: ";LANGUAGE=de", value: "Milch\\nund Brot"))
        #expect(todo.first("STATUS")?.value == "COMPLETED" && todo.first("COMPLETED") != nil)
        #expect(todo.first("PERCENT-COMPLETE")?.value == "100")
        #expect(todo.first("CREATED") == nil && todo.first("X-APPLE-SORT-ORDER") == nil)

        a.now += 60
        try a.change("Milch\nund Brot") { list, position in list.completing(false, at: position, now: a.now, local: .current) }
        try a.sync()
        todo = try vtodo(at: "/calendar/p1.ics")
        #expect(todo.first("STATUS")?.value == "IN-PROCESS" && todo.first("PERCENT-COMPLETE")?.value == "40")
        #expect(todo.first("COMPLETED") == nil && todo.first(TodoMapping.openStatusProperty) == nil)
        #expect(todo.first("SUMMARY")?.value == "Milch\\nund Brot")
    }

    @Test("completing a weekly task here completes this week's: the phone sees next week's, open, and so does this list")
    func completingOneOccurrence() throws {
        let a = replica("a.json")
        server.store(
            "/calendar/p2.ics",
            Self.sparsePhoneObject(uid: "p2", extra: ["DTSTART;VALUE=DATE:20261126", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=WEEKLY;COUNT=4"]))
        try a.sync()
        a.now += 60
        try a.change("Milch\nund Brot") { list, position in list.completing(true, at: position, now: a.now, local: .current) }
        let report = try a.sync()
        #expect(report.problems.isEmpty)
        let todo = try vtodo(at: "/calendar/p2.ics")
        #expect(todo.first("DTSTART")?.value == "20261203" && todo.first("DUE")?.value == "20261204")
        #expect(todo.first("RRULE")?.value == "FREQ=WEEKLY;COUNT=3")
        #expect(todo.first("STATUS")?.value == "NEEDS-ACTION" && todo.first("COMPLETED") == nil)
        #expect(a.task("Milch\nund Brot")?.completed == false, "open here too")
        server.forgetRequests()
        try a.sync()
        #expect(server.requests == ["REPORT sync-collection"], "both sides agree: the next sync has nothing to do")
    }

    @Test("completing a task whose rule HotTask cannot step is refused and named; the series stays open there")
    func unsteppableRule() throws {
        let a = replica("a.json")
        server.store(
            "/calendar/p3.ics", Self.sparsePhoneObject(uid: "p3", extra: ["DTSTART:20261126T090000Z", "RRULE:FREQ=MONTHLY;BYMONTHDAY=26"]))
        try a.sync()
        try a.change("Milch\nund Brot") { list, position in list.completing(true, at: position, now: a.now, local: .current) }
        let report = try a.sync()
        #expect(report.problems.count == 1 && report.problems[0].contains("BYMONTHDAY=26"))
        #expect(try vtodo(at: "/calendar/p3.ics").first("STATUS")?.value == "IN-PROCESS")
    }

    @Test("a task whose saved copy from the last sync is damaged is named and not sent: the phone's object is not replaced")
    func damagedSavedCopy() throws {
        let a = replica("a.json")
        server.store("/calendar/p4.ics", Self.sparsePhoneObject(uid: "p4", extra: []))
        try a.sync()
        try a.store.save(a.list)  // the base written whole, beside the snapshot
        let path = SyncBase.path(besides: a.store)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("BEGIN:VTODO"))
        try text.replacingOccurrences(of: "BEGIN:VTODO", with: "BEGIN:VTOD").write(toFile: path, atomically: true, encoding: .utf8)
        let before = server.objects["/calendar/p4.ics"]
        try a.change("Milch\nund Brot") { list, position in list.renaming(at: position, to: "Milk and bread") }
        server.forgetRequests()
        let report = try a.sync()
        #expect(
            report.problems == [
                "\"Milk and bread\" was not sent: the copy of it the last sync saved is damaged; hottask --sync --resync takes the server's copy again and keeps both sides' tasks"
            ])
        #expect(!server.requests.contains { $0.hasPrefix("PUT") })
        #expect(server.objects["/calendar/p4.ics"] == before, "the phone's object as it was")
        #expect(a.task("Milk and bread") != nil, "the edit stays here")
    }
}

/// What a sync costs in requests, with a server that keeps sync tokens.
extension SyncEngineTests {
    @Test("a task changed here costs two requests (sync-collection, PUT); the phone's later delete of it is still seen")
    func oneChangedTaskCostsTwoRequests() throws {
        let a = replica("a.json")
        for caption in ["One", "Two", "Three"] { try a.add(caption) }
        try a.sync()
        a.now += 60
        try a.change("Two") { list, position in list.completing(true, at: position, now: a.now, local: .current) }
        server.forgetRequests()
        try a.sync()
        #expect(server.requests == ["REPORT sync-collection", "PUT"])
        server.forgetRequests()
        try a.sync()
        #expect(server.requests == ["REPORT sync-collection"], "the next sync with nothing to do is one request")
        server.remove(try #require(href(of: "Two")))
        #expect(try a.sync().deletedHereCaptions == ["Two"])
    }
}
