import Foundation
import Testing

@testable import HotTaskCore

/// `--due WHEN` and the UI's due prompt, at the edges of months, years and summer time.
@Suite("Due date input")
struct DueInputTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// The instant a local clock in `zone` reads `text` (`YYYY-MM-DDTHH:MM:SS`).
    static func at(_ text: String, in zone: TimeZone) -> Date {
        let due = DueDate(text: text, zone: zone.identifier)!
        return Date(timeIntervalSince1970: TimeInterval(due.instant(local: zone)))
    }

    func parsed(_ text: String, at now: String, in zone: TimeZone = berlin) -> String {
        switch DueInput.parse(text, now: Self.at(now, in: zone), local: zone) {
        case .success(.set(let due)): due.text(local: zone) + (due.zoneName.map { " " + $0 } ?? "")
        case .success(.clear): "clear"
        case .failure(let refusal): "refused: \(refusal.reason ?? "form")"
        }
    }

    @Test func relativeFormsCountFromTheLocalDayAcrossMonthAndYearEnds() {
        #expect(parsed("today", at: "2026-01-31T23:59:00") == "2026-01-31")
        #expect(parsed("tomorrow", at: "2026-01-31T23:59:00") == "2026-02-01")
        #expect(parsed("tomorrow", at: "2026-12-31T12:00:00") == "2027-01-01")
        #expect(parsed("+1d", at: "2026-04-30T08:00:00") == "2026-05-01")
        #expect(parsed("+0d", at: "2026-04-30T08:00:00") == "2026-04-30")
        #expect(parsed("+2w", at: "2026-12-25T08:00:00") == "2027-01-08")
        #expect(parsed("+365d", at: "2027-03-01T08:00:00") == "2028-02-29")
        #expect(parsed("TOMORROW", at: "2026-06-01T08:00:00") == "2026-06-02")
    }

    @Test func leapDaysExistOnlyInLeapYears() {
        #expect(parsed("2028-02-29", at: "2026-06-01T08:00:00") == "2028-02-29")
        #expect(parsed("2000-02-29", at: "2026-06-01T08:00:00") == "2000-02-29")
        #expect(parsed("2026-02-29", at: "2026-06-01T08:00:00") == "refused: there is no such day")
        #expect(parsed("2100-02-29", at: "2026-06-01T08:00:00") == "refused: there is no such day")
        #expect(parsed("2026-04-31", at: "2026-06-01T08:00:00") == "refused: there is no such day")
        #expect(parsed("tomorrow", at: "2028-02-28T23:30:00") == "2028-02-29")
    }

    @Test func aWeekdayIsTheNextSuchDayNeverToday() {
        // 2026-11-25 is a Wednesday.
        #expect(parsed("wed", at: "2026-11-25T00:00:00") == "2026-12-02")
        #expect(parsed("wed", at: "2026-11-25T23:59:00") == "2026-12-02")
        #expect(parsed("thu", at: "2026-11-25T10:00:00") == "2026-11-26")
        #expect(parsed("tue", at: "2026-11-25T10:00:00") == "2026-12-01")
        #expect(parsed("sun", at: "2026-11-29T10:00:00") == "2026-12-06")
        #expect(parsed("Mon", at: "2026-12-31T10:00:00") == "2027-01-04")
    }

    @Test func todayIsTheLocalDayAroundSummerTimeChanges() {
        // Berlin springs forward at 2026-03-29 02:00 and falls back at 2026-10-25 03:00.
        #expect(parsed("today", at: "2026-03-29T00:30:00") == "2026-03-29")
        #expect(parsed("tomorrow", at: "2026-03-28T23:30:00") == "2026-03-29")
        #expect(parsed("today", at: "2026-10-25T23:30:00") == "2026-10-25")
        #expect(parsed("+1d", at: "2026-10-25T00:30:00") == "2026-10-26")
        // New York: 2026-03-08 02:00 and 2026-11-01 02:00.
        #expect(parsed("today", at: "2026-03-08T23:30:00", in: Self.newYork) == "2026-03-08")
        #expect(parsed("tomorrow", at: "2026-10-31T23:30:00", in: Self.newYork) == "2026-11-01")
        #expect(parsed("sun", at: "2026-11-01T23:59:00", in: Self.newYork) == "2026-11-08")
    }

    @Test func aLocalTimeKeepsItsZoneAndItsOffsetFollowsSummerTime() {
        #expect(parsed("2026-12-01T09:30", at: "2026-11-25T10:00:00") == "2026-12-01T09:30:00+01:00 Europe/Berlin")
        #expect(parsed("2026-07-01T09:30", at: "2026-11-25T10:00:00") == "2026-07-01T09:30:00+02:00 Europe/Berlin")
        #expect(parsed("2026-11-01T09:30", at: "2026-06-01T10:00:00", in: Self.newYork) == "2026-11-01T09:30:00-05:00 America/New_York")
        #expect(parsed("2026-10-31T09:30", at: "2026-06-01T10:00:00", in: Self.newYork) == "2026-10-31T09:30:00-04:00 America/New_York")
    }

    @Test func aTimeTheClocksSkipIsRefusedAndOneTheyRepeatIsTheFirst() {
        #expect(parsed("2026-03-29T02:30", at: "2026-03-01T10:00:00") == "refused: the clocks skip that time in Europe/Berlin")
        #expect(parsed("2026-03-08T02:30", at: "2026-03-01T10:00:00", in: Self.newYork) == "refused: the clocks skip that time in America/New_York")
        #expect(parsed("2026-03-29T03:00", at: "2026-03-01T10:00:00") == "2026-03-29T03:00:00+02:00 Europe/Berlin")
        // 02:30 on 2026-10-25 happens twice in Berlin: summer time's is first.
        #expect(parsed("2026-10-25T02:30", at: "2026-10-01T10:00:00") == "2026-10-25T02:30:00+02:00 Europe/Berlin")
        #expect(parsed("2026-11-01T01:30", at: "2026-10-01T10:00:00", in: Self.newYork) == "2026-11-01T01:30:00-04:00 America/New_York")
    }

    @Test func anythingElseIsRefusedQuotingItAndListingTheForms() {
        for bad in [
            "", "next week", "2026-1-5", "2026-12-01T9:30", "2026-12-01T24:00", "2026-12-01 09:30", "+d", "+1m", "-1d", "monday", "+99999999d",
            "12/01/2026",
        ] {
            guard case .failure(let refusal) = DueInput.parse(bad, now: Date(), local: Self.berlin) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(refusal.description.hasPrefix("“\(bad)” is not a due date"))
            #expect(refusal.description.hasSuffix("use YYYY-MM-DD, YYYY-MM-DDTHH:MM (local time), today, tomorrow, mon–sun, +Nd, +Nw, or none"))
        }
        #expect(parsed("none", at: "2026-06-01T08:00:00") == "clear")
        #expect(parsed("9999-12-31", at: "2026-06-01T08:00:00") == "9999-12-31")
        #expect(parsed("+1d", at: "9999-12-31T08:00:00") == "refused: past the year 9999")
    }
}
