import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("iCalendar")
struct ICalendarTests {
    @Test("content lines unfold, unescape, and fold again at 75 octets without splitting a character")
    func contentLines() throws {
        let text =
            "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\nSUMMARY:Call mum\\, then\r\n  Dad\\; bring \\\\ cake\\nsoon\r\nX-UNKNOWN;A=\"b:c\":keep me\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let calendar = try #require(try ICalendar.parse(text).first)
        let todo = try #require(calendar.components.first)
        #expect(todo.first("SUMMARY")?.text == "Call mum, then Dad; bring \\ cake\nsoon")
        #expect(todo.first("X-UNKNOWN") == ICalProperty(name: "X-UNKNOWN", parameters: ";A=\"b:c\"", value: "keep me"))
        var long = todo
        long.set("SUMMARY", ICalendar.escape(String(repeating: "é", count: 60)))
        for line in long.text.split(separator: "\r\n") { #expect(line.utf8.count <= 75) }
        #expect(try ICalendar.parse(long.text).first?.first("SUMMARY")?.text == String(repeating: "é", count: 60))
    }

    /// A fold falls between Unicode scalars, so a continuation line can start with a combining
    /// mark or an emoji's variation selector: the fold's one space goes, the mark stays.
    @Test("captions whose fold lands before a combining mark or a variation selector read back whole")
    func foldBeforeACombiningScalar() throws {
        // "SUMMARY:" and 66 letters and "e" fill the first line's 75 octets exactly.
        let captions = [String(repeating: "a", count: 66) + "e\u{301} done", String(repeating: "b", count: 66) + "\u{2764}\u{FE0F} love"]
        let list = TaskList(captions.enumerated().map { Fixtures.task($0.element, id: $0.offset + 1) })
        let text = ICalendarFormat.text(for: list)
        let bytes = Array(text.utf8)
        let foldBeforeMark: [UInt8] = [0x0D, 0x0A, 0x20, 0xCC, 0x81]
        #expect(bytes.indices.contains { Array(bytes[$0...].prefix(5)) == foldBeforeMark }, "the fold falls before the combining mark")
        let batch = try ImportBatch.parse(bytes)
        #expect(batch.tasks.map(\.caption).sorted() == captions.sorted())
    }

    /// Issue 52: RFC 5545 folds by octets, and some writers fold inside a UTF-8 sequence; the
    /// strict parsers (`ical`, `icalendar`) join the octets first, and so does HotTask.
    @Test("a fold inside a UTF-8 character is joined as octets")
    func foldInsideACharacter() throws {
        var bytes = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:f1\r\nSUMMARY:Caf".utf8)
        bytes += [0xC3, 0x0D, 0x0A, 0x20, 0xA9] + Array(" au lait\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        #expect(try ImportBatch.parse(bytes).tasks.map(\.caption) == ["Café au lait"])
    }

    @Test(
        "a broken file is an error naming the line, never a crash",
        arguments: [
            "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n", "BEGIN:VCALENDAR\r\nno colon here\r\n", "SUMMARY:outside\r\n",
            String(repeating: "BEGIN:X\r\n", count: 100),
        ])
    func brokenFiles(text: String) {
        #expect(throws: ICalendar.ParseError.self) { try ICalendar.parse(text) }
    }

    @Test("PRIORITY 1 to 4 is Top Priority; anything else or none is Bonus")
    func priorities() {
        for value in ["1", "2", "3", "4"] { #expect(TodoMapping.section(priority: value) == .priority) }
        for value: String? in ["0", "5", "9", "x", nil] { #expect(TodoMapping.section(priority: value) == .bonus) }
    }

    @Test("an export reads back as the same tasks, sections, completion and order")
    func roundTrip() throws {
        let list = Fixtures.sampleList()
        let text = ICalendarFormat.text(for: list)
        let batch = try ImportBatch.parse(Array(text.utf8))
        #expect(batch.format == .iCalendar)
        let back = TaskList().importing(batch, dates: .runningNow).changes
        var imported = TaskList()
        imported.apply(back, clock: Clock(milliseconds: 1))
        for section in Section.allCases {
            #expect(imported.tasks(in: section).map(\.caption) == list.tasks(in: section).map(\.caption))
            #expect(imported.tasks(in: section).map(\.completed) == list.tasks(in: section).map(\.completed))
            #expect(imported.tasks(in: section).map(\.id) == list.tasks(in: section).map(\.id))
        }
    }

    @Test("cancelled tasks, events and recurrence instances are not imported; a UID of any form gets a stable id")
    func whatIsTaken() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VTODO
            UID:not-a-uuid@phone.example
            SUMMARY:Kept
            END:VTODO
            BEGIN:VTODO
            UID:c1
            SUMMARY:Dropped
            STATUS:CANCELLED
            END:VTODO
            BEGIN:VEVENT
            UID:e1
            SUMMARY:Meeting
            END:VEVENT
            END:VCALENDAR
            """
        let batch = try ImportBatch.parse(Array(text.utf8))
        #expect(batch.tasks.map(\.caption) == ["Kept"])
        #expect(batch.skipped == 1)
        #expect(batch.tasks.first?.id == TodoMapping.id(forUID: "not-a-uuid@phone.example"))
        #expect(TodoMapping.id(forUID: "not-a-uuid@phone.example") != TodoMapping.id(forUID: "not-a-uuid@phone.example2"))
    }
}

/// Re-importing a file never undoes a change made here after the earlier import, unless the
/// file changed that same field.
@Suite("Re-import merges three ways")
struct ReimportTests {
    let folder = TemporaryFolder()

    func taskwarrior(_ status: String, modified: String, description: String = "Pay rent", annotation: Bool = false) -> [UInt8] {
        let note = annotation ? #","annotations":[{"entry":"20261121T100000Z","description":"asked landlord"}]"# : ""
        return Array(
            """
            [{"uuid":"6fa2a7c8-0d5e-4a3e-9d0f-2f6b3b0d1e11","description":"\(description)","status":"\(status)",\
            "entry":"20261120T100000Z","modified":"\(modified)","priority":"H"\(note)}]
            """.utf8)
    }

    /// Imports `bytes` as `--import` does: with the base beside the store, recording it after.
    func reimport(_ bytes: [UInt8], into store: TaskStore, now: Date) throws {
        let batch = try ImportBatch.parse(bytes)
        var base = try ImportBase.load(besides: store)
        let changes = try store.load().importing(batch, base: base, dates: .runningNow).changes
        try store.commit(changes, what: "import", now: now)
        base.record(ImportBase.Said(batch.tasks))
        try base.save(besides: store)
    }

    @Test("an annotation added in Taskwarrior does not undo a completion made here")
    func annotationKeepsCompletion() throws {
        let store = TaskStore(path: folder.storePath)
        try reimport(taskwarrior("pending", modified: "20261120T100000Z"), into: store, now: Fixtures.date(hours: 1))
        var list = try store.load()
        try store.commit([try #require(list.completing(true, at: 0, now: Date(), local: .current))], what: "done", now: Date())
        try reimport(taskwarrior("pending", modified: "20261125T100000Z", annotation: true), into: store, now: Date())
        list = try store.load()
        #expect(list.all.map(\.completed) == [true])
    }

    @Test("a file dated in the future does not undo later changes here; a field it did change is taken")
    func futureDates() throws {
        let store = TaskStore(path: folder.storePath)
        try reimport(taskwarrior("pending", modified: "20300101T000000Z"), into: store, now: Fixtures.date(hours: 1))
        var list = try store.load()
        try store.commit([try #require(list.renaming(at: 0, to: "Pay rent today"))], what: "edit", now: Date())
        try reimport(taskwarrior("pending", modified: "20300101T000000Z"), into: store, now: Date())
        #expect(try store.load().all.map(\.caption) == ["Pay rent today"])
        try reimport(taskwarrior("completed", modified: "20300102T000000Z"), into: store, now: Date())
        list = try store.load()
        #expect(list.all.map(\.caption) == ["Pay rent today"])
        #expect(list.all.map(\.completed) == [true])
    }
}
