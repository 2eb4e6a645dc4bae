import Foundation
import HotTaskCore
import Testing
import TestSupport

/// A batch of deletes or adds gives the list that applying them one by one gives.
@Suite("Task list: changes in one pass")
struct TaskListBatchTests {
    /// 300 tasks over both sections, every third completed, with order keys from a store.
    private func sample() -> TaskList {
        let built = TaskList((1...300).map {
            Fixtures.task("Task \($0)", id: $0, section: $0 % 5 == 0 ? .bonus : .priority, completed: $0 % 3 == 0)
        })
        return TaskList(keyed: built.all)
    }

    private func oneByOne(_ list: TaskList, _ changes: [TaskChange], clock: Clock, force: Bool) -> TaskList {
        var list = list
        for change in changes { list.apply(change, clock: clock, force: force) }
        return list
    }

    @Test func deletingTheCompletedTasksAndAddingThemBack() {
        let list = sample()
        let clear = list.removingCompleted()
        #expect(clear.count == 100)
        var batch = list
        let deletedAll = batch.applyBatch(clear, clock: .zero, force: true)
        #expect(deletedAll)
        let expected = oneByOne(list, clear, clock: .zero, force: true)
        #expect(batch == expected)
        #expect(batch.all == expected.all && batch.completedCount == 0 && batch.deleted == expected.deleted)
        // Undo: the same tasks added back land where they were.
        let back = clear.compactMap { change -> TaskChange? in
            guard case .delete(let task) = change else { return nil }
            return .add(task)
        }
        var restored = batch
        let addedAll = restored.applyBatch(back.reversed(), clock: .zero, force: true)
        #expect(addedAll)
        #expect(restored.all == oneByOne(expected, back, clock: .zero, force: true).all)
        #expect(restored.all.map(\.id) == list.all.map(\.id), "every task back in its place")
        #expect(restored.completedCount == list.completedCount)
        // The id index followed: a change by id after the batch finds its task.
        let someone = list.all[42]
        restored.apply(.delete(someone), clock: .zero, force: true)
        #expect(restored.task(withID: someone.id) == nil && restored.count == 299)
    }

    @Test func anythingElseIsLeftForOneByOne() {
        let list = sample()
        var copy = list
        let first = list.all[0]
        let mixed = copy.applyBatch([.delete(first), .add(Fixtures.task("new", id: 999))], clock: .zero, force: true)
        #expect(!mixed)
        let present = copy.applyBatch([.add(first)], clock: .zero, force: true)
        #expect(!present, "an add of a task the list holds")
        let new = Fixtures.task("new", id: 999)
        let twice = copy.applyBatch([.add(new), .add(new)], clock: .zero, force: true)
        #expect(!twice, "the same id twice")
        #expect(copy == list, "nothing changed")
    }

    @Test func aDeleteOlderThanAChangeToTheTaskIsIgnoredAsOneByOne() {
        var list = sample()
        let task = list.all[3]
        list.apply(.set(task.id, TaskFields(caption: "renamed"), was: TaskFields()), clock: Clock(milliseconds: 10), force: false)
        var batch = list
        let deletes = list.all.prefix(70).map { TaskChange.delete($0) }
        let olderDeletes = batch.applyBatch(deletes, clock: Clock(milliseconds: 5), force: false)
        #expect(olderDeletes)
        #expect(batch == oneByOne(list, deletes, clock: Clock(milliseconds: 5), force: false))
        #expect(batch.task(withID: task.id)?.caption == "renamed")
    }
}
