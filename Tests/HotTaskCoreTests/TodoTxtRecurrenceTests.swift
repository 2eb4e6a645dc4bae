import Foundation
import Testing

@testable import HotTaskCore

/// todo.txt's `rec:` (Simpletask's convention) both ways, and repeat rules counted from the day
/// the task is done, at the boundaries: month ends, 29 February, words that are not a rule, a
/// line without a due date, a line todo.sh did.
@Suite("todo.txt rec: and repeat rules after done")
struct TodoTxtRecurrenceTests {
    private let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    private func day(_ text: String) -> DueDate { DueDate(text: text)! }

    private func dayNumber(_ text: String) -> Int { day(text).days }

    private func tasks(_ text: String) throws -> [TaskItem] {
        try TodoTxtFormat.batch(from: Array(text.utf8), now: now).tasks
    }

    private func text(_ tasks: [TaskItem]) -> String {
        TodoTxtFormat.text(for: TaskList(tasks)).replacing(#/ id:[0-9a-f]+/#, with: "")
    }

    @Test func everyRecFormReadsAsItsRuleAndIsWrittenBackTheSameWay() throws {
        let forms: [(String, String, Bool)] = [
            ("rec:1d", "FREQ=DAILY", true), ("rec:+1d", "FREQ=DAILY", false), ("rec:2w", "FREQ=WEEKLY;INTERVAL=2", true),
            ("rec:+1w", "FREQ=WEEKLY", false), ("rec:1m", "FREQ=MONTHLY", true), ("rec:+3m", "FREQ=MONTHLY;INTERVAL=3", false),
            ("rec:1y", "FREQ=YEARLY", true), ("rec:+1y", "FREQ=YEARLY", false), ("rec:1b", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", true),
            ("rec:+1b", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", false), ("rec:1000d", "FREQ=DAILY;INTERVAL=1000", true),
        ]
        for (word, rrule, afterDone) in forms {
            let rule = try #require(TodoTxtRecurrence.rule(from: Substring(word)), "\(word)")
            #expect(rule.rrule == rrule && rule.afterDone == afterDone, "\(word)")
            #expect(TodoTxtRecurrence.word(for: rule) == word)
        }
        #expect(TodoTxtRecurrence.rule(from: "rec:+7d").map(TodoTxtRecurrence.word(for:)) == "rec:+7d", "7 days stay 7 days")
        // What rec: cannot say is written as none (and kept by an import of the line).
        for rrule in ["FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=DAILY;COUNT=3", "FREQ=WEEKLY;UNTIL=20261231", "FREQ=MONTHLY;BYDAY=-1FR"] {
            #expect(TodoTxtRecurrence.word(for: RepeatRule(rrule: rrule)!) == nil, "\(rrule)")
        }
    }

    @Test func aRecWordThatSaysNoRuleStaysInTheCaptionAndNothingIsLost() throws {
        let lines = [
            "Stretch rec:0d", "Stretch rec:+0w", "Stretch rec:2b", "Stretch rec:w", "Stretch rec:1h", "Stretch rec:often", "Stretch rec:",
            "Stretch rec:01w", "Stretch rec:1001d", "Stretch rec:+-1d", "Stretch rec:1W",
        ]
        let read = try tasks(lines.joined(separator: "\n") + "\n")
        #expect(read.map(\.caption) == lines)
        #expect(read.allSatisfy { $0.repeatRule.isNone && $0.due == nil })
        #expect(
            text(read) == lines.map { "2026-11-18 " + $0 + "\n" }.joined(), "written back as it came (with the import day: no carried record here)")
        // A line that says nothing else keeps its rec: as its caption.
        #expect(try tasks("rec:+1w\n").map(\.caption) == ["rec:+1w"])
    }

    @Test func aLineGivesItsTaskTheRuleAndItsDueDateAndIsWrittenBackByteForByte() throws {
        let line = "(B) 2026-11-01 Pay rent +home due:2026-12-01 rec:+1m"
        let read = try #require(try tasks(line + "\n").first)
        #expect(read.caption == "Pay rent" && read.tags == ["home"] && read.due == day("2026-12-01"))
        #expect(read.repeatRule == RepeatRule(rrule: "FREQ=MONTHLY"))
        let written = TodoTxtFormat.text(for: TaskList([read]))
        let idTag = try #require(written.firstMatch(of: #/ id:[0-9a-f]+/#)).output
        // Its own export read back says the same, and is written the same (Bonus, so no letter).
        let again = try #require(try tasks(written).first)
        #expect(again.repeatRule == read.repeatRule && again.due == read.due)
        #expect(TodoTxtFormat.text(for: TaskList([again])) == "2026-11-01 Pay rent +home due:2026-12-01 rec:+1m" + idTag + "\n")
    }

    @Test func aRecLineWithoutADueDateIsDueTodayAsRepeatDoes() throws {
        let read = try tasks("Water plants rec:1w\nSort mail rec:+1b\n")
        #expect(
            read.map(\.due) == [
                DueDate.day(DueDate.localDay(of: now, in: .current)), read[1].repeatRule.first(onOrAfter: DueDate.localDay(of: now, in: .current)),
            ])
        #expect(read.map(\.caption) == ["Water plants", "Sort mail"])
        #expect(read[0].repeatRule.afterDone && !read[1].repeatRule.afterDone)
    }

    // MARK: Stepping

    @Test func strictMonthlyOnThe31stFollowsTheRRuleAndAfterDoneFallsBackToTheMonthsEnd() throws {
        let strict = try #require(TodoTxtRecurrence.rule(from: "rec:+1m"))
        #expect(strict.next(after: day("2027-01-31"), doneOn: dayNumber("2027-01-31"))?.due == day("2027-03-31"), "RFC 5545 skips February")
        let afterDone = try #require(TodoTxtRecurrence.rule(from: "rec:1m"))
        #expect(afterDone.next(after: day("2027-01-20"), doneOn: dayNumber("2027-01-31"))?.due == day("2027-02-28"))
        #expect(afterDone.next(after: day("2028-01-31"), doneOn: dayNumber("2028-01-31"))?.due == day("2028-02-29"))
    }

    @Test func yearlyOn29FebruaryWaitsForALeapYearStrictlyAndFallsBackTo28AfterDone() throws {
        let strict = try #require(TodoTxtRecurrence.rule(from: "rec:+1y"))
        #expect(strict.next(after: day("2028-02-29"), doneOn: dayNumber("2028-03-02"))?.due == day("2032-02-29"))
        let afterDone = try #require(TodoTxtRecurrence.rule(from: "rec:1y"))
        #expect(afterDone.next(after: day("2028-02-20"), doneOn: dayNumber("2028-02-29"))?.due == day("2029-02-28"))
    }

    @Test func afterDoneCountsFromTheDayDoneKeepingTheTimeOfDayAndTheRulesEnd() throws {
        let weekly = try RepeatInput.parse("every 2 weeks after done").get()
        #expect(weekly.rrule == "FREQ=WEEKLY;INTERVAL=2" && weekly.afterDone && weekly.words == "every 2 weeks after done")
        // Three weeks late: two weeks from the day it was done, not from its due date.
        #expect(weekly.next(after: day("2026-11-01"), doneOn: dayNumber("2026-11-22"))?.due == day("2026-12-06"))
        let zone = DueDate.Zone.named("Europe/Berlin")
        let nine = try #require(DueDate.time(year: 2026, month: 3, day: 20, hour: 9, minute: 0, zone: zone))
        let daily = try RepeatInput.parse("daily after done").get()
        #expect(
            daily.next(after: nine, doneOn: dayNumber("2026-03-28"))?.due
                == DueDate.time(year: 2026, month: 3, day: 29, hour: 9, minute: 0, zone: zone))
        // Weekdays after done: the first weekday after the day done (a Saturday: Monday).
        let weekdays = try #require(TodoTxtRecurrence.rule(from: "rec:1b"))
        #expect(weekdays.next(after: day("2026-11-20"), doneOn: dayNumber("2026-11-28"))?.due == day("2026-11-30"))
        // COUNT counts down and ends it, as it does from the due date.
        let twice = try RepeatInput.parse("FREQ=DAILY;COUNT=2 after done").get()
        let first = try #require(twice.next(after: day("2026-11-01"), doneOn: dayNumber("2026-11-10")))
        #expect(first.due == day("2026-11-11") && first.rule.stored == "FREQ=DAILY;COUNT=1;X-HOTTASK-FROM=DONE")
        #expect(first.rule.next(after: first.due, doneOn: dayNumber("2026-11-11")) == nil)
    }

