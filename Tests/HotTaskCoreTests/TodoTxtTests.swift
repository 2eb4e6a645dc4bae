import Foundation
import HotTaskCore
import Testing

@Suite("todo.txt import and export")
struct TodoTxtTests {
    private let now = Date(timeIntervalSince1970: 1_795_000_000)

    private func batch(_ text: String) throws -> ImportBatch {
        try ImportBatch.parse(Array(text.utf8), fileName: "todo.txt")
    }

    @Test func aTodoTxtFileIsDetectedAndRead() throws {
        let batch = try batch(
            """
            (A) 2026-11-01 Call mom @phone
            (B) Buy milk +groceries

            x 2026-11-20 2026-11-01 Pay rent +home
            Read a book
            """)
        #expect(batch.format == .todoTxt)
        #expect(batch.tasks.map(\.caption) == ["Call mom @phone", "Buy milk +groceries", "Pay rent +home", "Read a book"])
        #expect(batch.tasks.map(\.section) == [.priority, .bonus, .bonus, .bonus])
        #expect(batch.tasks.map(\.completed) == [false, false, true, false])
        #expect(Timestamp.format(batch.tasks[0].createdAt) == "2026-11-01T00:00:00Z")
        #expect(batch.tasks[2].completedAt.map(Timestamp.format) == "2026-11-20T00:00:00Z")
        #expect(Timestamp.format(batch.tasks[2].createdAt) == "2026-11-01T00:00:00Z")
    }

    @Test func completedTasksTakeOptionalDatesAndKeepPriorityAsATag() throws {
        let tasks = try TodoTxtFormat.batch(
            from: Array("x Done without dates\nx 2026-11-20 Done once\nx 2026-11-20 2026-11-02 Urgent pri:A\n".utf8), now: now
        ).tasks
        #expect(tasks.map(\.caption) == ["Done without dates", "Done once", "Urgent"])
        #expect(tasks[0].completedAt == now)
        #expect(tasks[1].createdAt == tasks[1].completedAt)
        #expect(tasks[2].section == .priority)
        #expect(tasks.allSatisfy { $0.completed })
    }

    @Test func captionsPassTheCaptionRule() throws {
        let tasks = try batch("(A) Evil \u{1B}[31mred\u{202E}\n").tasks
        #expect(tasks.map(\.caption) == ["Evil [31mred"])
        #expect(throws: DocumentError.self) { try batch("x 2026-11-20 2026-11-01\n") }
        #expect(throws: DocumentError.self) { try TodoTxtFormat.batch(from: [0x41, 0xFF, 0x0A]) }
    }

    @Test func importingTheSameFileTwiceGivesTheSameIds() throws {
        let text = "(A) Call mom\nBuy milk\nBuy milk\n"
        let first = try batch(text).tasks.map(\.id)
        #expect(Set(first).count == 3)
        #expect(try batch(text).tasks.map(\.id) == first)
    }

    @Test func theExportWritesPriorityCompletionAndCreationDates() throws {
        let created = Timestamp.parse("2026-11-01T10:00:00Z") ?? now
        let finished = Timestamp.parse("2026-11-20T18:00:00Z") ?? now
        let list = TaskList([
            TaskItem(caption: "Call mom", section: .priority, createdAt: created),
            TaskItem(caption: "Buy milk", section: .priority, completed: true, createdAt: created, completedAt: finished),
            TaskItem(caption: "Read a book @home", section: .bonus, createdAt: created),
            TaskItem(caption: "x marks the spot", section: .bonus, completed: true, createdAt: created, completedAt: finished),
        ])
        let ids = list.shortIDs()
        #expect(TodoTxtFormat.text(for: list) == """
            (A) 2026-11-01 Call mom id:\(ids[0])
            x 2026-11-20 2026-11-01 Buy milk pri:A id:\(ids[1])
            2026-11-01 Read a book @home id:\(ids[2])
            x 2026-11-20 2026-11-01 x marks the spot id:\(ids[3])

            """)
    }

    @Test func aRoundTripGivesTheSameLines() throws {
        let text = """
            (A) 2026-11-01 Call mom @phone
            x 2026-11-20 2026-11-01 Buy milk +groceries pri:A
            2026-11-03 Read a book
            x 2026-11-21 2026-11-04 Walk the dog

            """
        let imported = try batch(text)
        let list = TaskList(imported.tasks)
        let exported = TodoTxtFormat.text(for: list)
        let withoutTags = exported.replacingOccurrences(of: #" id:[0-9a-f-]+"#, with: "", options: .regularExpression)
        #expect(withoutTags == text)
        // Read back, each line finds its task by the id tag, even with its caption edited.
        let edited = try batch(exported.replacingOccurrences(of: "Read a book", with: "Read two books"))
        #expect(list.resolvingIdentity(of: edited).tasks.map(\.id) == list.all.map(\.id))
    }

    @Test func aLineWithoutATagFindsTheTaskWithItsCaptionWhateverItsMarks() throws {
        let list = TaskList(try batch("(A) 2026-11-01 Call mom\n2026-11-02 Buy milk\n").tasks)
        let ticked = try batch("x 2026-11-20 Buy milk\nCall mom\nSomething new\n")
        let resolved = list.resolvingIdentity(of: ticked).tasks
        #expect(resolved[0].id == list.all[1].id)
        #expect(resolved[1].id == list.all[0].id)
        #expect(list.task(withID: resolved[2].id) == nil)
    }

    @Test func aNewLineWithATakenCaptionNeverSharesAnIDAndAChoreDoneLongAgoIsNotReopened() throws {
        let old = try #require(Timestamp.parse("2026-11-02T00:00:00Z"))
        let list = TaskList([
            TaskItem(caption: "Buy milk", section: .priority, createdAt: old),
            TaskItem(caption: "Take out trash", section: .bonus, completed: true, createdAt: old, completedAt: old),
        ])
        let tag = list.shortIDs()[0]
        let lines = try batch("Buy oat milk id:\(tag)\nBuy milk\n2026-11-23 Take out trash\n")
        let resolved = list.resolvingIdentity(of: lines).tasks
        #expect(resolved[0].id == list.all[0].id)
        #expect(Set(resolved.map(\.id)).count == 3)
        #expect(list.task(withID: resolved[1].id) == nil)
        #expect(list.task(withID: resolved[2].id) == nil, "an open line written after the chore was done is a new task")
    }

    @Test func onlyAFileNamedTxtOrAnExplicitFormatIsReadAsTodoTxt() throws {
        let key = Array("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----\n".utf8)
        #expect(throws: DocumentError.self) { try ImportBatch.parse(key) }
        #expect(throws: DocumentError.self) { try ImportBatch.parse(key, fileName: "id_ed25519") }
        #expect(try ImportBatch.parse(key, as: .todoTxt).tasks.count == 3)
        #expect(try ImportBatch.parse(Array("Buy milk\n".utf8), fileName: "TODO.TXT").format == .todoTxt)
    }
}
