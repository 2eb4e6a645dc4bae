import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Activity history")
struct ActivityHistoryTests {
    let folder = TemporaryFolder()
    private var store: TaskStore { TaskStore(path: folder.storePath) }
    private let utc = ZoneInfo(identifier: "UTC")!

    /// Each local day's counts as `date: added/completed`, days with neither left out.
    private func days(_ activity: ActivityHistory, in zone: ZoneInfo? = nil) -> [String] {
        activity.days(in: zone ?? utc).sorted { $0.key < $1.key }.filter { !($0.value.added == 0 && $0.value.completed == 0) }.map {
            "\(Statistics.date($0.key)): \($0.value.added)/\($0.value.completed)"
        }
    }

    private func record(_ changes: [TaskChange], what: String, at date: Date, undoes: Clock? = nil) -> LogRecord {
        LogRecord(
            generation: Generation("0123456789abcdef")!, clock: Clock.next(after: .zero, now: date), what: what, undoes: undoes, changes: changes)
    }

    @Test("adds count on their day, completions on their completedAt, reopening and undo take them back, deletes keep them")
    func countingRule() throws {
        let task = Fixtures.task("Write", id: 1)
        let completedAt = Fixtures.date(hours: 48)
        var activity = ActivityHistory(counting: [
            record([.add(task)], what: "Added", at: Fixtures.date(hours: 0)),
            record(
                [.set(task.id, TaskFields(completed: true, completedAt: completedAt), was: TaskFields(completed: false))], what: "Completed: Write",
                at: completedAt),
        ])
        #expect(days(activity) == ["2026-11-21: 1/0", "2026-11-23: 0/1"])
        // Deleted: the history stays.
        activity.count(record([.delete(task)], what: "Deleted: Write", at: Fixtures.date(hours: 50)))
        #expect(days(activity) == ["2026-11-21: 1/0", "2026-11-23: 0/1"])
        // The delete undone brings the task back: not a new add.
        activity.count(
            record(
                [.add(task)], what: "Undo: Deleted: Write", at: Fixtures.date(hours: 51),
                undoes: Clock.next(after: .zero, now: Fixtures.date(hours: 50))))
        #expect(days(activity) == ["2026-11-21: 1/0", "2026-11-23: 0/1"])
        // Reopened (or the completion undone): its count goes from the day it was done.
        activity.count(
            record(
                [.set(task.id, TaskFields(completed: false), was: TaskFields(completed: true, completedAt: completedAt))],
                what: "Undo: Completed: Write", at: Fixtures.date(hours: 72)))
        #expect(days(activity) == ["2026-11-21: 1/0"])
        // The add undone: its count goes too.
        activity.count(
            record([.delete(task)], what: "Undo: Added", at: Fixtures.date(hours: 73), undoes: Clock.next(after: .zero, now: Fixtures.date(hours: 0)))
        )
        #expect(days(activity) == [])
    }

    @Test("an import's or a phone's done task counts on its own completion date; a moved COMPLETED moves its count")
    func completedElsewhere() {
        let done = Fixtures.task("Filed", id: 2, completed: true, hours: -100, modifiedHours: -30)
        var activity = ActivityHistory(counting: [record([.add(done)], what: "Imported from tw.json", at: Fixtures.date(hours: 0))])
        #expect(days(activity) == ["2026-11-17: 1/0", "2026-11-20: 0/1"])
        let moved = Fixtures.date(hours: -60)
        activity.count(
            record(
                [.set(done.id, TaskFields(completed: true, completedAt: moved), was: TaskFields(completed: true, completedAt: done.completedAt))],
                what: "sync with https://dav", at: Fixtures.date(hours: 1)))
        #expect(days(activity) == ["2026-11-17: 1/0", "2026-11-18: 0/1"])
    }

