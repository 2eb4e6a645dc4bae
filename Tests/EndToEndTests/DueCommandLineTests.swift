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
        for form in ["today", "tomorrow", "mon", "SUN", "+3d", "+2w"] {
            let result = hottask("--add", "Form \(form)", "--due", form)
            #expect(result.status == 0, "\(form): \(result.stderr)")
        }
        let list = hottask("--list").stdout
        #expect(list.contains("Pay rent  (due 2999-12-01)"))
        #expect(list.contains("Call mum  (overdue: 2000-01-03)"))
        #expect(list.contains("Dentist  (due 2999-07-01 09:30)"))
        #expect(list.contains("Form today  (due today)"))
        #expect(list.contains("Form tomorrow  (due tomorrow)"))
        #expect(list.contains("No date\n"))
        let json = hottask("--list", "--json").stdout
        #expect(json.contains(#""due": "2999-12-01""#))
        #expect(json.contains(#""due": "2999-07-01T09:30:00+02:00",\#n      "dueZone": "Europe/Berlin""#))

        #expect(hottask("--list", "--overdue").stdout.contains("Top Priority (1 of 10)\n   9. [ ] Call mum  (overdue: 2000-01-03)\nBonus"))
        let byDue = hottask("--list", "--sort", "due").stdout.split(separator: "\n").map(String.init)
        #expect(byDue[1] == "Open tasks by due date (10)")
        #expect(byDue[2] == "   9. [ ] Call mum  (overdue: 2000-01-03)")
        #expect(byDue.suffix(3) == ["   8. [ ] Dentist  (due 2999-07-01 09:30)", "  10. [ ] Pay rent  (due 2999-12-01)", "   7. [ ] No date"])
    }

    @Test func editChangesOnlyTheDueDateAndNoneClearsItAndUndoTakesItBack() throws {
        #expect(hottask("--add", "Pay rent", "--due", "2999-12-01").status == 0)
        let edited = hottask("--edit", "1", "--due", "2999-12-24")
        #expect(edited.status == 0)
        #expect(edited.stdout == "Due 2999-12-24: Pay rent\n")
        #expect(hottask("--list").stdout.contains("1. [ ] Pay rent  (due 2999-12-24)"))
        #expect(hottask("--edit", "1", "--due", "none").stdout == "Due date cleared: Pay rent\n")
        #expect(hottask("--list").stdout.contains("1. [ ] Pay rent\n"))
        #expect(hottask("--undo").status == 0)
        #expect(hottask("--list").stdout.contains("1. [ ] Pay rent  (due 2999-12-24)"))
        // A caption and a due date in one edit.
        #expect(hottask("--edit", "1", "Pay the rent", "--due", "2999-12-31").status == 0)
        #expect(hottask("--list").stdout.contains("1. [ ] Pay the rent  (due 2999-12-31)"))
    }

    @Test func aBadFormExits64QuotingItAndChangesNothing() throws {
        #expect(hottask("--add", "Pay rent", "--due", "2999-12-01").status == 0)
        let before = try #require(fileBytes(folder.storePath))
        for bad in ["next week", "2026-02-29", "2026-03-29T02:30", "+1m", "monday"] {
            let added = hottask("--add", "Other", "--due", bad)
            #expect(added.status == 64)
            #expect(added.stderr.contains("--due: “\(bad)” is not a due date"))
            #expect(added.stderr.contains("YYYY-MM-DD, YYYY-MM-DDTHH:MM (local time), today, tomorrow, mon–sun, +Nd, +Nw, or none"))
            #expect(hottask("--edit", "1", "--due", bad).status == 64)
        }
        #expect(try #require(fileBytes(folder.storePath)) == before)
        #expect(hottask("--list").stdout.contains("Top Priority (1)"))
        #expect(hottask("--due", "today").status == 64)
        #expect(hottask("--overdue").status == 64)
        #expect(hottask("--list", "--sort", "soon").status == 64)
    }
}
