import Foundation
import Seeded
import TestSupport
import Testing

@testable import HotTaskCore

/// What a todo.txt file never had, or had in its own order, survives its trips (issue 52): a
/// note made here, the words of a line where they stood, a `rec:` line without `due:`, and
/// each `do` of a repeating line, archived or not. Then the property: an untouched line of
/// any shape comes back byte for byte, and what the format cannot keep is said.
@Suite("todo.txt keeps what it had and never deletes what it had not")
struct TodoTxtKeptTests {
    let folder = TemporaryFolder()
    var store: TaskStore { TaskStore(path: folder.storePath) }
    private let now = Date(timeIntervalSince1970: 1_795_946_400)  // 2026-11-29T10:00:00Z

    /// A list and what its todo.txt trips left beside it, as `--import` and `--export` keep them.
    struct Side {
        var list = TaskList()
        var base = ImportBase()
        var carried = CarriedFields()
        var clock = Clock(milliseconds: 1_795_946_400_000)

        /// Imports `text` as todo.txt (its archive done.txt after it, when given) at `now`.
        mutating func importing(_ text: String, done: String? = nil, now: Date) throws -> ImportCounts {
            let files = [("todo.txt", Array(text.utf8))] + (done.map { [("done.txt", Array($0.utf8))] } ?? [])
            let resolved = list.resolvingIdentity(of: try TodoTxtFormat.batch(files: files, now: now), base: base)
            let (changes, counts) = list.importing(resolved, base: base, dates: .runningNow)
            clock = Clock(milliseconds: clock.milliseconds + 2000)
            for change in changes { _ = list.apply(change, clock: clock) }
            base.record(ImportBase.Said(resolved.tasks))
            carried.record(.todoTxt, tasks: resolved.tasks, records: resolved.carried)
            return counts
        }

        /// The todo.txt text of the list, recorded as the base of the next import.
        mutating func exported() -> String {
            let text = TodoTxtFormat.text(for: list, carried: carried)
            base.record(ImportBase.Said(list.all))
            return text
        }

        mutating func change(_ caption: String, _ fields: TaskFields) throws {
            let task = try #require(list.all.first { $0.caption == caption })
            clock = Clock(milliseconds: clock.milliseconds + 2000)
            _ = list.apply(.set(task.id, fields, was: fields.values(in: task)), clock: clock)
        }
    }

