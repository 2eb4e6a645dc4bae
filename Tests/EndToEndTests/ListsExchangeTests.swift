import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 53, formats: a vdir of a store of several lists is one sub-folder per list with its
/// `displayname` (as todoman and vdirsyncer lay out calendars), and its import makes the lists;
/// an .ics file is one list, named by X-WR-CALNAME.
@Suite("lists in vdir folders and .ics files")
struct ListsExchangeTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }
    private var other: String { folder.path("other.json") }

    private func hottask(_ args: String...) -> [String] { ["--file", store] + args }
    private func hottaskOther(_ args: String...) -> [String] { ["--file", other] + args }

    /// Tasks (2), Work (1), Home/Garden (1, done) and an empty Someday.
    private func seed() {
        expectRun(hottask("--quiet", "--add", "Buy milk", "--add", "Call mum"))
        expectRun(hottask("--done", "2"), stdout: "Completed: Call mum\n")
        for name in ["Work", "Home/Garden", "Someday"] { expectRun(hottask("--quiet", "--new-list", name)) }
        expectRun(hottask("--quiet", "--add", "Fix the build", "--in", "Work"))
        expectRun(hottask("--quiet", "--add", "Mow the lawn", "--in", "Home/Garden"))
    }

    /// Each sub-folder with its `displayname` and how many `.ics` files it holds.
    private func layout(_ path: String) -> String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        return names.map { name in
            let sub = path + "/" + name
            guard let inside = try? FileManager.default.contentsOfDirectory(atPath: sub) else { return "\(name) (a file)\n" }
            let shown = fileText(sub + "/displayname").map { "\"\($0)\"" } ?? "none"
            return "\(name): displayname \(shown), \(inside.filter { $0.hasSuffix(".ics") }.count) .ics\n"
        }.joined()
    }

    @Test func aVdirExportOfSeveralListsIsAFolderPerListNamedByItsDisplayname() {
        seed()
        let out = folder.path("calendars")
        expectRun(
            hottask("--export", out, "--export-format", "vdir"),
            stdout: """
                Exported 2 tasks of 'Tasks' to the folder \(out)/Tasks: 2 files added, 0 changed, 0 unchanged
                Exported 1 tasks of 'Work' to the folder \(out)/Work: 1 files added, 0 changed, 0 unchanged
                Exported 1 tasks of 'Home/Garden' to the folder \(out)/Home_Garden: 1 files added, 0 changed, 0 unchanged
                Exported 0 tasks of 'Someday' to the folder \(out)/Someday: 0 files added, 0 changed, 0 unchanged

                """)
        // A `/` cannot be in a folder's name: the displayname keeps the list's.
        let expected = """
            Home_Garden: displayname "Home/Garden", 1 .ics
            Someday: displayname "Someday", 0 .ics
            Tasks: displayname "Tasks", 2 .ics
            Work: displayname "Work", 1 .ics

            """
        #expect(layout(out) == expected)
        // Again: each list finds its folder by its displayname, and nothing is written.
        let before = folder.contents().map { fileBytes(folder.path($0)) }
        expectRun(
            hottask("--export", out, "--export-format", "vdir"),
            stdout: """
                Exported 2 tasks of 'Tasks' to the folder \(out)/Tasks: 0 files added, 0 changed, 2 unchanged
                Exported 1 tasks of 'Work' to the folder \(out)/Work: 0 files added, 0 changed, 1 unchanged
                Exported 1 tasks of 'Home/Garden' to the folder \(out)/Home_Garden: 0 files added, 0 changed, 1 unchanged
                Exported 0 tasks of 'Someday' to the folder \(out)/Someday: 0 files added, 0 changed, 0 unchanged

                """)
        #expect(folder.contents().map { fileBytes(folder.path($0)) } == before)
        // One list (--in) is flat, as a one-list store's.
        let work = folder.path("work")
        expectRun(
            hottask("--export", work, "--export-format", "vdir", "--in", "work"),
            stdout: "Exported 1 tasks to the folder \(work): 1 files added, 0 changed, 0 unchanged\n")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: work)) ?? []
        #expect(files.count == 1 && files[0].hasSuffix(".ics"), "\(files)")
    }

    @Test func aListRenamedHereKeepsItsFolderAndAHiddenLookingNameGetsAVisibleOne() {
        seed()
        let out = folder.path("calendars")
        expectRun(hottask("--quiet", "--export", out, "--export-format", "vdir"))
        expectRun(hottask("--quiet", "--new-list", ".dotted"))
        expectRun(hottask("--quiet", "--new-list", "work:old"))
        expectRun(hottask("--quiet", "--rename-list", "Someday", "Later"))
        expectRun(hottask("--quiet", "--export", out, "--export-format", "vdir"))
        // Later is a new folder (Someday's displayname names no list now, and is left as it was).
        let expected = """
            Home_Garden: displayname "Home/Garden", 1 .ics
            Later: displayname "Later", 0 .ics
            Someday: displayname "Someday", 0 .ics
            Tasks: displayname "Tasks", 2 .ics
            Work: displayname "Work", 1 .ics
            _dotted: displayname ".dotted", 0 .ics
            work_old: displayname "work:old", 0 .ics

            """
        #expect(layout(out) == expected)
    }

    @Test func aVdirOfSeveralListsRoundTripsItsListsAndCounts() {
        seed()
        let out = folder.path("calendars")
        expectRun(hottask("--quiet", "--export", out, "--export-format", "vdir"))
        expectRun(
            hottaskOther("--import", out),
            stdout: "Imported from iCalendar \(out): added 4, updated 0, unchanged 0, skipped 0; made the lists 'Home/Garden', 'Someday', 'Work'\n")
        // The same lists and counts; made in the folders' order (a vdir has no order of calendars).
        expectRun(
            hottask("--lists"),
            stdout: """
                Tasks        1 open, 1 done  (default)
                Work         1 open, 0 done
                Home/Garden  1 open, 0 done
                Someday      0 open, 0 done

                """)
        expectRun(
            hottaskOther("--lists"),
            stdout: """
                Tasks        1 open, 1 done  (default)
                Home/Garden  1 open, 0 done
                Someday      0 open, 0 done
                Work         1 open, 0 done

                """)
        // The lists were made in the import's record: one --undo takes them back with the tasks.
        expectRun(hottaskOther("--quiet", "--undo"))
        expectRun(hottaskOther("--lists"), stdout: "Tasks  0 open, 0 done  (default)\n")
    }

    @Test func aVdirImportNeverMovesATaskBetweenLists() {
        seed()
        let out = folder.path("calendars")
        expectRun(hottask("--quiet", "--export", out, "--export-format", "vdir"))
        // Moved here after the export; the folder still has it in Work.
        expectRun(hottask("--quiet", "--edit", "2", "--in", "Tasks"))
        expectRun(
            hottask("--import", out), stdout: "Imported from iCalendar \(out): added 0, updated 0, unchanged 4, skipped 0\n")
        expectRun(
            hottask("--lists"),
            stdout: """
                Tasks        2 open, 1 done  (default)
                Work         0 open, 0 done
                Home/Garden  1 open, 0 done
                Someday      0 open, 0 done

                """)
    }

    @Test func aVdirSubFolderWithoutADisplaynameIsTheListOfItsFolderName() {
        let calendar = folder.path("calendars/Errands")
        try? FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
        _ = folder.write(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:e1\r\nSUMMARY:Post the letter\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
            to: "calendars/Errands/e1.ics")
        expectRun(
            hottask("--import", folder.path("calendars")),
            stdout: "Imported from iCalendar \(folder.path("calendars")): added 1, updated 0, unchanged 0, skipped 0; made the list 'Errands'\n")
        expectRun(hottask("--lists"), stdout: "Tasks    0 open, 0 done  (default)\nErrands  1 open, 0 done\n")
    }

    @Test func aSubFolderNamingAListThatCannotBeIsRefusedChangingNothing() {
        let long = String(repeating: "x", count: 61)
        try? FileManager.default.createDirectory(atPath: folder.path("calendars/x"), withIntermediateDirectories: true)
        _ = folder.write(long, to: "calendars/x/displayname")
        expectRun(
            hottask("--import", folder.path("calendars")),
            stderr:
                "hottask: cannot import \(folder.path("calendars")): the sub-folder x names the list \"\(long)\", which cannot be: a list's name can be at most 60 characters; change it in x/displayname. Nothing was changed\n",
            status: 1)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func aFolderExportedFlatThenWithListsSaysItsOldFilesAreLeft() {
        expectRun(hottask("--quiet", "--add", "Buy milk"))
        let out = folder.path("calendars")
        expectRun(hottask("--quiet", "--export", out, "--export-format", "vdir"))
        expectRun(hottask("--quiet", "--new-list", "Work"))
        expectRun(
            hottask("--export", out, "--export-format", "vdir"),
            stdout: """
                Exported 1 tasks of 'Tasks' to the folder \(out)/Tasks: 1 files added, 0 changed, 0 unchanged
                Exported 0 tasks of 'Work' to the folder \(out)/Work: 0 files added, 0 changed, 0 unchanged

                """,
            stderr:
                "hottask: note: 1 .ics file at the top of \(out) left as it was: the lists are in its sub-folders now; remove it so that an import or todoman does not read it twice\n"
        )
    }

    @Test func todomanSeesEachListOfTheExport() throws {
        try #require(isOnPath("todo"), "todoman is needed: pip install todoman (make test-deps installs it)")
        seed()
        expectRun(hottask("--quiet", "--export", folder.path("calendars"), "--export-format", "vdir"))
        let run = runTodoman(in: folder, ["--porcelain", "list", "--status", "ANY"])
        #expect(run.status == 0, "\(run.stderr)")
        guard case .array(let items) = try JSONParser.parse(Array(run.stdout.utf8)) else {
            Issue.record("todoman's output is not a list: \(run.stdout)")
            return
        }
        var seen: [String] = []
        for case .object(let task) in items {
            guard case .string(let list)? = task["list"], case .string(let summary)? = task["summary"] else { continue }
            seen.append("\(list): \(summary)")
        }
        #expect(seen.sorted() == ["Home/Garden: Mow the lawn", "Tasks: Buy milk", "Tasks: Call mum", "Work: Fix the build"])
    }

    @Test func anIcsFileIsOneListNamedByXWRCalname() {
        seed()
        let work = folder.path("work.ics")
        expectRun(hottask("--export", work, "--export-format", "ics", "--in", "work"), stdout: "Exported 1 tasks to \(work)\n")
        let text = fileText(work) ?? ""
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//HotTask//HotTask//EN\r\nX-WR-CALNAME:Work\r\nBEGIN:VTODO\r\n"), "\(text)")
        // All lists in one file: written, and said that the lists are not in it.
        let all = folder.path("all.ics")
        expectRun(
            hottask("--export", all, "--export-format", "ics"), stdout: "Exported 4 tasks to \(all)\n",
            stderr:
                "hottask: note: the .ics file holds the tasks of all 4 lists without their lists (an .ics file is one list); export one list with --in NAME, or every list with --export-format vdir\n"
        )
        #expect(!(fileText(all) ?? "X-WR-CALNAME").contains("X-WR-CALNAME"))
        // Into a store with a list of that name (ignoring case): its new tasks go there.
        expectRun(hottaskOther("--quiet", "--new-list", "WORK"))
        expectRun(hottaskOther("--import", work), stdout: "Imported from iCalendar \(work): added 1, updated 0, unchanged 0, skipped 0\n")
        expectRun(hottaskOther("--lists"), stdout: "Tasks  0 open, 0 done  (default)\nWORK   1 open, 0 done\n")
    }

    @Test func anIcsFileOfAListThisStoreLacksGoesToTheDefaultListSaid() {
        seed()
        let work = folder.path("work.ics")
        expectRun(hottask("--quiet", "--export", work, "--export-format", "ics", "--in", "Work"))
        expectRun(
            hottaskOther("--import", work),
            stdout: "Imported from iCalendar \(work): added 1, updated 0, unchanged 0, skipped 0\n",
            stderr:
                "hottask: note: the file names the list 'Work', which this store does not have: its new tasks went to the default list 'Tasks' (make the list with --new-list before importing to keep them apart)\n"
        )
        expectRun(hottaskOther("--lists"), stdout: "Tasks  1 open, 0 done  (default)\n")
    }

    @Test func aOneListStoreExportsAsBeforeLists() {
        expectRun(hottask("--quiet", "--add", "Buy milk"))
        let out = folder.path("flat")
        expectRun(hottask("--quiet", "--export", out, "--export-format", "vdir"))
        let files = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(files.count == 1 && files[0].hasSuffix(".ics"), "\(files)")
        let file = folder.path("one.ics")
        expectRun(hottask("--quiet", "--export", file, "--export-format", "ics"))
        #expect(!(fileText(file) ?? "X-WR-CALNAME").contains("X-WR-CALNAME"))
    }
}
