import Foundation
import Testing

@testable import HotTaskCore

/// Repeat rules (`RepeatInput`, `RepeatRule`): what a person types, the RRULE it is stored as,
/// and where completing moves the due date, at the edges of months, leap years, summer time
/// and weekdays.
@Suite("Repeat rules")
struct RepeatRuleTests {
    func rule(_ text: String) -> RepeatRule {
        guard case .success(let rule) = RepeatInput.parse(text) else {
            Issue.record("\(text) does not read")
            return .none
        }
        return rule
    }

    func day(_ text: String) -> DueDate { DueDate(text: text)! }

    /// The due dates completing gives, one after another, from `start`.
    func steps(_ rule: RepeatRule, from start: DueDate, _ count: Int) -> [String] {
        var due = start
        var rule = rule
        var out: [String] = []
        for _ in 0..<count {
            guard let next = rule.next(after: due) else {
                out.append("end")
                break
            }
            due = next.due
            rule = next.rule
            out.append(due.text(local: DueDate.utc) + (due.zoneName.map { " " + $0 } ?? ""))
        }
        return out
    }

    @Test func everyFormReadsAsTheRRuleItIsStoredAs() {
        let forms: [(String, String)] = [
            ("daily", "FREQ=DAILY"), ("weekly", "FREQ=WEEKLY"), ("monthly", "FREQ=MONTHLY"), ("yearly", "FREQ=YEARLY"),
            ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            ("every day", "FREQ=DAILY"), ("every 3 days", "FREQ=DAILY;INTERVAL=3"), ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2"),
            ("every 1 month", "FREQ=MONTHLY"), ("every 6 months", "FREQ=MONTHLY;INTERVAL=6"), ("every 2 years", "FREQ=YEARLY;INTERVAL=2"),
            ("every mon,thu", "FREQ=WEEKLY;BYDAY=MO,TH"), ("every thu, mon", "FREQ=WEEKLY;BYDAY=MO,TH"),
            ("Every Monday and Thursday", "FREQ=WEEKLY;BYDAY=MO,TH"), ("every sun", "FREQ=WEEKLY;BYDAY=SU"),
            ("every sundays", "FREQ=WEEKLY;BYDAY=SU"), ("freq=monthly;byday=-1fr", "FREQ=MONTHLY;BYDAY=-1FR"),
            ("FREQ=WEEKLY;WKST=MO;INTERVAL=1;COUNT=3", "FREQ=WEEKLY;COUNT=3"), ("none", ""),
        ]
        for (text, rrule) in forms { #expect(rule(text).rrule == rrule, "\(text)") }
        for bad in [
            "", "every", "fortnightly", "every 0 days", "every 2", "every blue moon", "FREQ=HOURLY", "FREQ=MONTHLY;BYMONTHDAY=15", "daily weekly",
        ] {
            guard case .failure(let refusal) = RepeatInput.parse(bad) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(refusal.description == "“\(bad)” is not a repeat rule; use " + RepeatInput.forms)
        }
    }

    @Test func theRuleIsSaidInWords() {
        #expect(rule("daily").words == "daily")
        #expect(rule("every 2 weeks").words == "every 2 weeks")
        #expect(rule("every mon,thu").words == "every Mon, Thu")
        #expect(rule("weekdays").words == "weekdays")
        #expect(RepeatRule(rrule: "FREQ=MONTHLY;BYDAY=-1FR")!.words == "monthly on the last Fri")
        #expect(RepeatRule(rrule: "FREQ=WEEKLY;COUNT=3")!.words == "weekly, this and 2 more")
        #expect(RepeatRule(rrule: "FREQ=DAILY;UNTIL=20270301")!.words == "daily until 2027-03-01")
    }

    @Test func monthlyOnThe31stSkipsMonthsWithoutOneAsRFC5545Does() {
        #expect(steps(rule("monthly"), from: day("2027-01-31"), 4) == ["2027-03-31", "2027-05-31", "2027-07-31", "2027-08-31"])
        #expect(steps(rule("monthly"), from: day("2027-01-30"), 2) == ["2027-03-30", "2027-04-30"])
        #expect(steps(rule("every 3 months"), from: day("2026-11-30"), 2) == ["2027-05-30", "2027-08-30"])
    }

    @Test func leapDaysRepeatOnlyInLeapYears() {
        #expect(steps(rule("yearly"), from: day("2028-02-29"), 2) == ["2032-02-29", "2036-02-29"])
        #expect(steps(rule("daily"), from: day("2028-02-28"), 2) == ["2028-02-29", "2028-03-01"])
        #expect(steps(rule("monthly"), from: day("2028-01-29"), 2) == ["2028-02-29", "2028-03-29"])
        #expect(steps(rule("monthly"), from: day("2027-01-29"), 1) == ["2027-03-29"])
    }

    @Test func aTimeKeepsItsClockReadingAcrossSummerTimeChanges() {
        // Berlin springs forward 2026-03-29 and falls back 2026-10-25; New York 2026-03-08 and 2026-11-01.
        let berlin = DueDate.time(year: 2026, month: 3, day: 28, hour: 9, minute: 0, zone: .named("Europe/Berlin"))!
        #expect(steps(rule("daily"), from: berlin, 2) == ["2026-03-29T09:00:00+02:00 Europe/Berlin", "2026-03-30T09:00:00+02:00 Europe/Berlin"])
        let zone = ZoneInfo(identifier: "Europe/Berlin")!
        let next = rule("daily").next(after: berlin)!.due
        #expect(next.text(local: zone) == "2026-03-29T09:00:00+02:00")
        let newYork = DueDate.time(year: 2026, month: 10, day: 31, hour: 8, minute: 30, zone: .named("America/New_York"))!
        let after = rule("weekly").next(after: newYork)!.due
        #expect(after.text(local: zone) == "2026-11-07T08:30:00-05:00")
        #expect(
            rule("weekly").next(after: DueDate.time(year: 2026, month: 10, day: 24, hour: 8, minute: 30, zone: .named("America/New_York"))!)!.due
                .text(local: zone) == "2026-10-31T08:30:00-04:00")
    }