    /// The `id:` tag of the text's first line.
    private func tag(_ text: String) -> String { text.firstMatch(of: #/id:[0-9a-f]+/#).map { String($0.output) } ?? "" }

    private func withoutIDs(_ text: String) -> String { text.replacing(#/ id:[0-9a-f]+\n/#, with: "\n") }

    @Test func aNoteMadeHereSurvivesItsExportedFileComingBack() throws {
        var side = Side()
        _ = try side.importing("2026-11-01 Call mom\n", now: now)
        try side.change("Call mom", TaskFields(note: "Her new number"))
        let written = side.exported()
        #expect(try side.importing(written, now: now) == ImportCounts(unchanged: 1))
        // Done in todo.sh: the completion arrives, the note stays.
        let done = written.replacingOccurrences(of: "2026-11-01", with: "x 2026-11-29 2026-11-01")
        #expect(try side.importing(done, now: now) == ImportCounts(updated: 1))
        #expect(side.list.all.map(\.note) == ["Her new number"] && side.list.all.map(\.completed) == [true])
    }

    @Test func wordsComeBackWhereTheyStoodUntilTheTaskChanges() throws {
        var side = Side()
        let lines = "Plan +garden party @home with +family\ndue:2030-12-01 Pay +home rent rec:+1m\n"
        _ = try side.importing(lines, now: now)
        #expect(side.list.all.map(\.caption) == ["Plan party with", "Pay rent"])
        #expect(withoutIDs(side.exported()) == lines)
        try side.change("Plan party with", TaskFields(tags: ["garden", "@home"]))
        #expect(withoutIDs(side.exported()) == "Plan party with +garden @home\ndue:2030-12-01 Pay +home rent rec:+1m\n")
    }

    @Test func aTagWithASpaceGoesOutWithAnUnderscoreAndComesBackAsItWas() throws {
        var side = Side()
        _ = try side.importing("Call mom\n", now: now)
        try side.change("Call mom", TaskFields(tags: ["family time"]))
        let written = side.exported()
        #expect(withoutIDs(written) == "Call mom +family_time\n")
        #expect(try side.importing(written, now: now) == ImportCounts(unchanged: 1))
        #expect(side.list.all.map(\.tags) == [["family time"]])
    }

    @Test func aRecordSaysWhatItCarriesAndReadsBackTheSame() {
        var record = TodoTxtRecord(letter: "B", undated: true, archived: false)
        record.assumedDue = "2026-11-29"
        record.words = (0x1234_5678_9abc_def0, "Plan +garden party @home a b")
        record.doneLines = ["x 2026-11-29 Pay rent due:2030-12-01 rec:+1m id:1a2b3c4d"]
        #expect(
            record.text
                == "B undated nodue:2026-11-29 as:123456789abcdef0 Plan +garden party @home a b\nx 2026-11-29 Pay rent due:2030-12-01 rec:+1m id:1a2b3c4d"
        )
        #expect(TodoTxtRecord(record.text) == record)
        #expect(TodoTxtRecord(record.text).letter == "B", "a one-letter word among the line's words is no letter")
        #expect(TodoTxtRecord("B archived") == TodoTxtRecord(letter: "B", archived: true), "as a HotTask from before wrote it")
    }

    @Test func aRepeatingLineWithoutDueGetsNoneOnTheDayItCameOrLater() throws {
        var side = Side()
        _ = try side.importing("Stretch rec:1d\n", now: now)
        let written = side.exported()
        #expect(withoutIDs(written) == "Stretch rec:1d\n")
        let nextDay = now.addingTimeInterval(86_400)
        #expect(try side.importing(written, now: nextDay) == ImportCounts(unchanged: 1))
        #expect(side.exported() == written)
        #expect(side.list.all.map(\.due) == [DueDate(text: "2026-11-29")])
    }

    /// todo.sh's `do` on a repeating line twice, archived in done.txt: the latest done line
    /// counts, and one done there for an occurrence already done here changes nothing.
    @Test func theLatestDoneLineOfARepeatingTaskCounts() throws {
        var side = Side()
        _ = try side.importing("Pay rent due:2030-12-01 rec:+1m\n", now: now)
        let id = tag(side.exported())
        var done = "x 2026-11-29 Pay rent due:2030-12-01 rec:+1m \(id)\n"
        #expect(try side.importing("", done: done, now: now) == ImportCounts(updated: 1))
        _ = side.exported()
        done += "x 2026-11-29 Pay rent due:2031-01-01 rec:+1m \(id)\n"
        #expect(try side.importing("", done: done, now: now) == ImportCounts(updated: 1))
        #expect(side.list.all.map(\.due) == [DueDate(text: "2031-02-01")])
        // Done here (on to March), then the February line done in todo.sh: the same occurrence.
        let rent = side.list.all[0]
        let next = try #require(ChangeRules.nextOccurrence(of: rent, doneOn: DueDate.localDay(of: Date(), in: .current)))
        try side.change("Pay rent", TaskFields(due: .some(next.due)))
        done += "x 2026-11-29 Pay rent due:2031-02-01 rec:+1m \(id)\n"
        #expect(try side.importing("", done: done, now: now) == ImportCounts(unchanged: 1))
        #expect(side.list.all.map(\.due) == [DueDate(text: "2031-03-01")])
    }

    /// A rule counted from the day done moves on from the line's day, as completing here that
    /// day does, even from a due date further on.
    @Test func aRuleCountedFromTheDayDoneMovesOnFromTheLinesDay() throws {
        var side = Side()
        _ = try side.importing("Water plants due:2030-12-01 rec:1w\n", now: now)
        let id = tag(side.exported())
        let here = try #require(ChangeRules.nextOccurrence(of: side.list.all[0], doneOn: DueDate(text: "2026-11-29")!.days))
        let done = "x 2026-11-29 Water plants due:2030-12-01 rec:1w \(id)\n"
        #expect(try side.importing("", done: done, now: now) == ImportCounts(updated: 1))
        #expect(side.list.all.map(\.due) == [here.due] && !side.list.all[0].completed)
    }

    /// Without auto-archive, `do` leaves the done line in todo.txt: the export keeps it there,
    /// before the next occurrence's line, until todo.sh archives it.
    @Test func aDoneLineLeftInTodoTxtIsWrittenBackUntilArchived() throws {
        var side = Side()
        _ = try side.importing("Pay rent due:2030-12-01 rec:+1m\n", now: now)
        let id = tag(side.exported())
        let done = "x 2026-11-29 Pay rent due:2030-12-01 rec:+1m \(id)\n"
        #expect(try side.importing(done, now: now) == ImportCounts(updated: 1))
        let written = side.exported()
        #expect(written == done + "Pay rent due:2031-01-01 rec:+1m \(id)\n")
        #expect(try side.importing(written, now: now) == ImportCounts(unchanged: 1))
        #expect(side.exported() == written)
        // todo.sh archive moves it to done.txt: todo.txt has the open line alone.
        #expect(try side.importing("Pay rent due:2031-01-01 rec:+1m \(id)\n", done: done, now: now) == ImportCounts(unchanged: 1))
        #expect(side.exported() == "Pay rent due:2031-01-01 rec:+1m \(id)\n")
    }
}
