import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// `--repeat` through the real binary: the rule shown and carried, completing a repeating task
/// moving it on (and --undo taking that back), a bad rule changing nothing.
@Suite("Repeating tasks on the command line")
struct RepeatCommandLineTests {
    let folder = TemporaryFolder()
    let berlin = ["TZ": "Europe/Berlin"]

    private func run(
        _ args: String..., stdout: String = "", stderr: String = "", status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectRun(
            ["--file", folder.storePath] + args, environment: berlin, stdout: stdout, stderr: stderr, status: status, sourceLocation: sourceLocation)
    }

    @Test func aRepeatingTaskMovesToItsNextOccurrenceWhenDoneAndUndoTakesItBack() throws {
        run("--add", "Pay rent", "--due", "2999-01-31", "--repeat", "monthly", stdout: "Added to Top Priority: Pay rent (due 2999-01-31, monthly)\n")
        run(
            "--add", "Standup", "--due", "2999-12-02 9:30", "--repeat", "weekdays",
            stdout: "Added to Top Priority: Standup (due 2999-12-02 09:30, weekdays)\n")
        run("--done", "2", stdout: "Completed: Pay rent (repeats monthly; next: Sun 31 Mar 2999)\n")
        run("--done", "1", stdout: "Completed: Standup (repeats weekdays; next: Tue 3 Dec 2999 09:30)\n")
        run(
            "--list",
            stdout: """
                Get started - 2 to go!

                Top Priority (2)
                  1. [ ] Standup  (due 2999-12-03 09:30, ↻ weekdays)
                  2. [ ] Pay rent  (due 2999-03-31, ↻ monthly)
                Bonus (0)
                  (none)

                """)
        let json = try #require(runHotTask(["--file", folder.storePath, "--list", "--json"], environment: berlin).stdout as String?)
        #expect(json.contains(#""repeat": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR""#) && json.contains(#""repeat": "FREQ=MONTHLY""#))
        run("--undo", stdout: "Undone: Completed: Standup (repeats weekdays; next: Tue 3 Dec 2999 09:30)\n")
        run("--edit", "2", "--repeat", "every 2 weeks", stdout: "Repeats every 2 weeks: Pay rent (due 2999-03-31)\n")
        run("--edit", "2", "--repeat", "none", stdout: "Repeats no more: Pay rent\n")
        run("--done", "2", stdout: "Completed: Pay rent\n")
        run(
            "--list",
            stdout: """
                1 down 1 to go!

                Top Priority (2)
                  1. [ ] Standup  (due 2999-12-02 09:30, ↻ weekdays)
                  2. [x] Pay rent  (due 2999-03-31)
                Bonus (0)
                  (none)

                """)
    }

    @Test func waterPlantsEverySundayIsDueThisSundayAndThenTheNext() throws {
        // The days depend on today: the rule's, as the same code reads them now.
        let zone = try #require(ZoneInfo(identifier: "Europe/Berlin"))
        let dates = DueDisplay(now: Date(), local: zone)
        let rule = try #require(RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=SU"))
        let first = try #require(rule.first(onOrAfter: DueDate.localDay(of: Date(), in: zone)))
        let next = try #require(rule.next(after: first)).due
        run("--add", "Water plants", "--repeat", "every sun", stdout: "Added to Top Priority: Water plants (due \(dates.text(first)), every Sun)\n")
        run("--done", "1", stdout: "Completed: Water plants (repeats every Sun; next: \(dates.occurrenceText(next)))\n")
        run(
            "--list", "--json",
            stdout: """
                {
                  "version": 2,
                  "tasks": [
                    {
                      "id": "[..]",
                      "caption": "Water plants",
                      "section": "priority",
                      "completed": false,
                      "createdAt": "[..]",
                      "completedAt": null,
                      "modifiedAt": "[..]",
                      "due": "\(next.dayText)",
                      "repeat": "FREQ=WEEKLY;BYDAY=SU"
                    }
                  ]
                }

                """)
    }

    @Test func aBadRuleExits64AndChangesNothing() throws {
        run("--add", "Pay rent", "--quiet")
        let before = try #require(fileBytes(folder.storePath))
        for bad in ["fortnightly", "every 0 days", "FREQ=MONTHLY;BYMONTHDAY=15"] {
            run(
                "--edit", "1", "--repeat", bad, stderr: "hottask: --repeat: “\(bad)” is not a repeat rule; use \(RepeatInput.forms)\n",
                status: 64)
        }
        run("--done", "1", "--repeat", "daily", stderr: "hottask: --repeat goes with --add or --edit.\n", status: 64)
        #expect(try #require(fileBytes(folder.storePath)) == before)
    }
}
