import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 41: round trips that change nothing. Text from a file or a server is kept as it came
/// and only shown on one line; deletions and archives travel; every TZID written has its
/// VTIMEZONE; a phone's to-do without a title syncs.
@Suite("Round trips that change nothing")
struct RoundTripTests {
    let folder = TemporaryFolder()

    // MARK: Text kept as it came

    @Test func keptTextHoldsLineBreaksTabsAndAnyLengthButNoEscapes() {
        let long = String(repeating: "word ", count: 400) + "end"
        #expect(CaptionRule.kept(long) == long)
        #expect(CaptionRule.kept("  Line one\nLine two\r\n\tindented  ") == "  Line one\nLine two\r\n\tindented  ")
        #expect(CaptionRule.kept("") == "")
        #expect(CaptionRule.kept("red \u{1B}[31malert\u{1B}[0m\u{7}\u{202E}!") == "red alert!")
        #expect(CaptionRule.kept("nel\u{85}vt\u{B}") == "nelvt")
    }

    @Test func shownFoldsOntoOneLineAndNamesAnUntitledTask() {
        #expect(CaptionRule.shown("Line one\nLine two") == "Line one Line two")
        #expect(CaptionRule.shown("  Tabbed\ttext\r\nhere \n") == "Tabbed text here")
        #expect(CaptionRule.shown("") == "(no title)")
        #expect(CaptionRule.shown("   ") == "(no title)")
        #expect(CaptionRule.shown("\n\u{200B}") == "(no title)")
        #expect(CaptionRule.shown("Buy milk") == "Buy milk")
        #expect(CaptionRule.oneLine("") == "")
    }

    @Test func anEditMayKeepTheLengthOfTheCaptionItReplaces() throws {
        let old = String(repeating: "x", count: 1_399)
        let edited = String(repeating: "y", count: 1_398)
        #expect(try CaptionRule.clean(edited, replacing: old) == edited)
        #expect(throws: CaptionError.tooLong(length: 1_400)) { try CaptionRule.clean(old + "x", replacing: old) }
        #expect(throws: CaptionError.tooLong(length: 1_398)) { try CaptionRule.clean(edited) }
    }

    @Test func aTypedDueWordIsTheDueDateInEveryOneWordFormDueTakes() {
        // Sunday 2026-11-29, 10:00 in Berlin.
        let berlin = ZoneInfo(identifier: "Europe/Berlin")!
        let now = Date(timeIntervalSince1970: 1_795_942_800)
        let taken = { (text: String) in DueWord.taken(from: text, now: now, local: berlin) }
        let day = DueDate(text: "2026-12-01")
        #expect(taken("Pay rent due:2026-12-01") == ("Pay rent", day))
        #expect(taken("due:2026-12-01 Pay rent") == ("Pay rent", day))
        #expect(taken("Pay due:2026-12-01 the rent") == ("Pay the rent", day))
        #expect(taken("Call the plumber due:fri") == ("Call the plumber", DueDate(text: "2026-12-04")))
        #expect(taken("Check due:tomorrow") == ("Check", DueDate(text: "2026-11-30")))
        #expect(taken("Check due:eom") == ("Check", DueDate(text: "2026-11-30")))
        #expect(taken("Check due:3d") == ("Check", DueDate(text: "2026-12-02")))
        #expect(taken("Call due:2026-12-01T14:00").due == DueDate(text: "2026-12-01T14:00:00+01:00", zone: "Europe/Berlin"))
        #expect(taken("due:2026-12-01") == ("due:2026-12-01", nil), "nothing else to be the caption")
        #expect(taken("Pay rent due:2026-02-30") == ("Pay rent due:2026-02-30", nil), "no such day")
        #expect(taken("Check due:someday") == ("Check due:someday", nil), "none of the forms")
        #expect(taken("Check due:none") == ("Check due:none", nil), "nothing to clear on a new task")
        #expect(taken("Check due:") == ("Check due:", nil))
        #expect(taken("Pay rent undue:2026-12-01") == ("Pay rent undue:2026-12-01", nil))
    }