    @Test func aWeekdayRuleWhenTodayIsThatWeekday() {
        // 2026-11-29 is a Sunday, 2026-11-27 a Friday.
        let sundays = rule("every sun")
        #expect(sundays.first(onOrAfter: day("2026-11-29").days) == day("2026-11-29"), "today, when today is one")
        #expect(sundays.first(onOrAfter: day("2026-11-27").days) == day("2026-11-29"))
        #expect(steps(sundays, from: day("2026-11-29"), 2) == ["2026-12-06", "2026-12-13"])
        let monThu = rule("every mon,thu")
        #expect(monThu.first(onOrAfter: day("2026-11-27").days) == day("2026-11-30"))
        #expect(steps(monThu, from: day("2026-11-30"), 3) == ["2026-12-03", "2026-12-07", "2026-12-10"])
        #expect(steps(rule("weekdays"), from: day("2026-11-27"), 2) == ["2026-11-30", "2026-12-01"])
        #expect(rule("daily").first(onOrAfter: day("2026-11-27").days) == day("2026-11-27"))
    }

    @Test func countAndUntilEndTheSeries() {
        #expect(steps(RepeatRule(rrule: "FREQ=DAILY;COUNT=3")!, from: day("2026-11-27"), 3) == ["2026-11-28", "2026-11-29", "end"])
        #expect(RepeatRule(rrule: "FREQ=DAILY;COUNT=3")!.next(after: day("2026-11-27"))?.rule.rrule == "FREQ=DAILY;COUNT=2")
        #expect(steps(RepeatRule(rrule: "FREQ=WEEKLY;UNTIL=20261211")!, from: day("2026-11-27"), 3) == ["2026-12-04", "2026-12-11", "end"])
    }

