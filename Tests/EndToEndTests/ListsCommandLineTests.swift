import Foundation
import TestSupport
import Testing

/// Issue 53: several lists on the command line. A list is made, renamed and deleted in one
/// record each (one `--undo` takes it back whole); `--in` names a list that exists, and a typo
/// never makes one.
@Suite("lists on the command line")
struct ListsCommandLineTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }

    private func hottask(_ args: String...) -> [String] { hottask(args) }
    private func hottask(_ args: [String]) -> [String] { ["--file", store] + args }

    /// Every file of the store's folder but the lock, for "nothing was changed".
    private func files() -> [[UInt8]?] { folder.contents().filter { !$0.hasSuffix(".lock") }.map { fileBytes(folder.path($0)) } }

    /// Two tasks in the default list (Tasks), one in Work.
    private func seed() {
        expectRun(hottask("--quiet", "--add", "Buy milk", "--add", "Call mum"))
        expectRun(hottask("--new-list", "Work"), stdout: "Made the list 'Work'\n")
        expectRun(hottask("--add", "Fix the build", "--in", "work"), stdout: "Added to Top Priority of 'Work': Fix the build\n")
    }

    @Test func listsAreMadeAndShownEachWithItsCounts() {
        expectRun(hottask("--lists"), stdout: "Tasks  0 open, 0 done  (default)\n")
        seed()
        expectRun(hottask("--lists"), stdout: "Tasks  2 open, 0 done  (default)\nWork   1 open, 0 done\n")
        expectRun(
            hottask("--lists", "--json"),
            stdout: """
                [{"name": "Tasks", "open": 2, "done": 0, "default": true},
                 {"name": "Work", "open": 1, "done": 0, "default": false}]

                """)
        expectRun(
            hottask("--list"),
            stdout: """
                Get started - 3 to go!

                Top Priority (3)
                  1. [ ] Fix the build  [Work]
                  2. [ ] Buy milk  [Tasks]
                  3. [ ] Call mum  [Tasks]
                Bonus (0)
                  (none)

                """)
    }

    @Test func inShowsOneListNumberedAsTheWholeListAndItsOwnProgress() {
        seed()
        expectRun(hottask("--quiet", "--done", "1"))
        expectRun(
            hottask("--list", "--in", "Tasks"),
            stdout: """
                Get started - 2 to go!

                Top Priority (2 of 3)
                  2. [ ] Buy milk
                  3. [ ] Call mum
                Bonus (0)
                  (none)

                """)
        expectRun(
            hottask("--list", "--in", "WORK"),
            stdout: """
                Well done - 1 completed!

                Top Priority (1 of 3)
                  1. [x] Fix the build
                Bonus (0)
                  (none)

                """)
        // The number shown is the one --done takes.
        expectRun(hottask("--done", "3"), stdout: "Completed: Call mum\n")
        expectRun(
            hottask("--list", "--filter", "list:tasks", "--open"),
            stdout: """
                2 down 1 to go!

                Top Priority (1 of 3)
                  2. [ ] Buy milk  [Tasks]
                Bonus (0)
                  (none)

                """)
    }

    @Test func aTypoNeverMakesAList() {
        seed()
        let before = files()
        let refusal =
            "hottask: --in: there is no list named 'Wrok'; the lists are 'Tasks', 'Work'. Make it with --new-list Wrok. Nothing was changed\n"
        expectRun(hottask("--add", "Lost", "--in", "Wrok"), stderr: refusal, status: 1)
        expectRun(hottask("--edit", "2", "--in", "Wrok"), stderr: refusal, status: 1)
        expectRun(hottask("--list", "--in", "Wrok"), stderr: refusal, status: 1)
        expectRun(
            hottask("--new-list", "work"), stderr: "hottask: --new-list: there is a list named 'Work' already; nothing was changed\n", status: 1)
        expectRun(hottask("--new-list", "  "), stderr: "hottask: --new-list: a list's name cannot be empty; nothing was changed\n", status: 1)
        expectRun(hottask("--in", "Work"), stderr: "hottask: --in goes with --add, --edit, --import, --list, --stats or --export.\n", status: 64)
        #expect(files() == before)
    }

    @Test func editInMovesATaskAndUndoMovesItBack() {
        seed()
        expectRun(hottask("--edit", "2", "--in", "Work"), stdout: "Moved to the list 'Work': Buy milk\n")
        expectRun(hottask("--edit", "2", "--in", "Work"), stdout: "Already in the list 'Work': Buy milk\n")
        expectRun(hottask("--lists"), stdout: "Tasks  1 open, 0 done  (default)\nWork   2 open, 0 done\n")
        expectRun(hottask("--undo"), stdout: "Undone: Moved to the list 'Work': Buy milk\n")
        expectRun(hottask("--lists"), stdout: "Tasks  2 open, 0 done  (default)\nWork   1 open, 0 done\n")
    }

    @Test func renameTakesTheTasksAlongAndOneUndoTakesItBack() {
        seed()
        expectRun(hottask("--rename-list", "work", "Office"), stdout: "Renamed the list 'Work' to 'Office'\n")
        expectRun(hottask("--lists"), stdout: "Tasks   2 open, 0 done  (default)\nOffice  1 open, 0 done\n")
        expectRun(hottask("--rename-list", "Tasks", "Home"), stdout: "Renamed the list 'Tasks' to 'Home'\n")
        expectRun(hottask("--add", "Water the plants"), stdout: "Added to Top Priority: Water the plants\n")
        expectRun(hottask("--lists"), stdout: "Home    3 open, 0 done  (default)\nOffice  1 open, 0 done\n")
        expectRun(
            hottask("--rename-list", "Home", "office"),
            stderr: "hottask: --rename-list: there is a list named 'Office' already; nothing was changed\n",
            status: 1)
        expectRun(hottask("--quiet", "--undo"))
        expectRun(hottask("--undo"), stdout: "Undone: Renamed the list 'Tasks' to 'Home'\n")
        expectRun(hottask("--undo"), stdout: "Undone: Renamed the list 'Work' to 'Office'\n")
        expectRun(hottask("--lists"), stdout: "Tasks  2 open, 0 done  (default)\nWork   1 open, 0 done\n")
    }

    @Test func deleteIsRefusedWhileTheListHoldsTasksUnlessToldWhatBecomesOfThem() {
        seed()
        let before = files()
        expectRun(
            hottask("--delete-list", "Work"),
            stderr:
                "hottask: --delete-list: 'Work' holds 1 task; add --move-to LIST to keep them in another list, or --with-tasks to delete them too. Nothing was changed\n",
            status: 1)
        expectRun(
            hottask("--delete-list", "Tasks"),
            stderr:
                "hottask: --delete-list: 'Tasks' is the default list, where new tasks go, and cannot be deleted; rename it with --rename-list. Nothing was changed\n",
            status: 1)
        #expect(files() == before)
        expectRun(hottask("--delete-list", "Work", "--with-tasks"), stdout: "Deleted the list 'Work'; deleted its 1 task\n")
        expectRun(hottask("--lists"), stdout: "Tasks  2 open, 0 done  (default)\n")
        expectRun(hottask("--undo"), stdout: "Undone: Deleted the list 'Work'; deleted its 1 task\n")
        expectRun(hottask("--lists"), stdout: "Tasks  2 open, 0 done  (default)\nWork   1 open, 0 done\n")
        expectRun(hottask("--delete-list", "Work", "--move-to", "tasks"), stdout: "Deleted the list 'Work'; moved 1 task to 'Tasks'\n")
        expectRun(hottask("--lists"), stdout: "Tasks  3 open, 0 done  (default)\n")
        expectRun(hottask("--new-list", "Empty"), stdout: "Made the list 'Empty'\n")
        expectRun(hottask("--delete-list", "Empty"), stdout: "Deleted the list 'Empty'\n")
    }

    @Test func jsonAndExportsNameEachTasksListOnceThereAreSeveral() {
        expectRun(hottask("--quiet", "--add", "Only"))
        let single = runHotTask(hottask("--list", "--json"))
        #expect(single.status == 0 && single.stdout.contains("\"caption\": \"Only\"") && !single.stdout.contains("\"list\""))
        seed()
        let json = runHotTask(hottask("--list", "--json", "--in", "Work"))
        #expect(json.status == 0 && json.stdout.components(separatedBy: "\"list\": \"Work\"").count == 2)
        #expect(!json.stdout.contains("Buy milk"))
        let all = runHotTask(hottask("--export", "-"))
        #expect(all.status == 0 && all.stdout.components(separatedBy: "\"list\": \"Tasks\"").count == 4)
        #expect(all.stdout.components(separatedBy: "\"list\": \"Work\"").count == 2)
    }

    @Test func theFilterWordFindsANameWithUnderscoresOrSpaces() {
        expectRun(hottask("--quiet", "--new-list", "big_box"))
        expectRun(hottask("--quiet", "--new-list", "Errands and shopping"))
        expectRun(hottask("--quiet", "--add", "Pack", "--in", "big_box"))
        expectRun(hottask("--quiet", "--add", "Bread", "--in", "errands and shopping"))
        expectRun(hottask("--quiet", "--add", "Elsewhere"))
        for (word, shown) in [("list:big_box", "  3. [ ] Pack  [big_box]"), ("list:errands_and_shopping", "  2. [ ] Bread  [Errands and shopping]")] {
            expectRun(
                hottask("--list", "--filter", word),
                stdout: """
                    Get started - 3 to go!

                    Top Priority (1 of 3)
                    \(shown)
                    Bonus (0)
                      (none)

                    """)
        }
    }

    @Test func aListFlagGivenTwiceIsRefusedAndChangesNothing() {
        seed()
        let before = files()
        for args in [
            ["--new-list", "Home", "--new-list", "Garden"], ["--delete-list", "Work", "--delete-list", "Tasks"],
            ["--delete-list", "Work", "--move-to", "Tasks", "--move-to", "Work"],
        ] {
            let flag = args.count == 4 ? args[0] : "--move-to"
            expectRun(
                hottask(args),
                stderr: "hottask: \(flag) is given 2 times, and it takes one list: give it once (each list takes a command of its own).\n",
                status: 64)
        }
        #expect(files() == before)
        expectRun(hottask("--lists"), stdout: "Tasks  2 open, 0 done  (default)\nWork   1 open, 0 done\n")
    }
}
