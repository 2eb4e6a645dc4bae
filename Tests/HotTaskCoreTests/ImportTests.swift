import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Import")
struct ImportTests {
    private func parse(_ text: String) throws(DocumentError) -> ImportBatch {
        try ImportBatch.parse(Array(text.utf8))
    }

    /// A batch holding `tasks`, made the way a user makes one: a HotTask export of them.
    private func batch(_ tasks: [TaskItem]) throws -> ImportBatch {
        try ImportBatch.parse(StoreDocument.encode(TaskList(tasks)))
    }

    private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> DocumentError? {
        do {
            let batch = try parse(text)
            Issue.record("expected an error, got \(batch.tasks.count) tasks", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: HotTask documents

    @Test("a HotTask document imports as its tasks in order")
    func hotTaskDocument() throws {
        let list = Fixtures.sampleList()
        let batch = try ImportBatch.parse(StoreDocument.encode(list))
        #expect(batch.format == .hottask)
        // In the file's order, every field as it was; an export has no order keys, and the
        // store gives the new tasks its own.
        var expected = list.all
        for index in expected.indices { expected[index].order = batch.tasks[index].order }
        #expect(batch.tasks == expected)
        #expect(batch.skipped == 0)
    }

    @Test("importing a document into an empty list gives the same list")
    func roundTripIntoEmpty() throws {
        let list = Fixtures.sampleList()
        var target = TaskList()
        let counts = target.merge(try ImportBatch.parse(StoreDocument.encode(list)))
        #expect(target.shown.map(\.withoutOrder) == list.shown.map(\.withoutOrder))
        #expect(counts == ImportCounts(added: 3))
    }

    @Test("a damaged HotTask document is refused with the task number")
    func badHotTaskDocument() throws {
        let error = try #require(
            parseError(
                String(
                    decoding: StoreDocumentTests.document([
                        StoreDocumentTests.taskJSON(1), StoreDocumentTests.taskJSON(2, ["section": "\"later\""]),
                    ]), as: UTF8.self)))
        #expect(error.description.contains("task 2"))
        #expect(error.description.contains("\"section\""))
    }

    @Test("empty input is refused", arguments: ["", "  \n\t\n"])
    func emptyInput(text: String) throws {
        let error = try #require(parseError(text))
        #expect(error == .invalid("the input is empty"))
    }

    @Test("JSON that is neither format is refused", arguments: ["42", "\"text\"", "{\"name\": \"x\"}", "null"])
    func neitherFormat(text: String) throws {
        let error = try #require(parseError(text))
        #expect(error.description.contains("expected a HotTask store"))
    }

    @Test("broken JSON is refused with its position")
    func brokenJSON() throws {
        let error = try #require(parseError("{\"version\": 1,\n\"tasks\": [\n"))
        guard case .syntax(let syntax) = error else {
            Issue.record("expected .syntax, got \(error)")
            return
        }
        #expect(syntax.line == 3)
    }

    // MARK: Merge

    @Test("new ids are added at the end of their sections, in the order given")
    func mergeAdds() throws {
        var list = Fixtures.sampleList()
        let counts = list.merge(
            try batch([
                Fixtures.task("New bonus 1", id: 10, section: .bonus), Fixtures.task("New priority", id: 11),
                Fixtures.task("New bonus 2", id: 12, section: .bonus, completed: true),
            ]))
        #expect(counts == ImportCounts(added: 3, updated: 0, unchanged: 0, skipped: 0))
        #expect(list.priority.map(\.caption) == ["Buy milk", "Call mum", "New priority"])
        #expect(list.bonus.map(\.caption) == ["Read a book", "New bonus 1", "New bonus 2"])
        #expect(list.completedCount == 2)
    }

    @Test("a known id is replaced in place when the incoming copy is newer")
    func mergeReplacesNewer() throws {
        var list = Fixtures.sampleList()
        let newer = Fixtures.task("Buy oat milk", id: 1, completed: true, modifiedHours: 50)
        let counts = list.merge(try batch([newer]))
        #expect(counts == ImportCounts(updated: 1))
        #expect(list.all.map(\.caption) == ["Buy oat milk", "Call mum", "Read a book"])
        #expect(list[0].caption == newer.caption && list[0].completed && list[0].completedAt == newer.completedAt)
        #expect(list.completedCount == 2)
    }

    @Test("a newer copy in the other section moves to the end of that section")
    func mergeMovesSection() throws {
        var list = Fixtures.sampleList()
        let moved = Fixtures.task("Buy milk", id: 1, section: .bonus, modifiedHours: 50)
        let counts = list.merge(try batch([moved]))
        #expect(counts == ImportCounts(updated: 1))
        #expect(list.priority.map(\.caption) == ["Call mum"])
        #expect(list.bonus.map(\.caption) == ["Read a book", "Buy milk"])
    }

    @Test("a known id with the same or an older modifiedAt is left unchanged", arguments: [0, -5])
    func mergeKeepsOlder(hours: Int) throws {
        var list = Fixtures.sampleList()
        let before = list
        let stale = Fixtures.task("Stale caption", id: 2, completed: false, hours: hours - 10, modifiedHours: 2 + hours)
        let counts = list.merge(try batch([stale]))
        #expect(counts == ImportCounts(unchanged: 1))
        #expect(list == before)
    }

    @Test("merging deletes nothing and counts each kind")
    func mergeCounts() throws {
        var list = Fixtures.sampleList()
        let counts = list.merge(
            try batch([
                Fixtures.task("Read two books", id: 3, section: .bonus, modifiedHours: 10),  // newer: updated
                Fixtures.task("Old milk", id: 1, modifiedHours: -1),  // older: unchanged
                Fixtures.task("Fresh", id: 20),  // new
            ]))
        #expect(counts == ImportCounts(added: 1, updated: 1, unchanged: 1, skipped: 0))
        #expect(counts.description == "added 1, updated 1, unchanged 1, skipped 0")
        #expect(list.all.map(\.caption) == ["Buy milk", "Call mum", "Fresh", "Read two books"])
        #expect(list.all.map(\.id).contains(Fixtures.id(2)))
    }

    @Test("merging a list into itself changes nothing")
    func mergeSelf() throws {
        var list = Fixtures.sampleList()
        let counts = list.merge(try ImportBatch.parse(StoreDocument.encode(list)))
        #expect(counts == ImportCounts(unchanged: 3))
        #expect(list == Fixtures.sampleList())
    }

    // MARK: Taskwarrior

    @Test("a Taskwarrior export imports as an array and as one object per line", arguments: ["array", "lines"])
    func taskwarrior(shape: String) throws {
        let batch = try parse(shape == "array" ? TaskwarriorSample.asArray : TaskwarriorSample.asLines)
        #expect(batch.format == .taskwarrior)
        #expect(batch.skipped == 2)
        // Descriptions kept as they came: spaces at the ends and tabs too.
        #expect(batch.tasks.map(\.caption) == ["Pay rent", "Renew passport", "Book flights", "  Tidy\tdesk  "])
        #expect(batch.tasks.map(\.id) == [1, 2, 3, 6].map(TaskwarriorSample.uuid))

        let pending = batch.tasks[0]
        #expect(pending.section == .priority)
        #expect(!pending.completed)
        #expect(pending.createdAt == TaskwarriorSample.date("20261121T100000Z"))
        #expect(pending.modifiedAt == TaskwarriorSample.date("20261121T110000Z"))
        #expect(pending.completedAt == nil)

        let waiting = batch.tasks[1]
        #expect(waiting.section == .bonus)
        #expect(!waiting.completed)

        let completed = batch.tasks[2]
        #expect(completed.section == .bonus)
        #expect(completed.completed)
        #expect(completed.createdAt == TaskwarriorSample.date("20261120T090000Z"))
        #expect(completed.completedAt == TaskwarriorSample.date("20261121T120000Z"))
        #expect(completed.modifiedAt == TaskwarriorSample.date("20261121T130000Z"))

        let low = batch.tasks[3]
        #expect(low.section == .bonus)
        #expect(low.modifiedAt == low.createdAt)
    }

    @Test("Taskwarrior tasks merge into sections by priority")
    func taskwarriorMerge() throws {
        var list = TaskList()
        let counts = list.merge(try parse(TaskwarriorSample.asLines))
        #expect(counts == ImportCounts(added: 4, skipped: 2))
        #expect(list.priority.map(\.caption) == ["Pay rent"])
        #expect(list.bonus.map(\.caption) == ["Renew passport", "Book flights", "  Tidy\tdesk  "])
        #expect(Progress(list).summary == "1 down 3 to go!")
    }

    @Test("a single Taskwarrior object imports")
    func taskwarriorSingleObject() throws {
        let batch = try parse(TaskwarriorSample.pending)
        #expect(batch.format == .taskwarrior)
        #expect(batch.tasks.map(\.caption) == ["Pay rent"])
    }

    @Test("without an entry date the modified date is used; with none at all it is an error")
    func taskwarriorDates() throws {
        let noEntry = #"[{"description":"x","modified":"20261121T100000Z","status":"pending","uuid":"a1b2c3d4-0000-4000-8000-000000000001"}]"#
        #expect(try parse(noEntry).tasks.first?.createdAt == Fixtures.baseDate)
        let noDates = #"[{"description":"x","status":"pending","uuid":"a1b2c3d4-0000-4000-8000-000000000001"}]"#
        let error = try #require(parseError(noDates))
        #expect(error.description.contains("task 1"))
        #expect(error.description.contains("\"entry\""))
    }

    /// Broken Taskwarrior tasks (as the third) and words the error must contain.
    static let badTaskwarrior: [(task: String, words: [String])] = [
        (
            #"{"description":"x","entry":"20261121T100000Z","status":"someday","uuid":"a1b2c3d4-0000-4000-8000-000000000009"}"#,
            ["someday", "\"status\""]
        ),
        (#"{"description":"x","entry":"20261121T100000Z","uuid":"a1b2c3d4-0000-4000-8000-000000000009"}"#, ["\"status\"", "missing"]),
        (#"{"description":"x","entry":"2026-11-21","status":"pending","uuid":"a1b2c3d4-0000-4000-8000-000000000009"}"#, ["\"entry\"", "2026-11-21"]),
        (
            #"{"description":"  ","entry":"20261121T100000Z","status":"pending","uuid":"a1b2c3d4-0000-4000-8000-000000000009"}"#,
            ["\"description\"", "empty"]
        ),
        (#"{"description":"x","entry":"20261121T100000Z","status":"pending","uuid":"nope"}"#, ["\"uuid\"", "nope"]),
        (
            #"{"description":"x","entry":"20261121T100000Z","status":"pending","uuid":"a1b2c3d4-0000-4000-8000-000000000001"}"#,
            ["a1b2c3d4-0000-4000-8000-000000000001", "twice"]
        ),
        (#""not an object""#, ["a string"]),
    ]

    @Test("a bad Taskwarrior task is refused, naming it", arguments: badTaskwarrior)
    func taskwarriorErrors(task: String, words: [String]) throws {
        let tasks = [TaskwarriorSample.pending, TaskwarriorSample.waiting, task]
        let arrayError = try #require(parseError("[" + tasks.joined(separator: ",") + "]"))
        #expect(arrayError.description.contains("task 3"), "\(arrayError)")
        for word in words {
            #expect(arrayError.description.contains(word), "\(arrayError)")
        }
        if task.hasPrefix("{") {
            let linesError = try #require(parseError(tasks.joined(separator: "\n") + "\n"))
            #expect(linesError.description.contains("line 3"), "\(linesError)")
        }
    }

    @Test("a syntax error in a Taskwarrior line names that line")
    func taskwarriorLineSyntaxError() throws {
        let text = TaskwarriorSample.pending + "\n" + TaskwarriorSample.waiting + "\n{\"uuid\": \"x\",\n"
        let error = try #require(parseError(text))
        guard case .syntax(let syntax) = error else {
            Issue.record("expected .syntax, got \(error)")
            return
        }
        #expect(syntax.line == 3)
        #expect(error.description.contains("line 3"))
    }

    @Test("a Taskwarrior line error names the line even after a blank line")
    func taskwarriorLineNumberAfterBlankLine() throws {
        let bad = #"{"description":"x","entry":"20261121T100000Z","status":"someday","uuid":"a1b2c3d4-0000-4000-8000-000000000009"}"#
        let text = TaskwarriorSample.pending + "\n\n" + bad + "\n"
        let error = try #require(parseError(text))
        #expect(error.description.contains("line 3"), "\(error)")
    }
}
