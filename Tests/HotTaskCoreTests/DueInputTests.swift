import Foundation
import Testing

@testable import HotTaskCore

/// `--due WHEN` and the UI's due prompt, at the edges of months, years and summer time.
@Suite("Due date input")
struct DueInputTests {
    static let berlin = ZoneInfo(identifier: "Europe/Berlin")!
    static let newYork = ZoneInfo(identifier: "America/New_York")!

    /// The instant a local clock in `zone` reads `text` (`YYYY-MM-DDTHH:MM:SS`).
    static func at(_ text: String, in zone: ZoneInfo) -> Date {
        let due = DueDate(text: text, zone: zone.identifier)!
        return Date(timeIntervalSince1970: TimeInterval(due.instant(local: zone)))
    }

    func parsed(_ text: String, at now: String, in zone: ZoneInfo = berlin) -> String {
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
            "", "next week", "2026-1-5", "2026-12-01T9:30", "2026-12-01T24:00", "2026-12-01 9:3", "+d", "+1m", "-1d", "mondays", "+99999999d",
            "12/01/2026", "in 3 months", "in days", "next", "dec", "dec 1 26", "tomorrow at 9:00", "9", "friday 9",
        ] {
            guard case .failure(let refusal) = DueInput.parse(bad, now: Date(), local: Self.berlin) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(refusal.description.hasPrefix("“\(bad)” is not a due date"))
            #expect(refusal.description.hasSuffix("use " + DueInput.forms))
        }
        #expect(parsed("none", at: "2026-06-01T08:00:00") == "clear")
        #expect(parsed("9999-12-31", at: "2026-06-01T08:00:00") == "9999-12-31")
        #expect(parsed("+1d", at: "9999-12-31T08:00:00") == "refused: past the year 9999")
    }

    // MARK: Dates as people say them (issue 40). 2026-11-27 is a Friday.

    @Test func fullWeekdayNamesAndNextAreTheNextSuchDayNeverToday() {
        #expect(parsed("friday", at: "2026-11-27T10:00:00") == "2026-12-04")
        #expect(parsed("Friday", at: "2026-11-26T10:00:00") == "2026-11-27")
        #expect(parsed("next fri", at: "2026-11-27T10:00:00") == "2026-12-04")
        #expect(parsed("next fri", at: "2026-11-26T10:00:00") == "2026-11-27")
        #expect(parsed("next monday", at: "2026-12-31T10:00:00") == "2027-01-04")
        #expect(parsed("sunday", at: "2026-11-28T23:59:00") == "2026-11-29")
        #expect(parsed("thurs", at: "2026-11-27T10:00:00") == "2026-12-03")
        #expect(parsed("  NEXT   Wednesday ", at: "2026-11-27T10:00:00") == "2026-12-02")
    }

    @Test func endOfWeekMonthAndYear() {
        // Weeks run Monday to Sunday: on a Sunday eow is that day, on a Monday six days on.
        #expect(parsed("eow", at: "2026-11-27T10:00:00") == "2026-11-29")
        #expect(parsed("eow", at: "2026-11-29T10:00:00") == "2026-11-29")
        #expect(parsed("eow", at: "2026-11-30T00:00:00") == "2026-12-06")
        #expect(parsed("eom", at: "2026-11-27T10:00:00") == "2026-11-30")
        #expect(parsed("eom", at: "2028-02-01T10:00:00") == "2028-02-29")
        #expect(parsed("eom", at: "2027-02-28T10:00:00") == "2027-02-28")
        #expect(parsed("EOM", at: "2026-12-31T23:00:00") == "2026-12-31")
        #expect(parsed("eoy", at: "2026-11-27T10:00:00") == "2026-12-31")
        #expect(parsed("eoy", at: "2026-12-31T23:59:00") == "2026-12-31")
    }

    @Test func inNDaysOrWeeksAndTheirShortForms() {
        #expect(parsed("in 3 days", at: "2026-11-27T10:00:00") == "2026-11-30")
        #expect(parsed("in 1 day", at: "2026-12-31T10:00:00") == "2027-01-01")
        #expect(parsed("in 2 weeks", at: "2026-12-25T10:00:00") == "2027-01-08")
        #expect(parsed("in 1 week", at: "2026-11-27T10:00:00") == "2026-12-04")
        #expect(parsed("in 0 days", at: "2026-11-27T10:00:00") == "2026-11-27")
        #expect(parsed("3d", at: "2026-11-27T10:00:00") == "2026-11-30")
        #expect(parsed("2w", at: "2026-11-27T10:00:00") == "2026-12-11")
        #expect(parsed("366d", at: "2027-03-01T08:00:00") == "2028-03-01")
        #expect(parsed("3d", at: "9999-12-30T10:00:00") == "refused: past the year 9999")
    }

    @Test func aMonthAndDayIsThisYearsOrNextYearsOnceItHasPassed() {
        #expect(parsed("dec 1", at: "2026-11-27T10:00:00") == "2026-12-01")
        #expect(parsed("1 dec", at: "2026-11-27T10:00:00") == "2026-12-01")
        #expect(parsed("December 1", at: "2026-11-27T10:00:00") == "2026-12-01")
        #expect(parsed("nov 27", at: "2026-11-27T23:00:00") == "2026-11-27")
        #expect(parsed("nov 26", at: "2026-11-27T10:00:00") == "2027-11-26")
        #expect(parsed("jan 5", at: "2026-12-31T10:00:00") == "2027-01-05")
        // Issue 52: the next 29 February is more than a year away: refused, naming it.
        #expect(parsed("29 feb", at: "2026-11-27T10:00:00") == "refused: there is none in the next 12 months; give the year: 29 feb 2028")
        #expect(parsed("feb 29", at: "2027-03-01T10:00:00") == "2028-02-29")
        #expect(parsed("1 sept", at: "2026-11-27T10:00:00") == "2027-09-01")
        #expect(parsed("1 dec 2027", at: "2026-11-27T10:00:00") == "2027-12-01")
        #expect(parsed("feb 30", at: "2026-11-27T10:00:00") == "refused: there is no such day")
        #expect(parsed("29 feb 2027", at: "2026-11-27T10:00:00") == "refused: there is no such day")
    }

    @Test func aDayWithATimeIsALocalTimeKeptWithItsZone() {
        #expect(parsed("2026-12-01 14:00", at: "2026-11-27T10:00:00") == "2026-12-01T14:00:00+01:00 Europe/Berlin")
        #expect(parsed("tomorrow 9:00", at: "2026-11-27T10:00:00") == "2026-11-28T09:00:00+01:00 Europe/Berlin")
        #expect(parsed("tomorrow 09:00", at: "2026-11-27T10:00:00") == "2026-11-28T09:00:00+01:00 Europe/Berlin")
        #expect(parsed("fri 17:30", at: "2026-11-27T10:00:00") == "2026-12-04T17:30:00+01:00 Europe/Berlin")
        #expect(parsed("dec 1 8:15", at: "2026-11-27T10:00:00") == "2026-12-01T08:15:00+01:00 Europe/Berlin")
        #expect(parsed("16:00", at: "2026-11-27T10:00:00") == "2026-11-27T16:00:00+01:00 Europe/Berlin")
        #expect(parsed("tomorrow 9:00", at: "2026-03-28T10:00:00", in: Self.newYork) == "2026-03-29T09:00:00-04:00 America/New_York")
        #expect(parsed("tomorrow 2:30", at: "2026-03-28T10:00:00") == "refused: the clocks skip that time in Europe/Berlin")
        #expect(parsed("tomorrow 24:00", at: "2026-11-27T10:00:00") == "refused: there is no such time")
        #expect(parsed("tomorrow 9:60", at: "2026-11-27T10:00:00") == "refused: there is no such time")
        #expect(parsed("tomorrow 9:00", at: "2026-11-27T10:00:00", in: ZoneInfo(identifier: "UTC")!) == "2026-11-28T09:00:00Z")
    }

    @Test func theWordsAreEnglishWhateverTheLocale() {
        // The parser has no locale to read: a German user types the same words.
        #expect(parsed("friday", at: "2026-11-27T10:00:00") == parsed("fri", at: "2026-11-27T10:00:00"))
        #expect(parsed("freitag", at: "2026-11-27T10:00:00") == "refused: form")
        #expect(parsed("1 dez", at: "2026-11-27T10:00:00") == "refused: form")
    }
}