    @Test("completing a repeating task counts each time, and its undo takes one back")
    func repeatingCompletions() {
        let id = Fixtures.id(3)
        var activity = ActivityHistory()
        for step in 0..<3 {
            let at = Fixtures.date(hours: 24 * step)
            let change = TaskChange.set(
                id, TaskFields(due: .some(DueDate.day(20_780 + step + 1))), was: TaskFields(due: .some(DueDate.day(20_780 + step))))
            activity.count(record([change], what: "Completed: Water plants (repeats every day; next: tomorrow)", at: at))
        }
        #expect(days(activity) == ["2026-11-21: 0/1", "2026-11-22: 0/1", "2026-11-23: 0/1"])
        let undo = TaskChange.set(id, TaskFields(due: .some(DueDate.day(20_783))), was: TaskFields(due: .some(DueDate.day(20_782))))
        activity.count(
            record(
                [undo], what: "Undo: Completed: Water plants (repeats every day; next: tomorrow)", at: Fixtures.date(hours: 60),
                undoes: Clock.next(after: .zero, now: Fixtures.date(hours: 48))))
        #expect(days(activity) == ["2026-11-21: 0/1", "2026-11-22: 0/1"])
        // A due date moved by hand is no completion.
        activity.count(record([undo], what: "Due: Water plants", at: Fixtures.date(hours: 61)))
        #expect(days(activity) == ["2026-11-21: 0/1", "2026-11-22: 0/1"])
    }

    @Test("quarter-hours of UTC give each zone its own local days")
    func zones() {
        var activity = ActivityHistory()
        // 2026-11-21 03:30 UTC is still the 20th in New York, and 09:00 on the 21st in Kathmandu (+5:45).
        activity.tally(completed: 1, at: Fixtures.date(hours: -7).addingTimeInterval(1800))
        activity.tally(completed: 1, at: Fixtures.date(hours: 8).addingTimeInterval(1800 + 900))
        #expect(days(activity) == ["2026-11-21: 0/2"])
        #expect(days(activity, in: ZoneInfo(identifier: "America/New_York")!) == ["2026-11-20: 0/1", "2026-11-21: 0/1"])
        #expect(days(activity, in: ZoneInfo(identifier: "Asia/Kathmandu")!) == ["2026-11-21: 0/1", "2026-11-22: 0/1"])
    }

    @Test("the text reads back as written, and anything else is refused")
    func text() {
        var activity = ActivityHistory()
        activity.tally(added: 3, at: Fixtures.date(hours: 0))
        activity.tally(completed: 2, at: Fixtures.date(hours: 1))
        activity.tally(added: -1, at: Fixtures.date(hours: -200_000 * 24))
        #expect(activity.text == "-17205272:-1:0 19200000:3:0 4:0:2")
        #expect(ActivityHistory(text: activity.text) == activity)
        for bad in ["1:2", "1:2:x", "5:1:1 0:1:1", "5:1:1 -2:1:1", "a b c", "1:2:3:4", "1::2", "1:2:3x", "1099511627776:1:1", "1:-:1"] {
            #expect(ActivityHistory(text: bad) == nil, "\(bad)")
        }
        #expect(ActivityHistory(text: "") == ActivityHistory())
        // Signs and runs of spaces read as `Int(_:)` and the split read them; zero counts are left out.
        #expect(ActivityHistory(text: " +1:2:3  4:-5:6 1:0:0 ") == ActivityHistory(text: "1:2:3 4:-5:6"))
        #expect(ActivityHistory(text: "1:2:3 4:-5:6")?.text == "1:2:3 4:-5:6")
    }

    @Test("a year of heavy use: 56 adds and 36 completions a day over 24 quarter-hours keeps the history under 80 KB (53 KB)")
    func yearOfHeavyUse() {
        var activity = ActivityHistory()
        for day in 0..<365 {
            for slot in 0..<24 {
                let at = Fixtures.date(hours: day * 24 + 7).addingTimeInterval(TimeInterval(slot * 2_400))
                activity.tally(added: slot % 3 == 0 ? 5 : 1, completed: slot % 4 == 0 ? 3 : 1, at: at)
            }
        }
        let bytes = activity.text.utf8.count
        #expect(bytes < 80_000, "\(bytes) bytes")
        #expect(ActivityHistory(text: activity.text) == activity)
        // Ten daily tasks, each done every day of the year, kept by task: under 40 KB more.
        for task in 0..<10 {
            for day in 0..<365 {
                activity.tallyOccurrence(of: Fixtures.task("Daily", id: task, hours: 0).id, 1, at: Fixtures.date(hours: day * 24 + 8))
            }
        }
        let occurrences = activity.occurrencesText.utf8.count
        #expect(occurrences < 40_000, "\(occurrences) bytes")
    }