    @Test func aTimeOfDayAfterTheDueWordIsItsTime() {
        // Sunday 2026-11-29, 10:00 in Berlin.
        let berlin = ZoneInfo(identifier: "Europe/Berlin")!
        let now = Date(timeIntervalSince1970: 1_795_942_800)
        let taken = { (text: String) in DueWord.taken(from: text, now: now, local: berlin) }
        let fridayEvening = DueDate(text: "2026-12-04T17:30:00+01:00", zone: "Europe/Berlin")
        #expect(taken("Call the plumber due:fri 17:30") == ("Call the plumber", fridayEvening))
        #expect(taken("due:fri 17:30 Call the plumber") == ("Call the plumber", fridayEvening))
        #expect(taken("Call due:fri 17:30 the plumber") == ("Call the plumber", fridayEvening))
        #expect(
            taken("Water the plants due:tomorrow 9:00") == ("Water the plants", DueDate(text: "2026-11-30T09:00:00+01:00", zone: "Europe/Berlin")))
        // Not a time, or a time the date has already: the word after stays in the caption.
        #expect(taken("Read due:fri 3 chapters") == ("Read 3 chapters", DueDate(text: "2026-12-04")))
        #expect(taken("Train due:fri 25:00") == ("Train 25:00", DueDate(text: "2026-12-04")))
        #expect(taken("Call due:2026-12-01T14:00 9:00").caption == "Call 9:00")
        #expect(taken("due:fri 17:30") == ("due:fri 17:30", nil), "nothing else to be the caption")
    }

    /// `--due` takes forms of several words; `due:` takes them too, the most of the next four
    /// words that make a date (a year is not left behind), and a word that only starts one stays text.
    @Test func aTypedDueWordTakesTheFormsOfSeveralWordsDueTakes() {
        // Sunday 2026-11-29, 10:00 in Berlin.
        let berlin = ZoneInfo(identifier: "Europe/Berlin")!
        let now = Date(timeIntervalSince1970: 1_795_942_800)
        let taken = { (text: String) in DueWord.taken(from: text, now: now, local: berlin) }
        #expect(taken("Buy a tree due:dec 20") == ("Buy a tree", DueDate(text: "2026-12-20")))
        #expect(taken("Buy a tree due:20 dec") == ("Buy a tree", DueDate(text: "2026-12-20")))
        #expect(taken("due:next fri Call mum") == ("Call mum", DueDate(text: "2026-12-04")))
        #expect(taken("Call due:in 3 days the plumber") == ("Call the plumber", DueDate(text: "2026-12-02")))
        #expect(taken("Call due:in 2 weeks") == ("Call", DueDate(text: "2026-12-13")))
        #expect(
            taken("Party due:dec 31 20:00") == ("Party", DueDate(text: "2026-12-31T20:00:00+01:00", zone: "Europe/Berlin")),
            "and a time after them")
        #expect(taken("Wake due:in the morning") == ("Wake due:in the morning", nil), "none of the forms")
        #expect(taken("Check due:next week") == ("Check due:next week", nil))
        #expect(taken("Call due:in 3") == ("Call due:in 3", nil), "cut short")
        #expect(taken("due:dec 20") == ("due:dec 20", nil), "nothing else to be the caption")
        // A year after the day and month belongs to them, as `--due "1 dec 2027"` reads it.
        #expect(taken("Pay due:1 dec 2027") == ("Pay", DueDate(text: "2027-12-01")))
        #expect(taken("Renew due:dec 1 2027 passport") == ("Renew passport", DueDate(text: "2027-12-01")))
        #expect(taken("Read due:fri 3 chapters") == ("Read 3 chapters", DueDate(text: "2026-12-04")), "the most words that make a date, no more")
    }

    @Test func typedTextIsReadOneWayTagsContextsAndTheDueDate() throws {
        let utc = ZoneInfo(secondsFromGMT: 0)!
        let now = Date(timeIntervalSince1970: 1_795_942_800)  // Sunday 2026-11-29
        let read = { (text: String) in try TypedTaskRule.read(text, takingTags: true, now: now, local: utc) }
        #expect(
            try read("  Call   mum +family @phone due:tomorrow ")
                == TypedTaskRule.Reading(caption: "Call mum", tags: ["family", "@phone"], due: DueDate(text: "2026-11-30")))
        #expect(try read("Mail bob@example.com about C++") == TypedTaskRule.Reading(caption: "Mail bob@example.com about C++", tags: []))
        #expect(try read("Meet \\@noon for \\+work") == TypedTaskRule.Reading(caption: "Meet @noon for +work", tags: []))
        #expect(try read("@home") == TypedTaskRule.Reading(caption: "@home", tags: []), "a caption needs a word")
        #expect(
            try TypedTaskRule.read("Call mum @phone +x", takingTags: false, now: now, local: utc)
                == TypedTaskRule.Reading(caption: "Call mum @phone +x", tags: []))
        #expect(throws: CaptionError.empty) { try read(" \t ") }
    }

    // MARK: Deletions travel

    /// A task deleted here that Taskwarrior has (an import brought it) goes out `deleted`, ended
    /// when it was deleted; one Taskwarrior never had does not.
    @Test func aTaskwarriorExportWritesTheTasksDeletedHereThatTaskwarriorHas() throws {
        let kept = Fixtures.task("Kept", id: 1)
        let fromTaskwarrior = Fixtures.task("Gone", id: 2)
        let madeHere = Fixtures.task("Made here", id: 3)
        var list = TaskList([kept, fromTaskwarrior, madeHere])
        let deletedAt = Clock(milliseconds: 1_800_000_000_000)
        list.apply(.delete(fromTaskwarrior), clock: deletedAt)
        list.apply(.delete(madeHere), clock: deletedAt)
        var carried = CarriedFields()
        carried.record(.taskwarrior, tasks: [kept, fromTaskwarrior], records: [:])
        let text = String(decoding: TaskwarriorFormat.text(for: list, carried: carried), as: UTF8.self)
        guard case .array(let items) = try JSONParser.parse(Array(text.utf8)) else { throw Failure("not an array: \(text)") }
        #expect(items.count == 2)
        guard case .object(let gone) = items[1] else { throw Failure("not an object") }
        #expect(gone["uuid"] == .string(fromTaskwarrior.id.uuidString.lowercased()))
        #expect(gone["status"] == .string("deleted"))
        #expect(gone["end"] == .string(Timestamp.formatCompact(deletedAt.date)))
        #expect(gone["modified"] == .string(Timestamp.formatCompact(deletedAt.date)))
        // Once an import says Taskwarrior deleted it too, it is no longer written.
        carried.forget([fromTaskwarrior.id], .taskwarrior)
        #expect(!String(decoding: TaskwarriorFormat.text(for: list, carried: carried), as: UTF8.self).contains("deleted"))
    }

    @Test func whatAFormatHasSurvivesTheSideFile() throws {
        let store = TaskStore(path: folder.storePath)
        let tasks = [Fixtures.task("a", id: 1), Fixtures.task("b", id: 2)]
        var carried = CarriedFields()
        carried.record(.taskwarrior, tasks: tasks, records: [1: "{\"tags\":[\"x\"]}"])
        carried.record(.todoTxt, tasks: tasks, records: [0: "B undated"])
        carried.todoTxtFile = CarriedFields.TodoTxtFile(path: "/home/me/todo.txt", comments: ["# Work", "# Home"])
        try carried.save(besides: store)
        let loaded = try CarriedFields.load(besides: store)
        #expect(loaded.has(tasks[0].id, .taskwarrior) && loaded.has(tasks[1].id, .taskwarrior))
        #expect(!loaded.has(tasks[0].id, .iCalendar))
        #expect(loaded[tasks[0].id, .todoTxt] == "B undated")
        #expect(loaded.todoTxtFile == CarriedFields.TodoTxtFile(path: "/home/me/todo.txt", comments: ["# Work", "# Home"]))
        var again = loaded
        again.keepOnly([tasks[1].id], .todoTxt)
        #expect(!again.has(tasks[0].id, .todoTxt) && again.has(tasks[1].id, .todoTxt) && again[tasks[0].id, .todoTxt] == nil)
        #expect(again.others(than: .taskwarrior, among: tasks.map(\.id)) == [:], "flags alone are no field left out")
    }

    // MARK: todo.txt archives, dates and comments

    @Test func aTodoTxtExportRespectsArchivesDatesAndComments() throws {
        let created = Timestamp.parse("2026-11-01T00:00:00Z") ?? Date()
        let done = Timestamp.parse("2026-11-20T18:00:00Z") ?? Date()
        let archived = TaskItem(
            id: Fixtures.id(1), caption: "Archived", section: .bonus, completed: true, createdAt: created, completedAt: done, modifiedAt: done)
        let undated = TaskItem(id: Fixtures.id(2), caption: "Undated", section: .bonus, createdAt: created)
        let undatedDone = TaskItem(
            id: Fixtures.id(3), caption: "Undated done", section: .bonus, completed: true, createdAt: done, completedAt: done, modifiedAt: done)
        let misread = TaskItem(id: Fixtures.id(4), caption: "x marks the spot", section: .bonus, createdAt: created)
        let twoLines = TaskItem(id: Fixtures.id(5), caption: "Line one\nLine two\tand a tab", section: .bonus, createdAt: created)
        let list = TaskList([archived, undated, undatedDone, misread, twoLines])
        var carried = CarriedFields()
        carried.record(
            .todoTxt, tasks: [archived, undated, undatedDone, misread],
            records: [0: "archived", 1: "undated", 2: "undated", 3: "undated"])
        var lines: [String] = []
        let written = TodoTxtFormat.write(list, carried: carried, comments: ["# Comments look like this"]) { piece in
            lines += String(decoding: piece, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let ids = list.shortIDs()
        #expect(
            lines == [
                "# Comments look like this", "Undated id:\(ids[1])", "x 2026-11-20 Undated done id:\(ids[2])",
                "2026-11-01 x marks the spot id:\(ids[3])", "2026-11-01 Line one Line two\tand a tab id:\(ids[4])",
            ])
        #expect(written.archived == [archived.id])
        #expect(written.folded == [twoLines.id: "Line one Line two\tand a tab"])
    }

    @Test func todoTxtCommentsAreNotTasksAndFlagsComeWithTheLines() throws {
        let batch = try TodoTxtFormat.batch(
            files: [
                ("todo.txt", Array("# Comments look like this\n(B) Undated with a letter\n2026-11-01 Dated\n".utf8)),
                ("done.txt", Array("x 2026-11-20 Archived\n".utf8)),
            ])
        #expect(batch.tasks.map(\.caption) == ["Undated with a letter", "Dated", "Archived"])
        #expect(batch.todoTxtLines?.comments == ["# Comments look like this"])
        #expect(batch.carried == [0: "B undated", 2: "undated archived"])
    }

    // MARK: VTIMEZONE

    @Test func aZoneWithSummerTimeGetsItsRulesAndItsPast() throws {
        let zone = try #require(VTimezone.component(for: "Europe/Berlin"))
        #expect(zone.first("TZID")?.value == "Europe/Berlin")
        let daylight = zone.components.filter { $0.name == "DAYLIGHT" && $0.first("RRULE") != nil }
        let standard = zone.components.filter { $0.name == "STANDARD" && $0.first("RRULE") != nil }
        #expect(daylight.map { $0.first("RRULE")?.value } == ["FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"])
        #expect(standard.map { $0.first("RRULE")?.value } == ["FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"])
        #expect(daylight.first?.first("TZOFFSETFROM")?.value == "+0100" && daylight.first?.first("TZOFFSETTO")?.value == "+0200")
        #expect(daylight.first?.first("DTSTART")?.value.hasSuffix("T020000") == true)
        #expect(zone.components.allSatisfy { $0.first("DTSTART") != nil && $0.first("TZOFFSETFROM") != nil && $0.first("TZOFFSETTO") != nil })
    }

    @Test func aZoneWithoutSummerTimeHasOneObservanceAndAnUnknownOneNone() throws {
        let tokyo = try #require(VTimezone.component(for: "Asia/Tokyo"))
        #expect(tokyo.components.map(\.name) == ["STANDARD"])
        #expect(tokyo.components[0].first("TZOFFSETTO")?.value == "+0900")
        #expect(VTimezone.component(for: "W. Europe Standard Time") == nil)
        #expect(VTimezone.component(for: "../../etc/passwd") == nil)
    }

    /// Friday after the fourth Thursday (Israel) and Saturday before the last Sunday (Greenland).
    @Test func ruleTimesPastMidnightMoveTheDay() {
        let israel = PosixRule.Change(day: .weekday(month: 3, week: 4, day: 4), time: 26 * 3600)
        #expect(PosixRule.rrule(israel) == "FREQ=YEARLY;BYMONTH=3;BYDAY=FR;BYMONTHDAY=23,24,25,26,27,28,29")
        let nuuk = PosixRule.Change(day: .weekday(month: 3, week: 5, day: 0), time: -3600)
        #expect(PosixRule.rrule(nuuk) == "FREQ=YEARLY;BYMONTH=3;BYDAY=SA;BYMONTHDAY=-8,-7,-6,-5,-4,-3,-2")
        let cairo = PosixRule.Change(day: .weekday(month: 10, week: 5, day: 4), time: 24 * 3600)
        #expect(PosixRule.rrule(cairo) == nil, "it can leave the month: written as dates")
    }

    @Test func aDueTimeInANamedZoneGetsItsVTimezoneInTheObject() throws {
        let due = try #require(DueDate(text: "2026-12-01T09:30:00+01:00", zone: "Europe/Berlin"))
        let fields = SharedFields(caption: "Call", section: .bonus, completed: false, due: due)
        let calendar = TodoMapping.write(fields, uid: "u1", clocks: FieldClocks(), created: Date(), onto: nil, now: Date())
        #expect(calendar.components.map(\.name) == ["VTIMEZONE", "VTODO"])
        #expect(calendar.text.contains("DUE;TZID=Europe/Berlin:20261201T093000\r\n"))
    }

    // MARK: A phone's to-do without a title

    @Test func aPhoneTaskWithoutATitleReadsAndItsSummaryIsLeftAlone() throws {
        for summary in [nil, "", "   "] {
            let lines =
                ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:t1", "DTSTAMP:20261120T100000Z"]
                + (summary.map { ["SUMMARY:\($0)"] } ?? []) + ["END:VTODO", "END:VCALENDAR"]
            let todo = try #require(TodoMapping.read(lines.joined(separator: "\r\n") + "\r\n").todo)
            #expect(todo.fields.caption == (summary ?? ""))
            var fields = todo.fields
            fields.completed = true
            let written = TodoMapping.write(fields, uid: "t1", clocks: FieldClocks(), created: Date(), onto: todo.calendar, now: Date())
            #expect(written.components[0].first("SUMMARY")?.value == summary)
            #expect(written.components[0].first("STATUS")?.value == "COMPLETED")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A phone's to-do without a title, and a body HotTask cannot read, against the calendar in
/// memory.
extension SyncEngineTests {
    @Test("a phone's to-do without a title syncs both ways and keeps its SUMMARY as it was")
    func untitledPhoneTasksSync() throws {
        let a = replica("a.json")
        let header = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VTODO\r\nDTSTAMP:20261120T100000Z\r\n"
        server.store("/calendar/none.ics", header + "UID:none\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        server.store("/calendar/empty.ics", header + "UID:empty\r\nSUMMARY:\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        let report = try a.sync()
        #expect(report.pulled == 2 && report.problems.isEmpty)
        #expect(a.list.all.map { CaptionRule.shown($0.caption) } == ["(no title)", "(no title)"])
        a.now += 60
        try a.change("") { list, position in list.completing(true, at: position, now: a.now, local: .current) }
        try a.sync()
        let written = try vtodo(at: "/calendar/none.ics")
        let other = try vtodo(at: "/calendar/empty.ics")
        #expect([written, other].filter { $0.first("STATUS")?.value == "COMPLETED" }.count == 1)
        #expect(written.first("SUMMARY") == nil && other.first("SUMMARY")?.value == "")
    }

    @Test("a body HotTask cannot read is named once with the parser's reason, skipped, and read again when it changes")
    func anUnreadableBodyIsNamedOnce() throws {
        let a = replica("a.json")
        let bad = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:bad\r\nX_BAD:1\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        server.store("/calendar/bad.ics", bad)
        try a.add("Here")
        var report = try a.sync()
        #expect(report.problems.isEmpty && report.pushed == 1)
        #expect(
            report.notes == [
                "skipped /calendar/bad.ics: it is not iCalendar HotTask can read (line 5: not a content line (NAME:value)); it is left alone there, and read again when it changes"
            ])
        server.forgetRequests()
        report = try a.sync()
        #expect(report.notes.isEmpty && report.problems.isEmpty)
        #expect(server.requests == ["REPORT sync-collection"])
        // Without a token (an ETag listing), it is not fetched again either.
        server.offersSyncCollection = false
        try a.add("More")
        server.forgetRequests()
        report = try a.sync()
        #expect(report.notes.isEmpty && report.problems.isEmpty && !server.requests.contains("REPORT calendar-multiget"))
        server.offersSyncCollection = true
        // Mended on the phone: read as a task.
        server.store("/calendar/bad.ics", bad.replacingOccurrences(of: "X_BAD:1\r\n", with: "SUMMARY:Mended\r\n"))
        report = try a.sync()
        #expect(report.notes.isEmpty && a.task("Mended") != nil)
    }
}
