import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 54: a task's parent is a field of the table; the family tree is made from it. A
/// parent the list does not hold leaves its subtask top-level with the relation kept, and a
/// cycle (from a file or a server) is broken at the lowest id whatever the order.
@Suite("Subtasks: the model")
struct SubtasksModelTests {
    private static func task(_ caption: String, _ number: Int, under parent: Int? = nil) -> TaskItem {
        var task = Fixtures.task(caption, id: number)
        task.parent = parent.map(Fixtures.id)
        return task
    }

    /// Each task as the tree shows it: two spaces a level, then the caption.
    private static func outline(_ tasks: [TaskItem]) -> [String] {
        Subtasks(tasks).familyOrder(of: tasks).map { String(repeating: "  ", count: $0.depth) + tasks[$0.index].caption }
    }

    @Test func eachSubtaskComesRightAfterItsParentAndSiblingsKeepTheirOrder() {
        let tasks = [
            Self.task("Pack", 4, under: 2), Self.task("Buy milk", 1), Self.task("Plan the trip", 2), Self.task("Passport", 5, under: 4),
            Self.task("Book flights", 3, under: 2),
        ]
        #expect(Self.outline(tasks) == ["Buy milk", "Plan the trip", "  Pack", "    Passport", "  Book flights"])
        let tree = Subtasks(tasks)
        #expect(tree.descendants(of: Fixtures.id(2)) == [Fixtures.id(4), Fixtures.id(5), Fixtures.id(3)])
        #expect(tree.depth(of: Fixtures.id(5)) == 2)
        #expect(tree.wouldCycle(Fixtures.id(2), under: Fixtures.id(5)))
        #expect(tree.wouldCycle(Fixtures.id(2), under: Fixtures.id(2)))
        #expect(!tree.wouldCycle(Fixtures.id(5), under: Fixtures.id(1)))
        #expect(tree.brokenCycles.isEmpty)
    }

    @Test func aParentTheListDoesNotHoldLeavesItsSubtaskTopLevelUntilItArrives() {
        let orphan = Self.task("Book flights", 3, under: 2)
        #expect(Self.outline([orphan, Self.task("Buy milk", 1)]) == ["Book flights", "Buy milk"])
        #expect(orphan.parent == Fixtures.id(2), "the relation is kept")
        #expect(Self.outline([orphan, Self.task("Buy milk", 1), Self.task("Plan the trip", 2)]) == ["Buy milk", "Plan the trip", "  Book flights"])
    }

    @Test(arguments: 0..<6)
    func aCycleIsBrokenAtTheLowestIdWhateverTheOrderTheTasksCameIn(_ rotation: Int) {
        // 1 under 3, 3 under 2, 2 under 1: a cycle; 4 under 2.
        var tasks = [Self.task("One", 1, under: 3), Self.task("Two", 2, under: 1), Self.task("Three", 3, under: 2), Self.task("Four", 4, under: 2)]
        if rotation >= 3 { tasks.reverse() }
        tasks = Array(tasks[(rotation % 3)...] + tasks[..<(rotation % 3)])
        let tree = Subtasks(tasks)
        #expect(tree.brokenCycles == [Fixtures.id(1)])
        #expect(tree.parent(of: Fixtures.id(1)) == nil)
        #expect(tree.descendants(of: Fixtures.id(1)).count == 3)
        let sorted = tasks.sorted { $0.id.uuidString < $1.id.uuidString }
        #expect(Self.outline(sorted) == ["One", "  Two", "    Three", "    Four"])
    }

    @Test func theParentIsStoredLoggedAndTakenBackByUndo() throws {
        let folder = TemporaryFolder()
        let store = TaskStore(path: folder.storePath)
        try store.save(TaskList([Self.task("Plan the trip", 2), Self.task("Book flights", 3)]))
        try store.change { list in
            let task = try #require(list.task(withID: Fixtures.id(3)))
            return [try #require(ChangeRules.under(task, list.task(withID: Fixtures.id(2)), key: nil))]
        }
        #expect(try store.load().task(withID: Fixtures.id(3))?.parent == Fixtures.id(2))
        let document = String(decoding: try #require(fileBytes(store.path)), as: UTF8.self)
        let log = String(decoding: fileBytes(store.journalPath) ?? [], as: UTF8.self)
        #expect((document + log).contains(#""parent": "f0000002-0000-4000-8000-000000000002""#))
        _ = try store.undoLastChange()
        #expect(try store.load().task(withID: Fixtures.id(3))?.parent == nil)
    }
}
