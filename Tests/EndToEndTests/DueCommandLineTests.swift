import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// `--due`, `--list --overdue` and `--list --sort due` through the real binary.
@Suite("Due dates on the command line")
struct DueCommandLineTests {
    let folder = TemporaryFolder()

    private func hottask(_ args: String..., sourceLocation: SourceLocation = #_sourceLocation) -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(["--file", folder.storePath] + args, environment: ["TZ": "Europe/Berlin"], sourceLocation: sourceLocation)
    }

    @Test func everyFormSetsADueDateThatListsAndJSONShow() throws {
        #expect(hottask("--add", "Pay rent", "--due", "2999-12-01").status == 0)
        #expect(hottask("--add", "Call mum", "--due", "2000-01-03").status == 0)
        #expect(hottask("--add", "Dentist", "--due", "2999-07-01T09:30").status == 0)
        #expect(hottask("--add", "No date").status == 0)
        // The weekday and +N forms name days that depend on today: [..].
        let berlin = ["TZ": "Europe/Berlin"]
        expectRun(
            ["--file", folder.storePath, "--add", "Form today", "--due", "today"], environment: berlin,
            stdout: "Added to Top Priority: Form today (due today)\n")
        expectRun(
            ["--file", folder.storePath, "--add", "Form tomorrow", "--due", "tomorrow"], environment: berlin,
            stdout: "Added to Top Priority: Form tomorrow (due tomorrow)\n")
        for form in ["mon", "SUN", "+3d", "+2w"] {
            expectRun(
                ["--file", folder.storePath, "--add", "Form \(form)", "--due", form], environment: berlin,
                stdout: "Added to Top Priority: Form \(form) (due [..])\n")
        }
        expectRun(
            ["--file", folder.storePath, "--list"], environment: berlin,
            stdout: """
                Get started - 10 to go!

                Top Priority (10)
                   1. [ ] Form +2w  (due [..])
                   2. [ ] Form +3d  (due [..])
                   3. [ ] Form SUN  (due [..])
                   4. [ ] Form mon  (due [..])
                   5. [ ] Form tomorrow  (due tomorrow)
                   6. [ ] Form today  (due today)
                   7. [ ] No date
                   8. [ ] Dentist  (due 2999-07-01 09:30)
                   9. [ ] Call mum  (overdue: 2000-01-03)
                  10. [ ] Pay rent  (due 2999-12-01)
                Bonus (0)
                  (none)

                """)
        // A day, and a time in the zone it was given in.
        for (filter, due) in [
            ("Pay rent", #""due": "2999-12-01""#), ("Dentist", #""due": "2999-07-01T09:30:00+02:00",\#n      "dueZone": "Europe/Berlin""#),
        ] {
            expectRun(
                ["--file", folder.storePath, "--list", "--filter", filter, "--json"], environment: berlin,
                stdout: """
                    {
                      "version": 2,
                      "tasks": [
                        {
                          "id": "[..]",
                          "caption": "\(filter)",
                          "section": "priority",
                          "completed": false,
                          "createdAt": "[..]",
                          "completedAt": null,
                          "modifiedAt": "[..]",
                          \(due)
                        }
                      ]
                    }

                    """)
        }
        expectRun(
            ["--file", folder.storePath, "--list", "--overdue"], environment: berlin,
            stdout: "Get started - 10 to go!\n\nTop Priority (1 of 10)\n   9. [ ] Call mum  (overdue: 2000-01-03)\nBonus (0)\n  (none)\n")
        // Overdue first, undated last; the relative ones between, in an order that depends on today.
        expectRun(
            ["--file", folder.storePath, "--list", "--sort", "due"], environment: berlin,
            stdout: """
                Get started - 10 to go!

                Open tasks by due date (10)
                   9. [ ] Call mum  (overdue: 2000-01-03)
                ...
                   8. [ ] Dentist  (due 2999-07-01 09:30)
                  10. [ ] Pay rent  (due 2999-12-01)
                   7. [ ] No date

                """)
    }

    @Test func sortingByDuePutsATimeThatWentOverdueTodayBeforeTodaysAllDayTasks() {
        let berlin = ["TZ": "Europe/Berlin"]
        #expect(hottask("--add", "All day", "--due", "today").status == 0)
        #expect(hottask("--add", "At midnight", "--due", "0:00").status == 0)
        #expect(hottask("--add", "Yesterday", "--due", "in 0 days").status == 0)
        #expect(hottask("--edit", "1", "--due", "2000-01-01").status == 0)
        expectRun(
            ["--file", folder.storePath, "--list", "--sort", "due"], environment: berlin,
            stdout: """
                Get started - 3 to go!

                Open tasks by due date (3)
                  1. [ ] Yesterday  (overdue: 2000-01-01)
                  2. [ ] At midnight  (overdue: today 00:00)
                  3. [ ] All day  (due today)

                """)
    }

    @Test func editChangesOnlyTheDueDateAndNoneClearsItAndUndoTakesItBack() throws {
        #expect(hottask("--add", "Pay rent", "--due", "2999-12-01").status == 0)
        expectRun(
            ["--file", folder.storePath, "--edit", "1", "--due", "2999-12-24"], environment: ["TZ": "Europe/Berlin"],
            stdout: "Due 2999-12-24: Pay rent\n")
        /// The whole list, of one task.
        func expectList(_ task: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectRun(
                ["--file", folder.storePath, "--list"], environment: ["TZ": "Europe/Berlin"],
                stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] \(task)\nBonus (0)\n  (none)\n", sourceLocation: sourceLocation)
        }
        expectList("Pay rent  (due 2999-12-24)")
        #expect(hottask("--edit", "1", "--due", "none").stdout == "Due date cleared: Pay rent\n")
        expectList("Pay rent")
        #expect(hottask("--undo").status == 0)
        expectList("Pay rent  (due 2999-12-24)")
        // A caption and a due date in one edit.
        #expect(hottask("--edit", "1", "Pay the rent", "--due", "2999-12-31").status == 0)
        expectList("Pay the rent  (due 2999-12-31)")
    }

    @Test func datesAsPeopleSayThemSetTheDayTheyName() throws {
        let berlin = ["TZ": "Europe/Berlin"]
        // Forms that name a fixed day, whole outputs.
        for (form, shown) in [
            ("1 dec 2999", "2999-12-01"), ("December 24 2999", "2999-12-24"), ("2999-12-01 14:00", "2999-12-01 14:00"),
            ("dec 31 2999 9:30", "2999-12-31 09:30"),
        ] {
            expectRun(
                ["--file", folder.storePath, "--add", "Form \(form)", "--due", form], environment: berlin,
                stdout: "Added to Top Priority: Form \(form) (due \(shown))\n")
        }
        expectRun(
            ["--file", folder.storePath, "--list", "--filter", "14:00", "--json"], environment: berlin,
            stdout: """
                {
                  "version": 2,
                  "tasks": [
                    {
                      "id": "[..]",
                      "caption": "Form 2999-12-01 14:00",
                      "section": "priority",
                      "completed": false,
                      "createdAt": "[..]",
                      "completedAt": null,
                      "modifiedAt": "[..]",
                      "due": "2999-12-01T14:00:00+01:00",
                      "dueZone": "Europe/Berlin"
                    }
                  ]
                }

                """)
        // Forms that count from today: the day the same parser reads as of now, as the command
        // says it and as --json carries it.
        let zone = try #require(ZoneInfo(identifier: "Europe/Berlin"))
        for form in ["friday", "next fri", "eow", "eom", "eoy", "in 3 days", "in 2 weeks", "3d", "2w", "dec 1", "1 dec", "tomorrow 9:00"] {
            guard case .success(.set(let due)) = DueInput.parse(form, now: Date(), local: zone) else {
                Issue.record("\(form) does not read")
                continue
            }
            expectRun(
                ["--file", folder.storePath, "--add", "Said \(form)", "--due", form], environment: berlin,
                stdout: "Added to Top Priority: Said \(form) (due \(DueDisplay(now: Date(), local: zone).text(due)))\n")
            let json = hottask("--list", "--filter", "Said \(form)", "--json").stdout
            #expect(json.contains(#""due": "\#(due.text(local: zone))""#), "\(form): \(json)")
        }
    }

    @Test func aBadFormExits64QuotingItAndChangesNothing() throws {
        #expect(hottask("--add", "Pay rent", "--due", "2999-12-01").status == 0)
        let before = try #require(fileBytes(folder.storePath))
        let forms = "use " + DueInput.forms + "\n"
        for (bad, why) in [
            ("next week", ""), ("2026-02-29", " (there is no such day)"), ("2026-03-29T02:30", " (the clocks skip that time in Europe/Berlin)"),
            ("+1m", ""), ("mondays", ""), ("tomorrow 25:00", " (there is no such time)"), ("feb 30", " (there is no such day)"),
        ] {
            for args in [["--add", "Other", "--due", bad], ["--edit", "1", "--due", bad]] {
                expectRun(
                    ["--file", folder.storePath] + args, environment: ["TZ": "Europe/Berlin"],
                    stderr: "hottask: --due: “\(bad)” is not a due date\(why); " + forms, status: 64)
            }
        }
        #expect(try #require(fileBytes(folder.storePath)) == before)
        expectRun(
            ["--file", folder.storePath, "--list"],
            stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Pay rent  (due 2999-12-01)\nBonus (0)\n  (none)\n")
        #expect(hottask("--due", "today").status == 64)
        #expect(hottask("--overdue").status == 64)
        #expect(hottask("--list", "--sort", "soon").status == 64)
    }

    /// `--add A --due fri --add B --due mon` once gave both tasks Monday: a value for every task
    /// given twice is refused, and nothing changes.
    @Test func aValueForEveryTaskGivenTwiceIsRefusedAndChangesNothing() throws {
        #expect(hottask("--add", "Trip").status == 0)
        let before = try #require(fileBytes(folder.storePath))
        for (flag, first, second) in [
            ("--due", "fri", "mon"), ("--repeat", "daily", "weekly"), ("--note", "a", "b"), ("--in", "Tasks", "Tasks"),
            ("--under", "1", "1"),
        ] {
            expectRun(
                ["--file", folder.storePath, "--add", "A", flag, first, "--add", "B", flag, second],
                stderr: "hottask: \(flag) is given 2 times, and it takes one value, for every task the command adds or edits: "
                    + "give it once (tasks that need different values take a command each).\n",
                status: 64)
        }
        #expect(try #require(fileBytes(folder.storePath)) == before)
    }
}