    @Test func completingARepeatingTaskMovesItsDueDateAndUndoTakesItBack() throws {
        var task = TaskItem(caption: "Water plants", createdAt: Date(timeIntervalSince1970: 0), due: day("2026-11-29"))
        task.repeatRule = rule("every sun")
        var list = TaskList([task])
        let change = try #require(list.completing(true, at: 0, now: Date(), local: .current))
        list.apply(change, clock: Clock(milliseconds: 1_000))
        #expect(!list[0].completed)
        #expect(list[0].due == day("2026-12-06"))
        let undo = change.inverse
        list.apply(undo, clock: Clock(milliseconds: 2_000))
        #expect(list[0].due == day("2026-11-29") && !list[0].completed)
        // The last occurrence completes it; a task without a due date completes too.
        list.apply(
            try #require(ChangeRules.repeating(list[0], by: RepeatRule(rrule: "FREQ=WEEKLY;COUNT=1")!, today: 0)), clock: Clock(milliseconds: 3_000))
        list.apply(try #require(list.completing(true, at: 0, now: Date(), local: .current)), clock: Clock(milliseconds: 4_000))
        #expect(list[0].completed)
    }

    // MARK: iCalendar

    static func vtodo(_ lines: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:u1\r\nSUMMARY:Water plants\r\n"
            + lines.split(separator: "\n").map { $0 + "\r\n" }.joined() + "END:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @Test func anRRuleIsTheRepeatRuleBothWaysAndOneHotTaskCannotStepIsKept() throws {
        let phone = try #require(
            TodoMapping.read(Self.vtodo("DTSTART;VALUE=DATE:20261129\nDUE;VALUE=DATE:20261129\nRRULE:FREQ=WEEKLY;BYDAY=SU")).todo)
        var task = phone.task(id: UUID(), createdAt: Date(), modifiedAt: Date())
        #expect(task.repeatRule.rrule == "FREQ=WEEKLY;BYDAY=SU")
        #expect(task.due == day("2026-11-29"))
        // Completed here: the due date moves on, and DTSTART with it, as a phone moves both.
        var list = TaskList([task])
        list.apply(try #require(list.completing(true, at: 0, now: Date(), local: .current)), clock: Clock(milliseconds: 1_000))
        task = list[0]
        let written = TodoMapping.write(
            SharedFields(task), uid: "u1", clocks: task.clocks, created: Date(), onto: phone.calendar, now: Date())
        var text = ""
        written.write(to: &text)
        #expect(text.contains("DUE;VALUE=DATE:20261206\r\n") && text.contains("DTSTART;VALUE=DATE:20261206\r\n"))
        #expect(text.contains("RRULE:FREQ=WEEKLY;BYDAY=SU\r\n") && !text.contains("COMPLETED"))
        // A rule set here goes out with a DTSTART; none takes it away.
        var fresh = TaskItem(caption: "Pay rent", createdAt: Date(), due: day("2027-01-31"))
        fresh.repeatRule = rule("monthly")
        var out = ""
        TodoMapping.write(SharedFields(fresh), uid: "u2", clocks: fresh.clocks, created: Date(), onto: nil, now: Date()).write(to: &out)
        #expect(out.contains("RRULE:FREQ=MONTHLY\r\n") && out.contains("DTSTART;VALUE=DATE:20270131\r\n"))
        // BYMONTHDAY is not stepped here: read as no rule, and never written over.
        let other = try #require(TodoMapping.read(Self.vtodo("DUE;VALUE=DATE:20261115\nRRULE:FREQ=MONTHLY;BYMONTHDAY=15")).todo)
        let kept = other.task(id: UUID(), createdAt: Date(), modifiedAt: Date())
        #expect(kept.repeatRule.isNone)
        var renamed = kept
        renamed.caption = "Water the plants"
        var again = ""
        TodoMapping.write(SharedFields(renamed), uid: "u1", clocks: renamed.clocks, created: Date(), onto: other.calendar, now: Date())
            .write(to: &again)
        #expect(again.contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=15\r\n"))
    }
}
