import Foundation
import HotTaskCore
import TestSupport
import Testing

/// Issue 54: subtasks in iCalendar files, as Tasks.org, Nextcloud Tasks, jtx Board and Apple
/// Reminders write them: `RELATED-TO;RELTYPE=PARENT`, and a RELATED-TO without RELTYPE means
/// PARENT. Another RELTYPE stays carried as it came.
@Suite("subtasks in iCalendar files")
struct SubtasksICalendarTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }

    private func hottask(_ args: String...) -> [String] { ["--file", store] + args }

    /// As a phone writes them: UIDs that are not UUIDs, a parent named both ways, a sibling
    /// relation, and a parent that has not arrived.
    private static func phone(bookFlights: String = "RELATED-TO;RELTYPE=PARENT:1001", pack: String = "RELATED-TO:1001") -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tasks.org//EN",
            "BEGIN:VTODO", "UID:1001", "SUMMARY:Plan the trip", "END:VTODO",
            "BEGIN:VTODO", "UID:1002", "SUMMARY:Book flights", bookFlights, "END:VTODO",
            "BEGIN:VTODO", "UID:1003", "SUMMARY:Pack", pack, "END:VTODO",
            "BEGIN:VTODO", "UID:1004", "SUMMARY:Sibling only", "RELATED-TO;RELTYPE=SIBLING:1001", "END:VTODO",
            "BEGIN:VTODO", "UID:1005", "SUMMARY:Orphan", "RELATED-TO;RELTYPE=PARENT:9999", "END:VTODO",
            "END:VCALENDAR", "",
        ].filter { !$0.isEmpty }.joined(separator: "\r\n") + "\r\n"
    }

    private static let kept = "hottask: note: kept aside for an export back to iCalendar, as HotTask has no such field: RELATED-TO (1 task)\n"

    @Test func aPhonesSubtasksArriveUnderTheirParentWithAndWithoutRelType() {
        folder.write(Self.phone(), to: "phone.ics")
        expectRun(
            hottask("--import", folder.path("phone.ics")),
            stdout: "Imported from iCalendar \(folder.path("phone.ics")): added 5, updated 0, unchanged 0, skipped 0\n", stderr: Self.kept)
        expectRun(
            hottask("--list"),
            stdout: """
                Get started - 5 to go!

                Top Priority (0)
                  (none)
                Bonus (5)
                  1. [ ] Plan the trip
                  2.   [ ] Book flights
                  3.   [ ] Pack
                  4. [ ] Sibling only
                  5. [ ] Orphan

                """)
        // Untouched, each to-do goes back as it came: the relations' bytes, the sibling's too.
        let out = folder.path("out.ics")
        expectRun(hottask("--export", out, "--export-format", "ics"), stdout: "Exported 5 tasks to \(out)\n")
        #expect(fileText(out) == Self.phone().replacingOccurrences(of: "PRODID:-//Tasks.org//EN", with: "PRODID:-//HotTask//HotTask//EN"))
    }

    @Test func aRelationRemovedOrChangedOnThePhoneMovesTheTaskHere() {
        folder.write(Self.phone(), to: "phone.ics")
        expectRun(hottask("--quiet", "--import", folder.path("phone.ics")), stderr: Self.kept)
        folder.write(Self.phone(bookFlights: "STATUS:NEEDS-ACTION", pack: "RELATED-TO;RELTYPE=PARENT:1002"), to: "phone.ics")
        expectRun(hottask("--quiet", "--import", folder.path("phone.ics")), stderr: Self.kept)
        expectRun(
            hottask("--list"),
            stdout: """
                Get started - 5 to go!

                Top Priority (0)
                  (none)
                Bonus (5)
                  1. [ ] Plan the trip
                  2. [ ] Book flights
                  3.   [ ] Pack
                  4. [ ] Sibling only
                  5. [ ] Orphan

                """)
    }

    @Test func aSubtaskMadeHereNamesItsParentByTheUIDItCameWith() throws {
        folder.write(Self.phone(), to: "phone.ics")
        expectRun(hottask("--quiet", "--import", folder.path("phone.ics")), stderr: Self.kept)
        expectRun(hottask("--add", "Passport", "--under", "3"), stdout: "Added to Bonus, under 'Pack': Passport\n")
        expectRun(hottask("--edit", "5", "--under", "1"), stdout: "Moved under 'Plan the trip': Sibling only\n")
        let out = folder.path("out.ics")
        expectRun(hottask("--quiet", "--export", out, "--export-format", "ics"))
        // Each to-do's summary and relations, in the order written.
        let lines = (fileText(out) ?? "").components(separatedBy: "\r\n").filter { $0.hasPrefix("SUMMARY:") || $0.hasPrefix("RELATED-TO") }
        #expect(
            lines == [
                "SUMMARY:Plan the trip", "SUMMARY:Book flights", "RELATED-TO;RELTYPE=PARENT:1001", "SUMMARY:Pack", "RELATED-TO:1001",
                "SUMMARY:Passport", "RELATED-TO;RELTYPE=PARENT:1003", "SUMMARY:Sibling only", "RELATED-TO;RELTYPE=SIBLING:1001",
                "RELATED-TO;RELTYPE=PARENT:1001", "SUMMARY:Orphan", "RELATED-TO;RELTYPE=PARENT:9999",
            ])
        // Read back, the family is the same (numbered by the order the file's sort orders give:
        // a family stays together whatever its members' places).
        let again = TemporaryFolder()
        expectRun(["--file", again.storePath, "--quiet", "--import", out], stderr: Self.kept)
        expectRun(
            ["--file", again.storePath, "--list"],
            stdout: """
                Get started - 6 to go!

                Top Priority (0)
                  (none)
                Bonus (6)
                  3. [ ] Plan the trip
                  2.   [ ] Sibling only
                  4.   [ ] Book flights
                  5.   [ ] Pack
                  1.     [ ] Passport
                  6. [ ] Orphan

                """)
    }

    @Test func aCycleInAFileIsBrokenAtTheLowestIdAndSaidSo() {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:2001", "SUMMARY:Egg", "RELATED-TO;RELTYPE=PARENT:2002", "END:VTODO",
            "BEGIN:VTODO", "UID:2002", "SUMMARY:Hen", "RELATED-TO:2001", "END:VTODO", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        folder.write(text, to: "cycle.ics")
        // The lowest id of the two (as text) is shown top-level, whichever came first.
        let (top, under) =
            TodoMapping.id(forUID: "2001").uuidString.lowercased() < TodoMapping.id(forUID: "2002").uuidString.lowercased()
            ? ("Egg", "Hen") : ("Hen", "Egg")
        expectRun(
            hottask("--quiet", "--import", folder.path("cycle.ics")),
            stderr: "hottask: note: the subtasks of '\(top)' lead back to it (a cycle): it is shown top-level\n")
        let numbers = top == "Egg" ? ("1", "2") : ("2", "1")
        expectRun(
            hottask("--list"),
            stdout: """
                Get started - 2 to go!

                Top Priority (0)
                  (none)
                Bonus (2)
                  \(numbers.0). [ ] \(top)
                  \(numbers.1).   [ ] \(under)

                """)
    }
}
