import Foundation
import HotTaskCore
import Testing
import TestSupport

@Suite("Reversible changes: rename, move to an index, clear completed, undo")
struct TaskChangeTests {
    let later = Fixtures.date(hours: 100)

    private func captions(_ list: TaskList) -> [String] { list.all.map(\.caption) }

    /// Applying the changes and then their inverse gives back the same list.
    private func expectReversible(_ list: TaskList, _ changes: [TaskChange], sourceLocation: SourceLocation = #_sourceLocation) {
        var changed = list
        changed.apply(changes)
        changed.apply(changes.inverse)
        #expect(changed == list, sourceLocation: sourceLocation)
        #expect(changed.completedCount == list.completedCount, sourceLocation: sourceLocation)
    }

    @Test func renameKeepsThePlaceAndSetsModifiedAt() {
        var list = Fixtures.sampleList()
        let before = list
        let change = list.rename(at: 2, to: "Read two books", now: later)
        #expect(captions(list) == ["Buy milk", "Call mum", "Read two books"])
        #expect(list[2].modifiedAt == later)
        #expect(list[2].id == Fixtures.id(3))
        #expect(change == .replaced(old: before[2], new: list[2], at: 0))
        #expect(list.rename(at: 0, to: "Buy milk", now: later) == nil, "the same caption is no change")
        expectReversible(before, [change!])
    }

    @Test func moveWithinASectionToAnIndex() {
        var list = TaskList((1...4).map { Fixtures.task("P\($0)", id: $0) })
        let before = list
        let changes = list.move(from: 3, to: .priority, index: 0, now: later)
        #expect(captions(list) == ["P4", "P1", "P2", "P3"])
        #expect(list[0].modifiedAt == Fixtures.baseDate, "order is not part of a task")
        list.move(from: 0, to: .priority, index: 3, now: later)
        #expect(captions(list) == ["P1", "P2", "P3", "P4"])
        #expect(list.move(from: 1, to: .priority, index: 1, now: later) == [])
        expectReversible(before, changes)
    }

    @Test func moveAcrossSectionsToAnIndex() {
        var list = Fixtures.sampleList()
        let before = list
        let changes = list.move(from: 1, to: .bonus, index: 1, now: later)
        #expect(list.priority.map(\.caption) == ["Buy milk"])
        #expect(list.bonus.map(\.caption) == ["Read a book", "Call mum"])
        #expect(list[2].section == .bonus)
        #expect(list[2].modifiedAt == later)
        #expect(list.completedCount == 1)
        expectReversible(before, changes)
        list.move(from: 1, to: .priority, index: 1, now: later)
        #expect(list.priority.map(\.caption) == ["Buy milk", "Read a book"])
    }

    @Test func removeCompletedKeepsTheRestInOrderAndCanBeUndone() {
        var list = TaskList([
            Fixtures.task("P1", id: 1, completed: true), Fixtures.task("P2", id: 2),
            Fixtures.task("P3", id: 3, completed: true), Fixtures.task("B1", id: 4, section: .bonus, completed: true),
            Fixtures.task("B2", id: 5, section: .bonus),
        ])
        let before = list
        let changes = list.removeCompleted()
        #expect(captions(list) == ["P2", "B2"])
        #expect(list.completedCount == 0)
        #expect(changes.count == 3)
        list.apply(changes.inverse)
        #expect(list == before)
        #expect(list.completedCount == 3)
        #expect(TaskList().removingCompleted() == [])
    }

    @Test func completingIsAChangeWithAnInverse() {
        var list = Fixtures.sampleList()
        let before = list
        let change = list.completing(true, at: 0, now: later)
        #expect(list.completing(true, at: 1, now: later) == nil)
        list.apply(change!)
        #expect(list.completedCount == 2)
        #expect(list[0].completedAt == later)
        list.apply(change!.inverse)
        #expect(list == before)
        #expect(list.completedCount == 1)
    }

    @Test func insertAndRemoveAtAnIndex() {
        var list = Fixtures.sampleList()
        let task = Fixtures.task("Middle", id: 9, completed: true)
        list.apply(.inserted(task, at: 1))
        #expect(captions(list) == ["Buy milk", "Middle", "Call mum", "Read a book"])
        #expect(list.completedCount == 2)
        list.apply(TaskChange.inserted(task, at: 1).inverse)
        #expect(list == Fixtures.sampleList())
    }

    @Test func randomChangesUndoneInReverseGiveBackTheList() {
        var generator = SystemRandomNumberGenerator()
        var list = TaskList((1...20).map { Fixtures.task("T\($0)", id: $0, section: $0 % 3 == 0 ? .bonus : .priority, completed: $0 % 4 == 0) })
        var snapshots: [TaskList] = []
        var history: [[TaskChange]] = []
        for step in 0..<200 {
            guard !list.isEmpty else { break }
            snapshots.append(list)
            let position = Int.random(in: 0..<list.count, using: &generator)
            var changes: [TaskChange] = []
            switch step % 5 {
            case 0:
                changes = list.completing(!list[position].completed, at: position, now: later).map { [$0] } ?? []
                list.apply(changes)
            case 1: changes = list.rename(at: position, to: "R\(step)", now: later).map { [$0] } ?? []
            case 2:
                let section: Section = Bool.random(using: &generator) ? .priority : .bonus
                let limit = list.count(in: section) - (list.section(ofPosition: position) == section ? 1 : 0)
                changes = list.move(from: position, to: section, index: Int.random(in: 0...limit, using: &generator), now: later)
            case 3:
                changes = [.removed(list[position], at: list.index(ofPosition: position))]
                list.apply(changes)
            default:
                changes = [.inserted(Fixtures.task("N\(step)", id: 1000 + step, section: .bonus, completed: step % 2 == 0), at: 0)]
                list.apply(changes)
            }
            history.append(changes)
            #expect(list.completedCount == list.all.filter(\.completed).count)
        }
        while let changes = history.popLast(), let snapshot = snapshots.popLast() {
            list.apply(changes.inverse)
            #expect(list == snapshot)
        }
    }
}