    @Test("the history survives deletes, a fold, a big import that lets its changes go, and an undo takes a completion back")
    func survivesTheStore() throws {
        let first = Fixtures.task("Plan", id: 1, hours: 0)
        let second = Fixtures.task("Ship", id: 2, hours: 24)
        try store.commit([.add(first)], what: "Added: Plan", now: Fixtures.date(hours: 0))
        try store.commit([.add(second)], what: "Added: Ship", now: Fixtures.date(hours: 24))
        try store.commit(
            [.set(first.id, TaskFields(completed: true, completedAt: Fixtures.date(hours: 25)), was: TaskFields(completed: false))],
            what: "Completed: Plan", now: Fixtures.date(hours: 25))
        let expected = ["2026-11-21: 1/0", "2026-11-22: 1/1"]
        #expect(days(try store.read().activity) == expected)
        try store.commit([.delete(first), .delete(second)], what: "Deleted: Plan; Deleted: Ship", now: Fixtures.date(hours: 26))
        #expect(days(try store.read().activity) == expected)
        try store.compact()
        #expect(days(try store.read().activity) == expected)
        // An import too large to keep for undo: its changes are let go as it is folded.
        let imported = (0..<5_000).map { Fixtures.task("Imported \($0)", id: 100 + $0, completed: $0 < 10, hours: 48) }
        let committed = try store.commit(imported.map { .add($0) }, what: "Imported from big.json", now: Fixtures.date(hours: 49))
        #expect(committed.compacted && committed.record?.changesLetGo == true)
        #expect(days(try store.read().activity) == expected + ["2026-11-23: 5000/10"])
        // The strict reader reads the same history as the fast one.
        let bytes = try #require(fileBytes(folder.storePath))
        #expect(try StoreDocument.decodeStrictly(bytes).activity == StoreDocument.decode(bytes).activity)
        // An undo of a completion takes its count back.
        let third = Fixtures.task("Call", id: 3, hours: 50)
        try store.commit([.add(third)], what: "Added: Call", now: Fixtures.date(hours: 50))
        try store.commit(
            [.set(third.id, TaskFields(completed: true, completedAt: Fixtures.date(hours: 51)), was: TaskFields(completed: false))],
            what: "Completed: Call", now: Fixtures.date(hours: 51))
        #expect(days(try store.read().activity).last == "2026-11-23: 5001/11")
        _ = try store.undoLastChange()
        #expect(days(try store.read().activity).last == "2026-11-23: 5001/10")
    }

    @Test("a phone's task counts as added on its CREATED day and completed on its COMPLETED day, through a sync")
    func phoneThroughSync() throws {
        let server = InMemoryCalendar()
        server.store("/calendar/phone-1.ics", SyncEngineTests.phoneObject(uid: "phone-1", summary: "Renew passport", priority: nil))
        let now = Fixtures.date(hours: 120)
        _ = try SyncEngine(store: store, collection: server, now: { now }).run()
        server.edit("/calendar/phone-1.ics", "STATUS", "COMPLETED", now: now)
        server.edit("/calendar/phone-1.ics", "COMPLETED", "20261122T230000Z", now: now)
        _ = try SyncEngine(store: store, collection: server, now: { now + 60 }).run()
        #expect(try store.load().all.first?.completed == true)
        #expect(days(try store.read().activity) == ["2026-11-20: 1/0", "2026-11-22: 0/1"])
        #expect(days(try store.read().activity, in: ZoneInfo(identifier: "Europe/Berlin")!) == ["2026-11-20: 1/0", "2026-11-23: 0/1"])
    }

