import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Runs the built `hottask` binary on a temporary store, as a script would.
@Suite("hottask command line")
struct CommandLineTests: StoreFolderSuite {
    let folder = TemporaryFolder()

    /// The store file as the raw JSON value, without HotTask's own cleaning on load.
    private func rawTasks() throws -> [[String: JSONValue]] {
        let bytes = try #require(fileBytes(store), "no store file at \(store)")
        guard case .object(let root) = try JSONParser.parse(bytes), case .array(let tasks)? = root["tasks"] else {
            Issue.record("the store is not a document with a tasks array")
            return []
        }
        return tasks.map { task in
            guard case .object(let fields) = task else { return [:] }
            return fields
        }
    }

    // MARK: Adding

    @Test("--add trims the caption before storing it")
    func addTrims() throws {
        let run = hottask("--add", "  Buy milk  ")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Added to Top Priority: Buy milk\n")
        let tasks = try rawTasks()
        #expect(tasks.count == 1)
        #expect(tasks.first?["caption"] == .string("Buy milk"))
        #expect(tasks.first?["section"] == .string("priority"))
        #expect(tasks.first?["completed"] == .bool(false))
    }

    @Test("--add of only whitespace is refused and changes nothing")
    func addEmpty() throws {
        seed()
        let before = fileBytes(store)
        expectRun(
            ["--file", store, "--add", "   "], stderr: "hottask: cannot add '   ': a task needs some text: the caption is empty or only whitespace\n",
            status: 1)
        #expect(fileBytes(store) == before)
    }

    @Test("--add of more than 1000 characters is refused with the length")
    func addTooLong() {
        seed()
        let before = fileBytes(store)
        let caption = String(repeating: "x", count: 1001)
        expectRun(
            ["--file", store, "--add", caption],
            stderr: "hottask: cannot add '\(caption)': the caption has 1001 characters; the limit is 1000\n", status: 1)
        #expect(fileBytes(store) == before)
    }

