import Foundation
import TestSupport
import Testing

/// Issue 54: subtasks on the command line. `--add --under` makes one after its parent's
/// family, `--edit --under` moves a task (with its own) under another or back to the top;
/// `--done` and `--delete` take a task's subtasks with it, and one `--undo` takes all back.
@Suite("subtasks on the command line")
struct SubtasksCommandLineTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }

    private func hottask(_ args: String...) -> [String] { ["--file", store] + args }

    /// Every file of the store's folder but the lock, for "nothing was changed".
    private func files() -> [[UInt8]?] { folder.contents().filter { !$0.hasSuffix(".lock") }.map { fileBytes(folder.path($0)) } }

    /// Buy milk; Plan the trip with Book flights and Pack, and Passport under Pack.
    private func seed() {
        expectRun(hottask("--quiet", "--add", "Plan the trip"))
        expectRun(hottask("--quiet", "--add", "Buy milk"))
        expectRun(
            hottask("--add", "Book flights", "--add", "Pack", "--under", "2"),
            stdout: "Added to Top Priority, under 'Plan the trip': Book flights\nAdded to Top Priority, under 'Plan the trip': Pack\n")
        expectRun(hottask("--add", "Passport", "--under", "4"), stdout: "Added to Top Priority, under 'Pack': Passport\n")
    }

    private static let seeded = """
        Get started - 5 to go!

        Top Priority (5)
          1. [ ] Buy milk
          2. [ ] Plan the trip
          3.   [ ] Book flights
          4.   [ ] Pack
          5.     [ ] Passport
        Bonus (0)
          (none)

        """

    @Test func aSubtaskIsListedRightAfterItsParentIndented() throws {
        seed()
        expectRun(hottask("--list"), stdout: Self.seeded)
        // --list --json carries each subtask's parent by id; a top-level task has none.
        let json = runHotTask(hottask("--list", "--json")).stdout
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])["tasks"] as? [[String: Any]]
        let captions = Dictionary(uniqueKeysWithValues: (tasks ?? []).map { ($0["id"] as? String ?? "", $0["caption"] as? String ?? "") })
        let parents = (tasks ?? []).map { "\($0["caption"] as? String ?? ""): \(($0["parent"] as? String).map { captions[$0] ?? "?" } ?? "-")" }
        #expect(parents == ["Buy milk: -", "Plan the trip: -", "Book flights: Plan the trip", "Pack: Plan the trip", "Passport: Pack"])
    }

    @Test func doneCompletesTheOpenSubtasksAndOneUndoReopensThemAll() {
        seed()
        expectRun(hottask("--done", "3"), stdout: "Completed: Book flights\n")
        expectRun(hottask("--done", "2"), stdout: "Completed: Plan the trip (and its 2 open subtasks)\n")
        expectRun(
            hottask("--list"),
            stdout: """
                4 down 1 to go!

                Top Priority (5)
                  1. [ ] Buy milk
                  2. [x] Plan the trip
                  3.   [x] Book flights
                  4.   [x] Pack
                  5.     [x] Passport
                Bonus (0)
                  (none)

                """)
        expectRun(hottask("--quiet", "--undo"))
        expectRun(
            hottask("--list", "--open"),
            stdout: """
                1 down 4 to go!

                Top Priority (4 of 5)
                  1. [ ] Buy milk
                  2. [ ] Plan the trip
                  4.   [ ] Pack
                  5.     [ ] Passport
                Bonus (0)
                  (none)

                """)
    }

    @Test func completingTheLastSubtaskLeavesTheParentOpen() {
        seed()
        expectRun(hottask("--quiet", "--done", "3", "--done", "4"))
        expectRun(
            hottask("--list", "--open"),
            stdout: """
                3 down 2 to go!

                Top Priority (2 of 5)
                  1. [ ] Buy milk
                  2. [ ] Plan the trip
                Bonus (0)
                  (none)

                """)
    }

    @Test func deleteDeletesTheSubtasksAndOneUndoBringsThemBack() {
        seed()
        expectRun(hottask("--delete", "2"), stdout: "Deleted: Plan the trip (and its 3 subtasks)\n")
        expectRun(hottask("--list"), stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Buy milk\nBonus (0)\n  (none)\n")
        expectRun(hottask("--quiet", "--undo"))
        expectRun(hottask("--list"), stdout: Self.seeded)
    }

    @Test func editUnderMovesTheTaskWithItsSubtasksAndNoneMakesItTopLevel() {
        seed()
        expectRun(hottask("--edit", "4", "--under", "none"), stdout: "Made top-level: Pack\n")
        expectRun(
            hottask("--list"),
            stdout: """
                Get started - 5 to go!

                Top Priority (5)
                  1. [ ] Buy milk
                  2. [ ] Plan the trip
                  3.   [ ] Book flights
                  4. [ ] Pack
                  5.   [ ] Passport
                Bonus (0)
                  (none)

                """)
        expectRun(hottask("--edit", "4", "--under", "1"), stdout: "Moved under 'Buy milk': Pack\n")
        expectRun(hottask("--edit", "4", "--under", "1"), stdout: "Moved under 'Buy milk': Plan the trip\n")
        expectRun(
            hottask("--list"),
            stdout: """
                Get started - 5 to go!

                Top Priority (5)
                  1. [ ] Buy milk
                  2.   [ ] Pack
                  3.     [ ] Passport
                  4.   [ ] Plan the trip
                  5.     [ ] Book flights
                Bonus (0)
                  (none)

                """)
        expectRun(hottask("--edit", "4", "--under", "1"), stdout: "Already under 'Buy milk': Plan the trip\n")
        // The family moves to the other section whole.
        expectRun(hottask("--move", "1"), stdout: "Moved to Bonus: Buy milk (and its 4 subtasks)\n")
        expectRun(
            hottask("--list"),
            stdout: """
                Get started - 5 to go!

                Top Priority (0)
                  (none)
                Bonus (5)
                  1. [ ] Buy milk
                  2.   [ ] Pack
                  3.     [ ] Passport
                  4.   [ ] Plan the trip
                  5.     [ ] Book flights

                """)
    }

    @Test func aTaskPutUnderItselfOrItsOwnSubtaskIsRefusedAndNothingChanges() {
        seed()
        let before = files()
        expectRun(
            hottask("--edit", "2", "--under", "5"),
            stderr: "hottask: --under: 'Passport' is a subtask of 'Plan the trip'; name a task outside its family, or none to make it top-level\n",
            status: 1)
        expectRun(
            hottask("--edit", "2", "--under", "2"),
            stderr: "hottask: --under: 'Plan the trip' is the task itself; name a task outside its family, or none to make it top-level\n",
            status: 1)
        expectRun(
            hottask("--add", "Lost", "--under", "9"), stderr: "hottask: --under 9: there is no task 9: the numbers run from 1 to 5 (see --list)\n",
            status: 1)
        #expect(files() == before)
        expectRun(hottask("--list"), stdout: Self.seeded)
    }

    @Test func aRepeatingParentMovesOnWithItsSubtasksOpenAgain() {
        expectRun(hottask("--quiet", "--add", "Water plants", "--due", "2026-01-05", "--repeat", "every week"))
        expectRun(hottask("--quiet", "--add", "Kitchen", "--add", "Balcony", "--under", "1"))
        expectRun(hottask("--done", "2"), stdout: "Completed: Kitchen\n")
        expectRun(hottask("--done", "1"), stdout: "Completed: Water plants (repeats weekly; next: Mon 12 Jan; its 1 subtask open again)\n")
        expectRun(
            hottask("--list"),
            stdout: """
                Get started - 3 to go!

                Top Priority (3)
                  1. [ ] Water plants  (overdue: 2026-01-12, ↻ weekly)
                  2.   [ ] Kitchen
                  3.   [ ] Balcony
                Bonus (0)
                  (none)

                """)
    }

    @Test func sortingByDueSortsSiblingsAndNeverSplitsAFamily() {
        expectRun(hottask("--quiet", "--add", "Water plants", "--due", "2026-01-12"))
        expectRun(hottask("--quiet", "--add", "Tidy", "--due", "2026-01-09"))
        expectRun(hottask("--quiet", "--add", "Sweep", "--due", "2026-01-20", "--under", "1"))
        expectRun(hottask("--quiet", "--add", "Mop", "--due", "2026-01-02", "--under", "1"))
        expectRun(
            hottask("--list", "--sort", "due"),
            stdout: """
                Get started - 4 to go!

                Open tasks by due date (4)
                  1. [ ] Tidy  (overdue: 2026-01-09)
                  3.   [ ] Mop  (overdue: 2026-01-02)
                  2.   [ ] Sweep  (overdue: 2026-01-20)
                  4. [ ] Water plants  (overdue: 2026-01-12)

                """)
    }

    @Test(arguments: ["taskwarrior", "todotxt"])
    func aTaskwarriorOrTodoTxtExportGoesFlatSaysSoAndItsReimportKeepsTheFamily(_ format: String) {
        seed()
        let out = folder.path(format == "todotxt" ? "todo.txt" : "export.json")
        expectRun(
            hottask("--export", out, "--export-format", format), stdout: "Exported 5 tasks to \(out)\n",
            stderr: "hottask: note: left out, as this format cannot hold them: subtask relations of 3 tasks\n")
        expectRun(hottask("--quiet", "--import", out))
        expectRun(hottask("--list"), stdout: Self.seeded)
    }

    @Test func aSubtasksLineRemovedFromTodoTxtAfterAReimportDeletesIt() throws {
        seed()
        let out = folder.path("todo.txt")
        expectRun(
            hottask("--quiet", "--export", out, "--export-format", "todotxt"),
            stderr: "hottask: note: left out, as this format cannot hold them: subtask relations of 3 tasks\n")
        expectRun(hottask("--quiet", "--import", out))
        let lines = try #require(fileText(out)).split(separator: "\n")
        let kept = lines.filter { !$0.contains("Passport") }
        #expect(kept.count == 4)
        folder.write(kept.joined(separator: "\n") + "\n", to: "todo.txt")
        expectRun(
            hottask("--import", out), stdout: "Imported from todo.txt \(out): added 0, updated 0, unchanged 4, skipped 0, deleted 1\n",
            stderr:
                "hottask: note: deleted 1 task whose line was removed from \(out) since HotTask last read or wrote it: \"Passport\" (hottask --undo brings it back)\n"
        )
        let withoutPassport = Self.seeded.replacingOccurrences(of: "  5.     [ ] Passport\n", with: "")
        expectRun(
            hottask("--list"),
            stdout: withoutPassport.replacingOccurrences(of: "5 to go", with: "4 to go").replacingOccurrences(of: "(5)", with: "(4)"))
    }

    @Test func aSubtaskMovedAloneToTheOtherSectionOrListIsRefusedAndNothingChanges() {
        seed()
        expectRun(hottask("--quiet", "--new-list", "Work"))
        let before = files()
        expectRun(
            hottask("--move", "3"),
            stderr:
                "hottask: --move: 'Book flights' is a subtask of 'Plan the trip', and stays in its parent's section; --move the parent, or make it top-level first (--edit … --under none)\n",
            status: 1)
        expectRun(
            hottask("--edit", "5", "--in", "Work"),
            stderr:
                "hottask: --in: 'Passport' is a subtask of 'Pack', and stays in its parent's list; move the parent, or make it top-level first (--edit … --under none)\n",
            status: 1)
        #expect(files() == before)
        // Its parent moves it; made top-level, it goes by itself.
        expectRun(hottask("--quiet", "--edit", "5", "--under", "none"))
        expectRun(hottask("--edit", "5", "--in", "Work"), stdout: "Moved to the list 'Work': Passport\n")
    }

    @Test func underGoesWithAddOrEdit() {
        expectRun(hottask("--under", "1"), stderr: "hottask: --under goes with --add or --edit.\n", status: 64)
        expectRun(
            hottask("--add", "X", "--under", "1", "--in", "Work"),
            stderr: "hottask: --under and --in: a subtask goes in its parent's section and list; leave out --in.\n", status: 64)
    }
}