    @Test("statistics: today, this week from Monday, this month, open, overdue and the oldest open task, in the zone given")
    func statistics() {
        var activity = ActivityHistory()
        // Saturday 2026-11-21; the week started Monday the 16th; the month on the 1st.
        for (hours, count) in [(0, 2), (-24 * 5, 1), (-24 * 6, 4), (-24 * 19, 8), (-24 * 21, 16)] {
            activity.tally(added: 1, completed: count, at: Fixtures.date(hours: hours))
        }
        var late = Fixtures.task("Late", id: 1, hours: -30)
        late.due = DueDate.day(DueDate.localDay(of: Fixtures.date(hours: -24), in: utc))
        let list = TaskList([late, Fixtures.task("Oldest", id: 2, hours: -500), Fixtures.task("Done", id: 3, completed: true, hours: -900)])
        let stats = Statistics.of(list, activity: activity, dates: DueDisplay(now: Fixtures.date(hours: 1), local: utc))
        #expect(stats.completedToday == 2)
        #expect(stats.completedThisWeek == 3)
        #expect(stats.completedThisMonth == 15)
        #expect(stats.open == 2 && stats.overdue == 1)
        #expect(stats.oldestOpen?.caption == "Oldest")
        #expect(stats.days.first?.date == "2026-10-31" && stats.days.last?.date == "2026-11-21" && stats.days.count == 22)
        #expect(Array(stats.lastDays(7).map(\.completed)) == [4, 1, 0, 0, 0, 0, 2])
    }

    /// A repeating task's occurrences done are kept beside the counts (`"steps"`, which older
    /// HotTasks read past), through the store and both its readers: they close nothing.
    @Test("a repeating task's completions are kept as steps, through the snapshot and both readers")
    func stepsOfARepeatingTask() throws {
        var chore = Fixtures.task("Water the plants", id: 7, hours: 0)
        chore.due = DueDate(text: "2026-11-21")
        chore.repeatRule = RepeatRule(rrule: "FREQ=DAILY")!
        try store.commit([.add(chore)], what: "Added: Water the plants", now: Fixtures.date(hours: 0))
        for day in 0..<3 {
            let was = DueDate(text: "2026-11-2\(1 + day)")!
            let next = DueDate(text: "2026-11-2\(2 + day)")!
            try store.commit(
                [.set(chore.id, TaskFields(due: .some(next)), was: TaskFields(due: .some(was)))], what: "Completed: Water the plants",
                now: Fixtures.date(hours: day * 24 + 2))
        }
        try store.compact()
        let activity = try store.read().activity
        let counts = activity.days(in: ZoneInfo(identifier: "UTC")!).sorted { $0.key < $1.key }.map(\.value)
        #expect(counts.map(\.completed) == [1, 1, 1] && counts.map(\.stepped) == [1, 1, 1])
        let bytes = try #require(fileBytes(folder.storePath))
        #expect(try StoreDocument.decodeStrictly(bytes).activity == activity)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""steps": ""#))
        // By task too, for statistics narrowed to some tasks.
        let id = chore.id.uuidString.lowercased()
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""occurrences": "\#(id) "#))
        #expect(activity.occurrences(of: chore.id).values.map(\.completed) == [1, 1, 1])
        // Written as the counts are; a history without steps reads as it did.
        #expect(ActivityHistory(text: activity.text, steps: activity.stepsText, occurrences: activity.occurrencesText) == activity)
        #expect(ActivityHistory(text: "1:2:3", steps: "1:0:2", occurrences: "\(id) 1:0:1;\(id) 1:0:1") == nil, "a task twice")
        #expect(ActivityHistory(text: "1:2:3", occurrences: "\(id)1:0:1") == nil)
        #expect(ActivityHistory(text: "1:2:3", occurrences: "x") == nil)
        var takenBack = activity
        takenBack.takeBackAdd(of: chore.id)
        #expect(
            ActivityHistory(
                text: takenBack.text, steps: takenBack.stepsText, occurrences: takenBack.occurrencesText, takenBack: takenBack.addsTakenBackText)
                == takenBack)
        #expect(ActivityHistory(text: "1:2:3", takenBack: "\(id) x") == nil)
        #expect(ActivityHistory(text: "1:2:3", steps: "1:0:2")?.days(in: ZoneInfo(identifier: "UTC")!).values.first?.stepped == 2)
        #expect(ActivityHistory(text: "1:2:3", steps: "x") == nil)
        #expect(ActivityHistory(text: "1:2:3")?.stepsText == "")
        // Its undo takes the step back with the completion.
        _ = try store.undoLastChange()
        let undone = try store.read().activity.days(in: ZoneInfo(identifier: "UTC")!).sorted { $0.key < $1.key }.map(\.value)
        #expect(undone.map(\.completed) == [1, 1] && undone.map(\.stepped) == [1, 1], "the third day holds nothing now")
        #expect(try store.read().activity.occurrences(of: chore.id).count == 2)
    }
}
