import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// `--export` and `--import` of the built `hottask` binary on a temporary store, as a script
/// would run them (the rest of the command line is in `CommandLineTests`).
@Suite("hottask command line: export and import")
struct CommandLineExchangeTests: StoreFolderSuite {
    let folder = TemporaryFolder()

    @Test("--export - then --import into an empty store gives the same tasks")
    func exportImportRoundTrip() throws {
        seed()
        let exported = hottask("--export", "-")
        #expect(exported.status == 0)
        let backup = folder.write(exported.stdout, to: "backup.json")

        let other = folder.path("other/tasks.json")
        let imported = runHotTask(["--file", other, "--import", backup])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported from HotTask \(backup): added 3, updated 0, unchanged 0, skipped 0\n")

        let original = hottask("--list", "--json")
        let copy = runHotTask(["--file", other, "--list", "--json"])
        #expect(copy.stdout == original.stdout)
        #expect(!copy.stdout.isEmpty)
    }

    @Test("--export to a file writes the document")
    func exportFile() throws {
        seed()
        let target = folder.path("export.json")
        expectRun(["--file", store, "--export", target], stdout: "Exported 3 tasks to \(target)\n")
        #expect(fileBytes(target) == fileBytes(store))
    }

    @Test("an export that cannot be written fails, names the file and leaves the store alone")
    func exportUnwritable() {
        seed()
        let before = fileBytes(store)
        let target = folder.path("missing-folder/export.json")
        expectRun(
            ["--file", store, "--export", target],
            stderr: "hottask: could not write the export file \(folder.path)/missing-folder/export.json: the folder \(folder.path)/missing-folder "
                + "does not exist; make it first (mkdir -p \(folder.path)/missing-folder)\n", status: 3)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(fileBytes(store) == before)
    }

    @Test("--import merges and prints the counts")
    func importMerge() throws {
        seed()
        let incoming = TaskList([
            Fixtures.task("Buy oat milk", id: 1, modifiedHours: 10),  // newer: updated
            Fixtures.task("Call dad", id: 2, modifiedHours: 1),  // older: unchanged
            Fixtures.task("Water plants", id: 7, section: .bonus),  // new
        ])
        let file = folder.write(StoreDocument.encode(incoming), to: "incoming.json")
        let run = hottask("--import", file)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Imported from HotTask \(file): added 1, updated 1, unchanged 1, skipped 0\n")
        #expect(try captions(.priority) == ["Buy oat milk", "Call mum"])
        #expect(try captions(.bonus) == ["Read a book", "Water plants"])
    }

    @Test("importing the same file twice adds nothing the second time")
    func importTwice() throws {
        let file = folder.write(StoreDocument.encode(Fixtures.sampleList()), to: "incoming.json")
        _ = hottask("--import", file)
        expectRun(["--file", store, "--import", file], stdout: "Imported from HotTask \(file): added 0, updated 0, unchanged 3, skipped 0\n")
        #expect(try stored().seen == Fixtures.sampleList().seen)
    }

    @Test("--import --replace replaces the whole list")
    func importReplace() throws {
        seed()
        let incoming = TaskList([Fixtures.task("Only this", id: 9, section: .bonus)])
        let file = folder.write(StoreDocument.encode(incoming), to: "incoming.json")
        let run = hottask("--import", file, "--replace")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Replaced 3 tasks with 1 from HotTask \(file) (skipped 0)\n")
        #expect(try stored().shown.map(\.withoutOrder) == incoming.shown.map(\.withoutOrder))
    }

