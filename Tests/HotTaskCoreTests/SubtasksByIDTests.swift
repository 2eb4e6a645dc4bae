import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 54: `--done`, `--move`, `--delete` and `--edit --in` by id take the task's subtasks
/// with them without decoding the whole store (`FamilyLookup`): a store without subtasks pays
/// what it paid before subtasks, and one with them finds them in the snapshot and the log.
@Suite("Subtasks: changes by id")
struct SubtasksByIDTests {
    let folder = TemporaryFolder()
    private var store: TaskStore { TaskStore(path: folder.storePath) }
    private let dates = DueDisplay(now: Fixtures.date(hours: 0), local: ZoneInfo(identifier: "UTC")!)

    private static func task(_ caption: String, _ number: Int, under parent: Int? = nil) -> TaskItem {
        var task = Fixtures.task(caption, id: number)
        task.parent = parent.map(Fixtures.id)
        return task
    }

    private static func handle(_ number: Int) -> String { Subtasks.text(Fixtures.id(number)) }

    private func change(
        completing: [String] = [], moving: [String] = [], deleting: [String] = [], editing: String? = nil, inList: String? = nil,
        under: String? = nil
    ) throws -> ChangeOutcome {
        try store.change(
            adding: [], to: .priority, editing: editing.map { ($0, nil) }, inList: inList, under: under, completing: completing, reopening: [],
            moving: moving, deleting: deleting, dates: dates)
    }

    @Test("in a store without subtasks, --done, --move, --delete and --edit --in by id read only the task named")
    func flatStoreTakesTheQuickWay() throws {
        try store.save(TaskList([Self.task("Buy milk", 1), Self.task("Call mum", 2), Self.task("Pay rent", 3)]))
        _ = try store.newList("Home")
        let steps = [
            try change(completing: [Self.handle(1)]), try change(moving: [Self.handle(2)]), try change(deleting: [Self.handle(3)]),
            try change(editing: Self.handle(2), inList: "Home"),
        ]
        #expect(
            steps.map(\.lines) == [
                ["Completed: Buy milk"], ["Moved to Bonus: Call mum"], ["Deleted: Pay rent"], ["Moved to the list 'Home': Call mum"],
            ])
        #expect(steps.map(\.logKnownClean) == [true, true, true, true])
    }

    @Test("a task whose parent is not in the store is top-level: --move and --in move it, by id and by number")
    func aTaskWhoseParentHasNotArrivedMoves() throws {
        var orphan = Self.task("Orphan", 1)
        orphan.parent = UUID()
        try store.save(TaskList([orphan, Self.task("Other", 2)]))
        _ = try store.newList("Home")
        #expect(try change(moving: [Self.handle(1)]).lines == ["Moved to Bonus: Orphan"])
        #expect(try change(moving: ["2"]).lines == ["Moved to Top Priority: Orphan"])
        #expect(try change(editing: Self.handle(1), inList: "Home").lines == ["Moved to the list 'Home': Orphan"])
        #expect(try store.load().all.first { $0.caption == "Orphan" }?.parent == orphan.parent, "its relation kept")
    }

    @Test("subtasks in the snapshot and in the log follow their parent by id, as by list number")
    func familyFoundInSnapshotAndLog() throws {
        // In the snapshot: Trip, Flights under it, Seats under Flights; Hotel and Car on their own.
        try store.save(
            TaskList([
                Self.task("Trip", 1), Self.task("Flights", 2, under: 1), Self.task("Seats", 3, under: 2), Self.task("Hotel", 4),
                Self.task("Car", 5),
            ]))
        // In the log: Hotel goes under Trip; Car is deleted (so it is no subtask).
        _ = try change(editing: Self.handle(4), under: Self.handle(1))
        _ = try change(deleting: [Self.handle(5)])
        let done = try change(completing: [Self.handle(1)])
        #expect(done.lines == ["Completed: Trip (and its 3 open subtasks)"])
        #expect(done.logKnownClean)
        #expect(try store.load().all.map { "\($0.caption) \($0.completed)" } == ["Trip true", "Flights true", "Seats true", "Hotel true"])
        let deleted = try change(deleting: [Self.handle(2)])
        #expect(deleted.lines == ["Deleted: Flights (and its 1 subtask)"])
        #expect(deleted.logKnownClean)
        #expect(try store.load().all.map(\.caption) == ["Trip", "Hotel"])
    }

    /// Whether the store's index says its snapshot holds no subtask (then a change by id
    /// searches no snapshot bytes for them).
    private func indexSaysNoSubtasks() throws -> Bool {
        let view = try #require(try store.logView())
        return SnapshotIndex.saysNoSubtasks(
            at: store.indexPath, generation: view.generation, snapshotSize: view.snapshotSize, count: view.snapshotCount)
    }

    @Test("the index says whether the snapshot holds a subtask; an index from before subtasks says nothing")
    func indexSaysWhetherTheSnapshotHasSubtasks() throws {
        try store.save(TaskList([Self.task("Buy milk", 1), Self.task("Call mum", 2)]))
        #expect(try indexSaysNoSubtasks())
        try store.save(TaskList([Self.task("Trip", 1), Self.task("Flights", 2, under: 1)]))
        #expect(try !indexSaysNoSubtasks())
        try store.save(TaskList([Self.task("Buy milk", 1), Self.task("Call mum", 2)]))
        var bytes = try #require(FileManager.default.contents(atPath: store.indexPath))
        bytes[40] = 0
        try bytes.write(to: URL(fileURLWithPath: store.indexPath))
        #expect(try !indexSaysNoSubtasks(), "an older index's zero")
    }

    @Test("with no subtask in the snapshot, subtasks the log made follow their parent by id")
    func subtasksOnlyInTheLogFollowTheirParent() throws {
        try store.save(TaskList([Self.task("Trip", 1), Self.task("Hotel", 2), Self.task("Car", 3), Self.task("Bike", 4)]))
        #expect(try indexSaysNoSubtasks())
        // In the log: Hotel goes under Trip, Flights is added under Trip, Car under Hotel.
        _ = try change(editing: Self.handle(2), under: Self.handle(1))
        _ = try store.change(
            adding: ["Flights"], to: .priority, editing: nil, inList: nil, under: Self.handle(1), completing: [], reopening: [], moving: [],
            deleting: [], dates: dates)
        _ = try change(editing: Self.handle(3), under: Self.handle(2))
        #expect(try indexSaysNoSubtasks(), "still the snapshot's")
        let done = try change(completing: [Self.handle(1)])
        #expect(done.lines == ["Completed: Trip (and its 3 open subtasks)"])
        #expect(done.logKnownClean)
        #expect(try store.load().all.filter(\.completed).map(\.caption).sorted() == ["Car", "Flights", "Hotel", "Trip"])
        let deleted = try change(deleting: [Self.handle(2)])
        #expect(deleted.lines == ["Deleted: Hotel (and its 1 subtask)"])
        #expect(try store.load().all.map(\.caption).sorted() == ["Bike", "Flights", "Trip"])
    }
}
