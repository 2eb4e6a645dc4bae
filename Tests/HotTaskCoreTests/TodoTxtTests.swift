import Foundation
import HotTaskCore
import Testing

@Suite("todo.txt import and export")
struct TodoTxtTests {
    private let now = Date(timeIntervalSince1970: 1_795_000_000)

    private func batch(_ text: String) throws -> ImportBatch {
        try ImportBatch.parse(Array(text.utf8))
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
        #expect(TodoTxtFormat.text(for: list) == """
            (A) 2026-11-01 Call mom
            x 2026-11-20 2026-11-01 Buy milk pri:A
            2026-11-01 Read a book @home
            x 2026-11-20 2026-11-01 x marks the spot

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
        #expect(TodoTxtFormat.text(for: TaskList(imported.tasks)) == text)
    }
}
