import Foundation
import TestSupport
import Testing

/// Issue 53: a todo.txt file is one list. `--import FILE --in LIST` puts the file's new tasks in
/// LIST, and the file is followed there as it is anywhere: a line changed updates its task, a
/// line removed deletes it. The steps are a person's pace apart (1.1 s), as an editor saves.
@Suite("an import into one list")
struct ImportIntoListTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }
    private func hottask(_ args: String...) -> [String] { ["--file", store] + args }
    /// Every file of the store's folder but the lock, for "nothing was changed".
    private func files() -> [[UInt8]?] { folder.contents().filter { !$0.hasSuffix(".lock") }.map { fileBytes(folder.path($0)) } }
    private func personPause() { Thread.sleep(forTimeInterval: 1.1) }

    @Test func aTodoTxtFileIsFollowedAsOneList() {
        expectRun(hottask("--quiet", "--add", "Buy milk"))
        expectRun(hottask("--new-list", "Work"), stdout: "Made the list 'Work'\n")
        let file = folder.write("(A) Fix the build +ci\nWrite the report\nBook the room @office\n", to: "todo.txt")
        expectRun(hottask("--import", file, "--in", "work"), stdout: "Imported from todo.txt \(file): added 3, updated 0, unchanged 0, skipped 0\n")
        expectRun(
            hottask("--list", "--in", "Work"),
            stdout: """
                Get started - 3 to go!

                Top Priority (1 of 2)
                  2. [ ] Fix the build +ci
                Bonus (2)
                  3. [ ] Write the report
                  4. [ ] Book the room @office

                """)
        personPause()
        // Edited elsewhere: one line done (as todo.sh does it), one gone.
        folder.write("x 2026-11-29 Fix the build +ci\nWrite the report\n", to: "todo.txt")
        expectRun(
            hottask("--import", file, "--in", "Work"),
            stdout: "Imported from todo.txt \(file): added 0, updated 1, unchanged 1, skipped 0, deleted 1\n",
            stderr:
                "hottask: note: deleted 1 task whose line was removed from \(file) since HotTask last read or wrote it: \"Book the room\" (hottask --undo brings it back)\n"
        )
        expectRun(
            hottask("--list"),
            stdout: """
                1 down 2 to go!

                Top Priority (2)
                  1. [ ] Buy milk  [Tasks]
                  2. [x] Fix the build +ci  [Work]
                Bonus (1)
                  3. [ ] Write the report  [Work]

                """)
        personPause()
        // The same file once more, and the list's export read back: nothing doubles.
        expectRun(hottask("--import", file, "--in", "Work"), stdout: "Imported from todo.txt \(file): added 0, updated 0, unchanged 2, skipped 0\n")
        expectRun(hottask("--quiet", "--export", file, "--export-format", "todotxt", "--in", "Work"))
        personPause()
        expectRun(hottask("--import", file, "--in", "Work"), stdout: "Imported from todo.txt \(file): added 0, updated 0, unchanged 2, skipped 0\n")
        expectRun(hottask("--lists"), stdout: "Tasks  1 open, 0 done  (default)\nWork   1 open, 1 done\n")
    }

    @Test func aTaskThatIsHereAlreadyStaysInItsList() throws {
        expectRun(hottask("--new-list", "Work"), stdout: "Made the list 'Work'\n")
        expectRun(hottask("--quiet", "--add", "Call mum"))
        let file = folder.path("todo.txt")
        expectRun(hottask("--quiet", "--export", file, "--export-format", "todotxt"))
        personPause()
        // Changed there; the import changes the caption and never moves the task to Work.
        let text = try #require(fileText(file)).replacingOccurrences(of: "Call mum", with: "Call mum back")
        folder.write(text, to: "todo.txt")
        expectRun(hottask("--import", file, "--in", "Work"), stdout: "Imported from todo.txt \(file): added 0, updated 1, unchanged 0, skipped 0\n")
        expectRun(
            hottask("--list", "--in", "Tasks", "--open"),
            stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Call mum back\nBonus (0)\n  (none)\n")
        expectRun(hottask("--lists"), stdout: "Tasks  1 open, 0 done  (default)\nWork   0 open, 0 done\n")
    }

    @Test func aFolderOfListsGoesWholeIntoTheListNamed() throws {
        expectRun(hottask("--new-list", "Inbox"), stdout: "Made the list 'Inbox'\n")
        for (list, summary) in [("home", "Paint the fence"), ("errands", "Post the letter")] {
            try FileManager.default.createDirectory(atPath: folder.path("vdir/\(list)"), withIntermediateDirectories: true)
            folder.write("\(list.capitalized)\n", to: "vdir/\(list)/displayname")
            folder.write(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:\(list)-1\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                to: "vdir/\(list)/\(list)-1.ics")
        }
        let vdir = folder.path("vdir")
        expectRun(hottask("--import", vdir, "--in", "Inbox"), stdout: "Imported from iCalendar \(vdir): added 2, updated 0, unchanged 0, skipped 0\n")
        // No list made for the folders: --in said where the tasks go.
        expectRun(hottask("--lists"), stdout: "Tasks  0 open, 0 done  (default)\nInbox  2 open, 0 done\n")
    }

    @Test func aListThatIsNotThereOrAReplaceIsRefusedAndNothingChanges() {
        expectRun(hottask("--new-list", "Work"), stdout: "Made the list 'Work'\n")
        let file = folder.write("Fix the build\n", to: "todo.txt")
        let before = files()
        expectRun(
            hottask("--import", file, "--in", "Wrok"),
            stderr:
                "hottask: --in: there is no list named 'Wrok'; the lists are 'Tasks', 'Work'. Make it with --new-list Wrok. Nothing was changed\n",
            status: 1)
        expectRun(
            hottask("--import", file, "--replace", "--in", "Work"),
            stderr: "hottask: --in goes with --import, not with --replace: --replace sets every list's tasks from the file.\n", status: 64)
        expectRun(
            hottask("--import", file, "--add", "Other", "--in", "Work"),
            stderr: "hottask: --in goes with one of --add, --edit and --import: give them in separate commands.\n", status: 64)
        #expect(files() == before)
    }
}
