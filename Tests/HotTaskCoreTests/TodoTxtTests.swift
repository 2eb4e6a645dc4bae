import Foundation
import Testing

@testable import HotTaskCore

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
        #expect(batch.tasks.map(\.caption) == ["Call mom", "Buy milk", "Pay rent", "Read a book"])
        #expect(batch.tasks.map(\.tags) == [["@phone"], ["groceries"], ["home"], []])
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

    /// A line's text is kept as it came, but for what would act on a terminal; a line of only
    /// its marks is a task without a title (as such a task exports).
    @Test func captionsAreKeptButNeverCarryEscapes() throws {
        let tasks = try batch("(A) Evil \u{1B}[31mred\u{202E}\tand\ttabbed\nx 2026-11-20 2026-11-01\n").tasks
        #expect(tasks.map(\.caption) == ["Evil red\tand\ttabbed", ""])
        #expect(throws: DocumentError.self) { try TodoTxtFormat.batch(from: [0x41, 0xFF, 0x0A]) }
    }

    /// LF, CRLF and CR CR LF (a CRLF file converted once more) all end a line: no caption ends
    /// in a CR, and the next import finds the same tasks.
    @Test func everyLineEndingGivesTheSameCaptions() throws {
        for ending in ["\n", "\r\n", "\r\r\n"] {
            let tasks = try batch(["Buy milk", "x 2026-11-20 Call mum +family", ""].joined(separator: ending)).tasks
            #expect(tasks.map(\.caption) == ["Buy milk", "Call mum"], "\(Array(ending.unicodeScalars))")
            #expect(tasks.map(\.tags) == [[], ["family"]])
        }
    }

    @Test func aLineIsACommentOnlyWhenItsFirstCharacterIsHash() throws {
        // `#️⃣` starts with the byte `#` but is another character: a task, as it always was.
        let tasks = try batch("# a comment\n#️⃣ Call Bob\n  # indented comment\n").tasks
        #expect(tasks.map(\.caption) == ["#️⃣ Call Bob"])
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
        #expect(
            TodoTxtFormat.text(for: list) == """
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

    // MARK: Issue 28: lines todo.sh and hand edits leave

    /// A list made by importing `text` at `now`, with the import base that import leaves.
    private func imported(_ text: String, at now: Date) throws -> (TaskList, ImportBase) {
        let batch = TaskList().resolvingIdentity(of: try TodoTxtFormat.batch(from: Array(text.utf8), now: now))
        var base = ImportBase()
        base.record(ImportBase.Said(batch.tasks))
        return (TaskList(batch.tasks), base)
    }

    @Test func anUndatedLineCompletedHereIsNotAddedAgainByTheSameFile() throws {
        let text = "Read a book\n(A) Call mom\n"
        let (importedList, base) = try imported(text, at: now)
        var list = importedList
        let book = list.all.first { $0.caption == "Read a book" }!
        _ = list.apply(
            .set(book.id, TaskFields(completed: true, completedAt: now.addingTimeInterval(60)), was: TaskFields()),
            clock: Clock(milliseconds: 1_795_000_060_000))
        // The same file a day later: its undated lines are "written" now, after the completion.
        let again = try TodoTxtFormat.batch(from: Array(text.utf8), now: now.addingTimeInterval(86_400))
        let resolved = list.resolvingIdentity(of: again, base: base)
        #expect(Set(resolved.tasks.map(\.id)) == Set(list.all.map(\.id)), "no duplicate")
        for merge in [base, ImportBase()] {
            let (changes, counts) = list.importing(resolved, base: merge, dates: .runningNow)
            #expect(changes.isEmpty && counts.unchanged == 2, "the completion stays: \(counts)")
        }
        // The same undated caption as a chore only ever done here (no file said it): a new task.
        let chore = TaskList([TaskItem(caption: "Read a book", section: .bonus, completed: true, createdAt: now, completedAt: now)])
        #expect(chore.task(withID: chore.resolvingIdentity(of: again, base: base).tasks[0].id) == nil)
    }

    @Test func aCompletedLineWithoutPriorityKeepsItsTaskInTopPriority() throws {
        let (list, base) = try imported("(A) 2026-11-01 Call mom\n2026-11-02 Buy milk\n", at: now)
        // todo.sh 2.11's `do` drops "(A) " and writes no pri:A.
        let done = try TodoTxtFormat.batch(from: Array("x 2026-11-25 2026-11-01 Call mom\n2026-11-02 Buy milk\n".utf8), now: now)
        let resolved = list.resolvingIdentity(of: done, base: base)
        #expect(resolved.tasks[0].section == .priority)
        let (changes, counts) = list.importing(resolved, base: base, dates: .runningNow)
        #expect(counts.updated == 1 && changes.count == 1)
        if case .set(_, let fields, _) = changes[0] {
            #expect(fields.completed == true && fields.section == nil)
        }
        // A new completed line without priority goes to Bonus, as before.
        #expect(try TodoTxtFormat.batch(from: Array("x 2026-11-25 Paid\n".utf8)).tasks[0].section == .bonus)
    }

    @Test func todoShsArchiveIsReadAfterTheFileAndOnlyBesideATodoTxt() throws {
        let batch = try TodoTxtFormat.batch(
            files: [("todo.txt", Array("2026-11-02 Buy milk\n".utf8)), ("done.txt", Array("\nx 2026-11-25 2026-11-01 Call mom\n".utf8))], now: now)
        #expect(batch.tasks.map(\.caption) == ["Buy milk", "Call mom"])
        #expect(batch.tasks[1].completed)
        #expect(batch.todoTxtLines?.place(of: 1) == "done.txt line 2")
        #expect(TodoTxtFormat.archivePath(besides: "/home/me/todo/todo.txt") == "/home/me/todo/done.txt")
        #expect(TodoTxtFormat.archivePath(besides: "todo.txt") == "done.txt")
        #expect(TodoTxtFormat.archivePath(besides: "/home/me/shopping.txt") == nil)
    }

    @Test func aLineThatLostItsTagIsFoundByItsPlaceAndDate() throws {
        let created = try #require(Timestamp.parse("2026-11-02T09:00:00Z"))
        let list = TaskList([
            TaskItem(caption: "Call mom", section: .priority, createdAt: created),
            TaskItem(caption: "Buy milk", section: .bonus, createdAt: created.addingTimeInterval(86_400)),
            TaskItem(caption: "Walk dog", section: .bonus, createdAt: created),
        ])
        var base = ImportBase()
        base.record(ImportBase.Said(list.all))
        let ids = list.shortIDs()
        // `todo.sh replace 2 "Buy oat milk"` keeps the date and drops the tag.
        let replaced = try TodoTxtFormat.batch(
            from: Array("(A) 2026-11-02 Call mom id:\(ids[0])\n2026-11-03 Buy oat milk\n2026-11-02 Walk dog id:\(ids[2])\nSomething new\n".utf8),
            now: now)
        let resolved = list.resolvingIdentity(of: replaced, base: base)
        #expect(resolved.tasks[1].id == list.all[1].id)
        #expect(list.task(withID: resolved.tasks[3].id) == nil)
        #expect(resolved.todoTxtLines?.notes == [])
        // Two lines lost their tags where two tasks were, and neither date tells: a note, no guess.
        let unclear = try TodoTxtFormat.batch(from: Array("Call mum\nBuy oat milk\n2026-11-02 Walk dog id:\(ids[2])\n".utf8), now: now)
        let guessed = list.resolvingIdentity(of: unclear, base: base)
        #expect(guessed.tasks[0..<2].allSatisfy { list.task(withID: $0.id) == nil })
        let notes = guessed.todoTxtLines?.notes ?? []
        #expect(notes.count == 2)
        #expect(notes.first?.hasPrefix("todo.txt line 1 'Call mum' has no id: tag") == true, "\(notes)")
    }

    @Test func aRepeatedIdIsImportedOnceAndReportedWithItsLines() throws {
        let text = "2026-11-02 Buy milk id:1a2b3c4d\n\n2026-11-02 Walk dog id:1a2b3c4d\n"
        let batch = try TodoTxtFormat.batch(from: Array(text.utf8), now: now)
        #expect(batch.tasks.map(\.caption) == ["Buy milk"])
        #expect(batch.todoTxtLines?.notes == ["todo.txt line 1 and line 3 have the same id:1a2b3c4d; imported once, as todo.txt line 1"])
        // The same line again in todo.sh's archive (it archived a line HotTask exported again).
        let copy = try TodoTxtFormat.batch(
            files: [
                ("todo.txt", Array("x 2026-11-20 2026-11-02 Buy milk pri:A id:1a2b3c4d\n".utf8)),
                ("done.txt", Array("x 2026-11-20 2026-11-02 Buy milk id:1a2b3c4d\n".utf8)),
            ], now: now)
        #expect(copy.tasks.count == 1 && copy.todoTxtLines?.notes == [])
    }

    @Test func aFileWhoseLinesAllLostTheirTagsGivesAFewNotesNotThousands() throws {
        let created = try #require(Timestamp.parse("2026-11-02T09:00:00Z"))
        let list = TaskList((0..<3_000).map { TaskItem(caption: "Task \($0)", section: .bonus, createdAt: created) })
        var base = ImportBase()
        base.record(ImportBase.Said(list.all))
        let text = (0..<3_000).map { "2026-11-02 Renamed \($0)" }.joined(separator: "\n")
        let resolved = list.resolvingIdentity(of: try TodoTxtFormat.batch(from: Array(text.utf8), now: now), base: base)
        #expect(resolved.tasks.allSatisfy { list.task(withID: $0.id) == nil })
        let notes = resolved.todoTxtLines?.notes ?? []
        #expect(notes.count == 11)
        #expect(notes.last == "2990 more lines have no id: tag and stand where lines are gone; imported as new tasks")
    }
}