    @Test("a Taskwarrior export file imports", arguments: ["array", "lines"])
    func importTaskwarrior(shape: String) throws {
        seed()
        let file = folder.write(
            shape == "array" ? TaskwarriorSample.asArray : TaskwarriorSample.asLines, to: "export.json")
        // What HotTask does not keep is said (its tags and annotations are the tasks' tags and note).
        expectRun(
            ["--file", store, "--import", file],
            stdout: "Imported from Taskwarrior \(folder.path)/export.json: added 4, updated 0, unchanged 0, skipped 2\n",
            stderr:
                "hottask: note: 1 task waiting to be shown later went to Bonus\nhottask: note: skipped 1 deleted task\nhottask: note: skipped 1 recurrence template HotTask cannot repeat exactly (recur:weekly with no due date); the tasks it made are imported one by one\n"
        )
        // Said even with --quiet: it is what the store did not keep.
        expectRun(
            ["--file", folder.path("other.json"), "--import", file, "--quiet"],
            stderr:
                "hottask: note: 1 task waiting to be shown later went to Bonus\nhottask: note: skipped 1 deleted task\nhottask: note: skipped 1 recurrence template HotTask cannot repeat exactly (recur:weekly with no due date); the tasks it made are imported one by one\n"
        )
        #expect(try captions(.priority) == ["Buy milk", "Call mum", "Pay rent"])
        // Kept as it came (spaces and a tab), shown on one line.
        #expect(try captions(.bonus) == ["Read a book", "Renew passport", "Book flights", "  Tidy\tdesk  "])
        expectRun(
            ["--file", store, "--list"],
            stdout:
                "2 down 5 to go!\n\nTop Priority (3)\n  1. [ ] Buy milk\n  2. [x] Call mum\n  3. [ ] Pay rent +home\nBonus (4)\n  4. [ ] Read a book\n  5. [ ] Renew passport\n  6. [x] Book flights ✎\n  7. [ ] Tidy desk\n"
        )
    }

    @Test("--import - reads standard input")
    func importStdin() throws {
        expectRun(
            ["--file", store, "--import", "-"], stdin: TaskwarriorSample.asLines,
            stdout: "Imported from Taskwarrior standard input: added 4, updated 0, unchanged 0, skipped 2\n",
            stderr:
                "hottask: note: 1 task waiting to be shown later went to Bonus\nhottask: note: skipped 1 deleted task\nhottask: note: skipped 1 recurrence template HotTask cannot repeat exactly (recur:weekly with no due date); the tasks it made are imported one by one\n"
        )
        #expect(try stored().count == 4)
    }

    @Test(
        "a bad import is refused and the store is unchanged",
        arguments: [
            ("truncated", "{\"version\": 1, \"tasks\": ["),
            ("empty", ""),
            ("wrong field", String(decoding: StoreDocumentText.withBadSection, as: UTF8.self)),
            ("bad Taskwarrior line", TaskwarriorSample.pending + "\n{\"status\": \"pending\"\n"),
            ("not a task list", "[1, 2, 3]"),
        ])
    func badImport(name: String, text: String) throws {
        seed()
        let before = fileBytes(store)
        let file = folder.write(text, to: "incoming.json")
        expectRun(["--file", store, "--import", file], stderr: "hottask: cannot import \(file): [..]. Nothing was changed\n", status: 1)
        #expect(fileBytes(store) == before)
        expectRun(["--file", store, "--import", file, "--replace"], stderr: "hottask: cannot import \(file): [..]. Nothing was changed\n", status: 1)
        #expect(fileBytes(store) == before)
    }

    @Test("a missing import file is refused")
    func importMissingFile() {
        seed()
        let before = fileBytes(store)
        let missing = folder.path("nope.json")
        expectRun(
            ["--file", store, "--import", missing],
            stderr: "hottask: cannot import \(folder.path)/nope.json: there is no such file or folder; check the path. Nothing was changed\n",
            status: 1)
        #expect(fileBytes(store) == before)
    }

    @Test("an empty standard input is refused")
    func importEmptyStdin() {
        expectRun(
            ["--file", store, "--import", "-"], stdin: "", stderr: "hottask: cannot import standard input: the input is empty. Nothing was changed\n",
            status: 1)
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
