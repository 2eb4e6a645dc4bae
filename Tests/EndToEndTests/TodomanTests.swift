import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// HotTask beside the real todoman (`todo`, from PyPI) on one vdir (issue 28): `--import DIR`
/// reads every .ics file in it; `--export DIR --export-format vdir` rewrites only the files
/// whose task changed, writes a new task as `UID.ics`, and leaves every other file byte for byte.
@Suite("vdir folders with the real todoman")
struct TodomanTests {
    let folder = TemporaryFolder()
    private var calendar: String { folder.path("calendars/tasks") }

    private func hottask(_ args: String...) -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(["--file", folder.storePath] + args)
    }

    /// Runs todoman on this test's vdir, with its own config and cache.
    @discardableResult
    private func todo(_ args: String..., stdin: String? = nil) -> (status: Int32, stdout: String, stderr: String) {
        let run = runTodoman(in: folder, args, stdin: stdin)
        #expect(run.status == 0, "todo \(args): \(run.stdout) \(run.stderr)")
        return run
    }

    /// todoman's own view of the folder: summary → (completed, priority) per task.
    private func todomanTasks() throws -> [String: (completed: Bool, priority: Int)] {
        let text = todo("--porcelain", "list", "--status", "ANY").stdout
        guard case .array(let items) = try JSONParser.parse(Array(text.utf8)) else { return [:] }
        var tasks: [String: (completed: Bool, priority: Int)] = [:]
        for case .object(let task) in items {
            guard case .string(let summary)? = task["summary"], case .bool(let completed)? = task["completed"] else { continue }
            let priority: Int = if case .number(let value)? = task["priority"] { Int(value) } else { 0 }
            tasks[summary] = (completed, priority)
        }
        return tasks
    }

    private func files() -> [String: [UInt8]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: calendar)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { ($0, fileBytes(calendar + "/" + $0) ?? []) })
    }

    @Test func aRoundTripKeepsEveryFileHotTaskDidNotChangeByteForByte() throws {
        try #require(isOnPath("todo"), "todoman is needed: pip install todoman (make test-deps installs it)")
        try FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
        todo("new", "-l", "tasks", "Buy milk")
        todo("new", "-l", "tasks", "--priority", "high", "--due", "2026-12-01", "--location", "home", "-c", "errands", "Call Bob")
        todo("new", "-l", "tasks", "-r", "Fix the bike", stdin: "The back tyre, and the brakes\n")
        todo("done", "3")
        let before = files()
        #expect(before.count == 3)

        let imported = hottask("--import", calendar)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("added 3, updated 0, unchanged 0"), "\(imported.stdout)")
        let list = try TaskStore(path: folder.storePath).load()
        #expect(list.tasks(in: .priority).map(\.caption) == ["Call Bob"])
        #expect(list.all.first { $0.caption == "Fix the bike" }?.completed == true)
        let milk = try #require(list.all.first { $0.caption == "Buy milk" })
        #expect(hottask("--edit", String(milk.id.uuidString.lowercased().prefix(8)), "Buy oat milk").status == 0)

        let export = hottask("--export", calendar, "--export-format", "vdir")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("0 files added, 1 changed, 2 unchanged"), "\(export.stdout)")
        let after = files()
        #expect(Set(after.keys) == Set(before.keys), "no new file: the same UIDs")
        let changed = after.filter { before[$0.key] != $0.value }.map(\.key)
        #expect(changed.count == 1)
        let changedText = String(decoding: after[changed.first ?? ""] ?? [], as: UTF8.self)
        #expect(changedText.contains("SUMMARY:Buy oat milk"))
        // todoman reads the changed file as the same task, renamed; the others as they were.
        let seen = try todomanTasks()
        #expect(Set(seen.keys) == ["Buy oat milk", "Call Bob", "Fix the bike"])
        #expect(seen["Fix the bike"]?.completed == true && seen["Call Bob"]?.priority ?? 0 > 0)

        // A task added here is a new UID.ics file todoman lists; the others stay as they were.
        #expect(hottask("--add", "Water the plants", "--bonus").status == 0)
        let second = hottask("--export", calendar, "--export-format", "vdir")
        #expect(second.stdout.contains("1 files added, 0 changed, 3 unchanged"), "\(second.stdout)")
        let plants = try #require(try TaskStore(path: folder.storePath).load().all.first { $0.caption == "Water the plants" })
        #expect(files()[plants.id.uuidString.lowercased() + ".ics"] != nil)
        #expect(files().filter { after[$0.key] != nil && after[$0.key] != $0.value }.isEmpty)
        #expect(try todomanTasks()["Water the plants"] != nil)

        // Done in todoman, merged back by UID: no task twice.
        todo("done", String(try todomanID(of: "Buy oat milk")))
        let again = hottask("--import", calendar)
        #expect(again.stdout.contains("added 0, updated 1, unchanged 3"), "\(again.stdout)")
        #expect(try TaskStore(path: folder.storePath).load().all.first { $0.id == milk.id }?.completed == true)
    }

    /// todoman's description and categories of each task, by summary.
    private func todomanNotesAndTags() throws -> [String: (description: String, categories: [String])] {
        let text = todo("--porcelain", "list", "--status", "ANY").stdout
        guard case .array(let items) = try JSONParser.parse(Array(text.utf8)) else { return [:] }
        var tasks: [String: (description: String, categories: [String])] = [:]
        for case .object(let task) in items {
            guard case .string(let summary)? = task["summary"] else { continue }
            let description: String = if case .string(let text)? = task["description"] { text } else { "" }
            var categories: [String] = []
            if case .array(let values)? = task["categories"] {
                for case .string(let value) in values { categories.append(value) }
            }
            tasks[summary] = (description, categories)
        }
        return tasks
    }

    /// Issue 39: todoman's description and categories are the note and tags here; a note and
    /// tags edited here are what todoman reads back, and a category edit in todoman comes in.
    @Test func descriptionsAndCategoriesAreNotesAndTagsBothWays() throws {
        try #require(isOnPath("todo"), "todoman is needed: pip install todoman (make test-deps installs it)")
        try FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
        todo("new", "-l", "tasks", "-r", "-c", "health", "-c", "errands", "Dentist", stdin: "Bring the card\nand the letter\n")
        todo("new", "-l", "tasks", "Call Ann")
        #expect(hottask("--import", calendar).status == 0)
        var list = try TaskStore(path: folder.storePath).load()
        let dentist = try #require(list.all.first { $0.caption == "Dentist" })
        let ann = try #require(list.all.first { $0.caption == "Call Ann" })
        #expect(dentist.note == "Bring the card\nand the letter")
        #expect(dentist.tags == ["health", "errands"])
        #expect(ann.note.isEmpty && ann.tags.isEmpty)

        let id = { (task: TaskItem) in String(task.id.uuidString.lowercased().prefix(8)) }
        let edit = runHotTask(
            ["--file", folder.storePath, "--edit", id(dentist), "--note", "-", "--tag", "urgent", "--untag", "errands"],
            stdin: "Bring the card\nask about the bill\n")
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(hottask("--edit", id(ann), "--note", "About the move", "--tag", "family").status == 0)
        let export = hottask("--export", calendar, "--export-format", "vdir")
        #expect(export.stdout.contains("0 files added, 2 changed, 0 unchanged"), "\(export.stdout)")
        var seen = try todomanNotesAndTags()
        #expect(seen["Dentist"]?.description == "Bring the card\nask about the bill")
        #expect(Set(seen["Dentist"]?.categories ?? []) == ["health", "urgent"])
        #expect(seen["Call Ann"]?.description == "About the move" && seen["Call Ann"]?.categories == ["family"])

        // Categories replaced in todoman: the tags here follow; the note stays.
        todo("edit", String(try todomanID(of: "Dentist")), "-c", "teeth")
        let again = hottask("--import", calendar)
        #expect(again.stdout.contains("added 0, updated 1, unchanged 1"), "\(again.stdout)")
        list = try TaskStore(path: folder.storePath).load()
        #expect(list.all.first { $0.id == dentist.id }?.tags == ["teeth"])
        #expect(list.all.first { $0.id == dentist.id }?.note == "Bring the card\nask about the bill")
        seen = try todomanNotesAndTags()
        #expect(seen["Dentist"]?.categories == ["teeth"])
    }

    /// todoman's number for the task with this summary.
    private func todomanID(of summary: String) throws -> Int {
        let text = todo("--porcelain", "list", "--status", "ANY").stdout
        guard case .array(let items) = try JSONParser.parse(Array(text.utf8)) else { return -1 }
        for case .object(let task) in items {
            if case .string(summary)? = task["summary"], case .number(let id)? = task["id"] { return Int(id) }
        }
        return -1
    }

    @Test func filesItDoesNotKnowAreLeftAsTheyWere() throws {
        try FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
        let event = folder.write(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:meeting\r\nSUMMARY:Meeting\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            to: "calendars/tasks/meeting.ics")
        let notes = folder.write("not a calendar", to: "calendars/tasks/notes.txt")
        // A file named as a task's would be, holding something else: not written over.
        #expect(hottask("--add", "Call mom").status == 0)
        let mom = try #require(try TaskStore(path: folder.storePath).load().all.first)
        let squatter = folder.write("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", to: "calendars/tasks/\(mom.id.uuidString.lowercased()).ics")
        let eventBytes = fileBytes(event)
        let run = hottask("--export", calendar, "--export-format", "vdir")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileBytes(event) == eventBytes && fileText(notes) == "not a calendar" && fileText(squatter) == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        #expect(run.stdout.contains("0 files added") && run.stdout.contains("2 other .ics files left as they were"), "\(run.stdout)")
        #expect(run.stderr.contains("note: 1 task not written: a file of its name holds something else"), "\(run.stderr)")
        // Standard output is no folder.
        #expect(hottask("--export", "-", "--export-format", "vdir").status != 0)
    }
}