    @Test func completingHereStepsFromTheDayDone() throws {
        var task = TaskItem(caption: "Water plants", createdAt: now, due: day("2026-11-01"))
        task.repeatRule = try #require(TodoTxtRecurrence.rule(from: "rec:1w"))
        let utc = ZoneInfo(identifier: "UTC")!
        let done = Date(timeIntervalSince1970: TimeInterval(dayNumber("2026-11-18") * 86_400 + 3_600))
        let change = try #require(ChangeRules.complete(task, true, now: done, local: utc))
        guard case .set(_, let fields, _) = change else { return #expect(Bool(false)) }
        #expect(fields.due == .some(day("2026-11-25")) && fields.completed == nil)
    }

    @Test func theStoredTextKeepsTheFlagAndAnOldStoresRuleReadsAsItWas() throws {
        let afterDone = try #require(RepeatRule(stored: "FREQ=WEEKLY;X-HOTTASK-FROM=DONE"))
        #expect(afterDone.afterDone && afterDone.rrule == "FREQ=WEEKLY" && afterDone.stored == "FREQ=WEEKLY;X-HOTTASK-FROM=DONE")
        let plain = try #require(RepeatRule(stored: "FREQ=WEEKLY"))
        #expect(!plain.afterDone && plain.stored == "FREQ=WEEKLY")
        #expect(RepeatRule(rrule: "FREQ=WEEKLY;X-HOTTASK-FROM=DONE") == nil, "never an RRULE part")
        #expect(RepeatInput.parse("none after done") == .failure(RepeatInput.Refusal(value: "none after done")))
        #expect(try RepeatInput.parse("FREQ=WEEKLY;X-HOTTASK-FROM=DONE").get() == afterDone)
    }

    @Test func aCalendarGetsThePlainRRuleWithTheFlagBesideIt() throws {
        var task = TaskItem(caption: "Water plants", createdAt: now, due: day("2026-11-29"))
        task.repeatRule = try #require(TodoTxtRecurrence.rule(from: "rec:1w"))
        let text = ICalendarFormat.text(for: TaskList([task]))
        #expect(text.contains("RRULE:FREQ=WEEKLY\r\n") && text.contains("X-HOTTASK-REPEAT-FROM:DONE\r\n"))
        #expect(!text.contains("X-HOTTASK-FROM"))
        let back = try ImportBatch.parse(Array(text.utf8), fileName: "tasks.ics").tasks
        #expect(back.map(\.repeatRule) == [task.repeatRule])
    }

    // MARK: todo.sh's do

    /// A list imported from `text`, and the import base that import leaves.
    private func imported(_ text: String) throws -> (TaskList, ImportBase) {
        let batch = TaskList().resolvingIdentity(of: try TodoTxtFormat.batch(from: Array(text.utf8), now: now))
        var base = ImportBase()
        base.record(ImportBase.Said(batch.tasks))
        return (TaskList(batch.tasks), base)
    }

    @Test func aLineDoneInTodoShMovesItsRepeatingTaskOnAsCompletingHereDoes() throws {
        let (list, base) = try imported("2026-11-01 Pay rent due:2026-12-01 rec:+1m\n2026-11-01 Water plants due:2026-11-10 rec:1w\n")
        for archived in [false, true] {
            let done = "x 2026-11-20 2026-11-01 Pay rent due:2026-12-01 rec:+1m\nx 2026-11-20 2026-11-01 Water plants due:2026-11-10 rec:1w\n"
            let files: [(name: String, bytes: [UInt8])] =
                archived ? [("todo.txt", []), ("done.txt", Array(done.utf8))] : [("todo.txt", Array(done.utf8))]
            let resolved = list.resolvingIdentity(of: try TodoTxtFormat.batch(files: files, now: now), base: base)
            let (changes, counts) = list.importing(resolved, base: base, dates: .runningNow)
            #expect(counts.updated == 2, "archived: \(archived)")
            var after = list
            for change in changes { after.apply(change, clock: Clock(milliseconds: 1_800_000_000_000)) }
            #expect(after.all.map(\.completed) == [false, false])
            #expect(after.all.map(\.due) == [day("2027-01-01"), day("2026-11-27")], "the rent from its due date, the plants from the day done")
        }
    }

    @Test func theArchivedLineOfAnOccurrenceDoneBeforeIsNoRepeatedLine() throws {
        let files: [(name: String, bytes: [UInt8])] = [
            ("todo.txt", Array("Pay rent due:2027-01-01 rec:+1m id:1a2b3c4d\n".utf8)),
            ("done.txt", Array("x 2026-11-20 Pay rent due:2026-12-01 rec:+1m id:1a2b3c4d\n".utf8)),
        ]
        let batch = try TodoTxtFormat.batch(files: files, now: now)
        #expect(batch.tasks.count == 1 && batch.todoTxtLines?.notes == [])
        #expect(batch.tasks[0].due == day("2027-01-01") && !batch.tasks[0].completed)
    }

    @Test func aRuleRecCannotSayIsKeptByAnImportOfItsLine() throws {
        var task = TaskItem(caption: "Gym", createdAt: now, due: day("2026-11-30"))
        task.repeatRule = RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO,TH")!
        let list = TaskList([task])
        let written = TodoTxtFormat.text(for: list)
        #expect(!written.contains("rec:"))
        var base = ImportBase()
        base.record(ImportBase.Said(list.all))
        let resolved = list.resolvingIdentity(of: try TodoTxtFormat.batch(from: Array(written.utf8), now: now), base: base)
        let (changes, counts) = list.importing(resolved, base: base, dates: .runningNow)
        #expect(changes.isEmpty && counts.unchanged == 1)
        // A rec: added to the line in todo.txt is the file's change.
        let edited = written.replacingOccurrences(of: " id:", with: " rec:+2w id:")
        let again = list.resolvingIdentity(of: try TodoTxtFormat.batch(from: Array(edited.utf8), now: now), base: base)
        guard case .set(_, let fields, _)? = list.importing(again, base: base, dates: .runningNow).changes.first else { return #expect(Bool(false)) }
        #expect(fields.repeatRule == RepeatRule(rrule: "FREQ=WEEKLY;INTERVAL=2"))
    }
}