    @Test("processes adding at the same time lose nothing")
    func concurrentAdds() async throws {
        let store = self.store
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for number in 1...8 {
                group.addTask { runHotTask(["--file", store, "--add", "Task \(number)"]).status }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 8))
        #expect(try Set(captions(.priority)) == Set((1...8).map { "Task \($0)" }))
    }

    @Test("a refused --add does not create a store")
    func addEmptyNoStore() {
        expectRun(
            ["--file", store, "--add", "\t\n", "--add", "fine"],
            stderr: "hottask: cannot add '\\u0009\\u000A': a task needs some text: the caption is empty or only whitespace\n", status: 1)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("--add A --add B puts them on top, in order")
    func addOrder() throws {
        seed()
        let run = hottask("--add", "A", "--add", "B")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Added to Top Priority: A\nAdded to Top Priority: B\n")
        #expect(try captions(.priority) == ["A", "B", "Buy milk", "Call mum"])
        #expect(try captions(.bonus) == ["Read a book"])
    }

    @Test("--bonus puts new tasks on top of Bonus")
    func addBonus() throws {
        seed()
        let run = hottask("--add", "Someday", "--bonus")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Added to Bonus: Someday\n")
        #expect(try captions(.bonus) == ["Someday", "Read a book"])
        #expect(try captions(.priority) == ["Buy milk", "Call mum"])
    }

    @Test("a caption starting with a dash is a caption")
    func addDash() throws {
        expectRun(["--file", store, "--add", "--list"], stdout: "Added to Top Priority: --list\n")
        #expect(try captions(.priority) == ["--list"])
    }

    @Test("escape sequences never reach the store")
    func addEscapes() throws {
        expectRun(["--file", store, "--add", "\u{1B}[31mred\u{1B}[0m\u{202E}"], stdout: "Added to Top Priority: red\n")
        #expect(try rawTasks().first?["caption"] == .string("red"), "the sequences go whole, as from a paste")
        // The issue's debris: `--add` had kept "evil]0;PWNED title [31mred[0m".
        expectRun(["--file", store, "--edit", "1", "evil\u{1B}]0;PWNED title\u{07} \u{1B}[31mred\u{1B}[0m"], stdout: "Edited: red → evil red\n")
        #expect(try captions(.priority) == ["evil red"])
    }

    @Test("the store is written with mode 0600 and no temp files are left")
    func storeFile() throws {
        _ = hottask("--add", "One")
        _ = hottask("--add", "Two")
        let attributes = try FileManager.default.attributesOfItem(atPath: store)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(folder.contents().filter { $0.contains("tmp") } == [])
    }

    // MARK: Listing

    @Test("--list shows the summary and both sections, numbered")
    func list() {
        seed()
        let run = hottask("--list")
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                1 down 2 to go!

                Top Priority (2)
                  1. [ ] Buy milk
                  2. [x] Call mum
                Bonus (1)
                  3. [ ] Read a book

                """)
    }

    @Test("--list of a missing store is lonely and creates nothing")
    func listEmpty() {
        expectRun(["--file", store, "--list"], stdout: "It's lonely here - add some tasks!\n\nTop Priority (0)\n  (none)\nBonus (0)\n  (none)\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("--list numbers are padded when there are ten or more")
    func listPadding() {
        seed(TaskList((1...10).map { Fixtures.task("T\($0)", id: $0) }))
        expectRun(
            ["--file", store, "--list"],
            stdout:
                "Get started - 10 to go!\n\nTop Priority (10)\n   1. [ ] T1\n   2. [ ] T2\n   3. [ ] T3\n   4. [ ] T4\n   5. [ ] T5\n   6. [ ] T6\n   7. [ ] T7\n   8. [ ] T8\n   9. [ ] T9\n  10. [ ] T10\nBonus (0)\n  (none)\n"
        )
    }

    @Test("--list --json prints the store document")
    func listJSON() {
        seed()
        let run = hottask("--list", "--json")
        #expect(run.status == 0)
        #expect(Array(run.stdout.utf8) == fileBytes(store))
    }

    // MARK: Changing tasks

    /// The handle of sample task `number` (1...3) as a list number or as an id prefix.
    static func handle(_ number: Int, byID: Bool) -> String {
        byID ? String(Fixtures.id(number).uuidString.lowercased().prefix(8)) : String(number)
    }

    @Test("--done and --undone", arguments: [false, true])
    func doneUndone(byID: Bool) throws {
        seed()
        let run = hottask("--done", Self.handle(1, byID: byID), "--undone", Self.handle(2, byID: byID))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Completed: Buy milk\nReopened: Call mum\n")
        let list = try stored()
        #expect(list.all.map(\.caption) == ["Buy milk", "Call mum", "Read a book"])
        #expect(list[0].completed)
        #expect(list[0].completedAt != nil)
        #expect(!list[1].completed)
        #expect(list[1].completedAt == nil)
    }

    @Test("--done on a completed task says so and keeps it completed")
    func doneTwice() throws {
        seed()
        let before = fileBytes(store)
        let run = hottask("--done", "2")
        #expect(run.status == 0)
        #expect(run.stdout == "Already completed: Call mum\n")
        #expect(fileBytes(store) == before)
    }

    @Test("--move puts the task on top of the other section", arguments: [false, true])
    func move(byID: Bool) throws {
        seed()
        let run = hottask("--move", Self.handle(3, byID: byID))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Moved to Top Priority: Read a book\n")
        #expect(try captions(.priority) == ["Read a book", "Buy milk", "Call mum"])
        #expect(try captions(.bonus) == [])
    }

    @Test("--delete removes the task", arguments: [false, true])
    func delete(byID: Bool) throws {
        seed()
        let run = hottask("--delete", Self.handle(2, byID: byID))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Deleted: Call mum\n")
        #expect(try stored().all.map(\.caption) == ["Buy milk", "Read a book"])
        #expect(try stored().completedCount == 0)
    }

    @Test("deleting several tasks reports them in the order given")
    func deleteOrder() {
        seed(TaskList((1...8).map { Fixtures.task("T\($0)", id: $0) }))
        expectRun(["--file", store] + (1...8).flatMap { ["--delete", "\($0)"] }, stdout: (1...8).map { "Deleted: T\($0)\n" }.joined())
    }

    @Test("numbers refer to the list as it was before the command")
    func numbersBeforeChange() throws {
        seed()
        expectRun(
            ["--file", store, "--add", "New", "--done", "1", "--move", "3", "--delete", "2"],
            stdout: "Added to Top Priority: New\nCompleted: Buy milk\nMoved to Top Priority: Read a book\nDeleted: Call mum\n")
        let list = try stored()
        #expect(list.priority.map(\.caption) == ["Read a book", "New", "Buy milk"])
        #expect(list.bonus.map(\.caption) == [])
        #expect(list.task(withID: Fixtures.id(1))?.completed == true)
    }

    @Test(
        "an unknown task is refused and changes nothing",
        arguments: [
            ["--done", "9"], ["--delete", "0"], ["--move", "f0000009"], ["--undone", "abc"], ["--add", "x", "--done", "4"],
        ])
    func unknownTask(args: [String]) {
        seed()
        let before = fileBytes(store)
        // The flag and the handle it could not use, whatever the reason.
        expectRun(["--file", store] + args, stderr: "hottask: \(args[args.count - 2]) \(args[args.count - 1]): [..]\n", status: 1)
        #expect(fileBytes(store) == before)
    }

    @Test("an unknown number names the numbers there are")
    func unknownNumberMessage() {
        seed()
        expectRun(
            ["--file", store, "--done", "9"], stderr: "hottask: --done 9: there is no task 9: the numbers run from 1 to 3 (see --list)\n", status: 1)
    }

    @Test("the same task to --done and --undone is refused")
    func doneAndUndone() {
        seed()
        let before = fileBytes(store)
        expectRun(["--file", store, "--done", "1", "--undone", "1"], stderr: "hottask: 'Buy milk' is given to both --done and --undone\n", status: 1)
        #expect(fileBytes(store) == before)
    }

    // MARK: Damaged or unwritable stores

    @Test(
        "a damaged store exits 2, names the file and the line, and is left as it was",
        arguments: [["--list"], ["--list", "--json"], ["--add", "New"], ["--done", "1"], ["--delete", "1"], ["--export", "-"]])
    func damagedStore(args: [String]) {
        let bytes = Array(StoreDocument.encode(Fixtures.sampleList()).dropLast(30))
        folder.write(bytes, to: "tasks.json")
        // The file, what is wrong and where.
        expectRun(["--file", store] + args, stderr: "hottask: the task store \(store) is damaged: not valid JSON: [..] at line [..]\n", status: 2)
        #expect(fileBytes(store) == bytes)
        #expect(folder.contents().filter { $0.contains("tmp") } == [])
    }

    @Test("importing into a damaged store exits 2 and leaves it as it was")
    func damagedStoreImport() {
        let bytes = Array(StoreDocument.encode(Fixtures.sampleList()).dropLast(30))
        folder.write(bytes, to: "tasks.json")
        let file = folder.write(TaskwarriorSample.asArray, to: "export.json")
        for args in [["--import", file], ["--import", file, "--replace"]] {
            expectRun(
                ["--file", store] + args, stderr: "hottask: the task store \(store) is damaged: not valid JSON: [..] at line [..]\n", status: 2)
            #expect(fileBytes(store) == bytes)
        }
    }

    @Test("an empty or unsupported store exits 2 and is left as it was", arguments: ["", "{\"version\": 3, \"tasks\": []}"])
    func unsupportedStore(text: String) {
        folder.write(text, to: "tasks.json")
        expectRun(["--file", store, "--add", "New"], stderr: "hottask: the task store \(store) [..]\n", status: 2)
        #expect(fileText(store) == text)
    }

    @Test("a store that cannot be written exits 3")
    func unwritableStore() {
        let notAFolder = folder.write("", to: "plain-file")
        expectRun(
            ["--file", notAFolder + "/tasks.json", "--add", "New"],
            stderr:
                "hottask: could not save the task store \(folder.path)/plain-file/tasks.json: cannot create the folder \(folder.path)/plain-file: something that is not a folder is in its place. Nothing was written\n",
            status: 3)
        #expect(fileText(notAFolder) == "")
    }

    // MARK: Options and locations

    @Test(
        "bad combinations of options exit 64 and touch nothing",
        arguments: [["--bonus"], ["--json"], ["--replace"], ["--import", "x.json", "--add", "y"], ["--import", "-", "--export", "-"], ["--nope"]])
    func badOptions(args: [String]) {
        // The whole of each message is in Snapshots/errors.console.
        expectRun(
            ["--file", store] + args, stderr: "hottask: [..]\n", status: 64
        )
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("an empty --file is refused instead of falling back to the real store")
    func emptyFileOption() {
        let home = TemporaryFolder()
        expectRun(
            ["--file", "", "--add", "x"], environment: ["HOME": home.path],
            stderr: "hottask: --file needs a path; it was given an empty one.\n",
            status: 64)
        #expect(home.contents().isEmpty, "nothing was written under HOME")
    }

    @Test("no options asks for the terminal UI, which needs a terminal (exit 4)")
    func noOptions() {
        expectRun(
            ["--file", store],
            stderr: "hottask: the task list UI needs a terminal; for scripts use --list, --add and the other options (see --help)\n", status: 4)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("HOTTASK_FILE chooses the store when --file is not given")
    func hottaskFileVariable() throws {
        let path = folder.path("from-env/tasks.json")
        let home = folder.path("home")
        expectRun(["--add", "From env"], environment: ["HOTTASK_FILE": path, "HOME": home], stdout: "Added to Top Priority: From env\n")
        #expect(fileText(path)?.contains("From env") == true)
        #expect(!FileManager.default.fileExists(atPath: home))

        expectRun(
            ["--file", store, "--add", "Explicit"], environment: ["HOTTASK_FILE": path, "HOME": home], stdout: "Added to Top Priority: Explicit\n")
        #expect(try captions(.priority) == ["Explicit"])
        #expect(fileText(path)?.contains("Explicit") == false)
    }

    @Test("the default store is under XDG_DATA_HOME, else under HOME")
    func defaultLocation() {
        let data = folder.path("data")
        let home = folder.path("home")
        expectRun(["--add", "In XDG"], environment: ["XDG_DATA_HOME": data, "HOME": home], stdout: "Added to Top Priority: In XDG\n")
        #expect(fileText(data + "/hottask/tasks.json")?.contains("In XDG") == true)

        expectRun(["--add", "In home"], environment: ["HOME": home], stdout: "Added to Top Priority: In home\n")
        #expect(fileText(home + "/.local/share/hottask/tasks.json")?.contains("In home") == true)

        expectRun(
            ["--list"], environment: ["XDG_DATA_HOME": data, "HOME": home],
            stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] In XDG\nBonus (0)\n  (none)\n")
    }

    @Test("--version and -V print the name and version", arguments: ["--version", "-V"])
    func version(flag: String) throws {
        let version = try #require(HotTaskBinary.version)
        #expect(try Regex(#"^\d+\.\d+\.\d+$"#).wholeMatch(in: version) != nil, "\(version)")
        expectRun([flag], stdout: "hottask \(version)\n")
    }

    @Test("--help explains the exit codes")
    func help() {
        // The whole text is in Snapshots/help.console.
        expectRun(["--help"], stdout: "OVERVIEW: [..]\n...\nExit codes: [..]\n...\n")
    }
}

/// Store documents with a problem, as bytes.
enum StoreDocumentText {
    static let withBadSection = Array(
        """
        {"version": 1, "tasks": [{"id": "f0000001-0000-4000-8000-000000000001", "caption": "x", "section": "later",
          "completed": false, "createdAt": "2026-11-21T10:00:00Z", "completedAt": null, "modifiedAt": "2026-11-21T10:00:00Z"}]}
        """.utf8)
}
