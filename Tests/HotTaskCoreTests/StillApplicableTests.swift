import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The one rule `--undo`, `u` and `^R` share: which changes of a step still apply.
@Suite("Undo and redo apply only what still holds, judged change after change")
struct StillApplicableTests {
    private let task = TaskItem(id: Fixtures.id(1), caption: "Draft", createdAt: Fixtures.date(hours: 1))

    @Test func twoEditsOfOneTaskAreUndoneInTurnBackToTheFirstCaption() {
        // A record that renamed the task twice: its inverse's second set holds only after the first.
        let record: [TaskChange] = [
            .set(task.id, TaskFields(caption: "Second"), was: TaskFields(caption: "Draft")),
            .set(task.id, TaskFields(caption: "Third"), was: TaskFields(caption: "Second")),
        ]
        var list = TaskList([task])
        list.apply(record, clock: TaskList.clock(Fixtures.date(hours: 2)))
        let still = StillApplicable(record.inverse, on: list)
        #expect(still.skipped.isEmpty)
        list.apply(still.changes, clock: TaskList.clock(Fixtures.date(hours: 3)))
        #expect(list.all.map(\.caption) == ["Draft"])
    }

    @Test func aTaskChangedElsewhereSinceKeepsThatChangeAndIsNamed() {
        var list = TaskList([task])
        let rename = TaskChange.set(task.id, TaskFields(caption: "Mine"), was: TaskFields(caption: "Draft"))
        list.apply([rename], clock: TaskList.clock(Fixtures.date(hours: 2)))
        list.apply([.set(task.id, TaskFields(caption: "Theirs"), was: TaskFields(caption: "Mine"))], clock: TaskList.clock(Fixtures.date(hours: 3)))
        let still = StillApplicable([rename].inverse, on: list)
        #expect(still.changes.isEmpty)
        #expect(still.skipped.map { if case .changedSince(let task) = $0 { task.caption } else { "" } } == ["Theirs"])
    }

    @Test func anAddOfATaskThereAlreadyAndADeleteOfOneGoneAreLeftOut() {
        let other = TaskItem(id: Fixtures.id(2), caption: "Gone", createdAt: Fixtures.date(hours: 1))
        let list = TaskList([task])
        let still = StillApplicable([.add(task), .delete(other), .delete(task)], on: list)
        #expect(still.changes == [.delete(task)])
        #expect(still.skipped == [.alreadyThere(task), .goneAlready(other)])
    }

    @Test func manyAddsAndDeletesJudgeEachOnWhatTheOnesBeforeLeft() {
        // More than a scan's worth, all adds and deletes: looked up in a table of ids, and a
        // task named twice (added, then deleted) is judged on what the add left.
        let adds = (101...140).map { TaskItem(id: Fixtures.id($0), caption: "T\($0)", createdAt: Fixtures.date(hours: 1)) }
        let list = TaskList([task])
        let candidates = adds.map { TaskChange.add($0) } + [.delete(adds[0]), .add(task), .delete(adds[0])]
        let still = StillApplicable(candidates, on: list)
        #expect(still.changes == adds.map { .add($0) } + [.delete(adds[0])])
        #expect(still.skipped == [.alreadyThere(task), .goneAlready(adds[0])])
    }

    /// Taking back an add deletes its task only while it says what it said: another program's
    /// rename since is never deleted with it; a move is not a change of what it says. The same
    /// in the table of ids many changes use.
    @Test(arguments: [1, 60])
    func aDeleteOfATaskChangedSinceIsLeftOutAndNamed(others: Int) {
        let added = (0..<others).map { TaskItem(id: Fixtures.id(200 + $0), caption: "A\($0)", createdAt: Fixtures.date(hours: 1)) }
        var list = TaskList(added)
        let renamed = list.renaming(at: 0, to: "Renamed elsewhere")!
        list.apply([renamed], clock: TaskList.clock(Fixtures.date(hours: 2)))
        if others > 1, let moved = list.moving(from: list.position(of: added[1].id)!, to: added[1].section, index: others - 1) {
            list.apply([moved], clock: TaskList.clock(Fixtures.date(hours: 2)))
        }
        let still = StillApplicable(added.map { TaskChange.add($0) }.inverse, on: list)
        #expect(still.changes.map(\.id) == Array(added.dropFirst().map(\.id).reversed()))
        #expect(still.skipped.map { if case .changedSince(let task) = $0 { task.caption } else { "" } } == ["Renamed elsewhere"])
    }
}
