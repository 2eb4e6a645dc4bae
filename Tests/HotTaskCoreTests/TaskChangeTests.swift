import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Changes by id: inverses, order keys, and merging field by field")
struct TaskChangeTests {
    let later = Fixtures.date(hours: 100)

    private func captions(_ list: TaskList) -> [String] { list.all.map(\.caption) }

    /// Applying the changes and then their inverse gives back the tasks a person sees.
    private func expectReversible(_ list: TaskList, _ changes: [TaskChange], sourceLocation: SourceLocation = #_sourceLocation) {
        var changed = list
        changed.apply(changes, clock: TaskList.clock(later))
        changed.apply(changes.inverse, clock: TaskList.clock(later.addingTimeInterval(1)))
        #expect(changed.seen == list.seen, sourceLocation: sourceLocation)
        #expect(changed.completedCount == list.completedCount, sourceLocation: sourceLocation)
    }

    @Test func renameKeepsThePlaceAndSetsModifiedAt() {
        var list = Fixtures.sampleList()
        let before = list
        let change = list.rename(at: 2, to: "Read two books", now: later)
        #expect(captions(list) == ["Buy milk", "Call mum", "Read two books"])
        #expect(list[2].modifiedAt == later)
        #expect(list[2].id == Fixtures.id(3))
        #expect(change == .set(Fixtures.id(3), TaskFields(caption: "Read two books"), was: TaskFields(caption: "Read a book")))
        #expect(list.rename(at: 0, to: "Buy milk", now: later) == nil, "the same caption is no change")
        expectReversible(before, [change!])
    }

    @Test func aMoveWithinASectionChangesOnlyTheMovedTask() {
        var list = TaskList((1...4).map { Fixtures.task("P\($0)", id: $0) })
        let before = list
        let change = list.move(from: 3, to: .priority, index: 0, now: later)
        #expect(captions(list) == ["P4", "P1", "P2", "P3"])
        #expect(Array(list.all.dropFirst()) == Array(before.all.prefix(3)), "the other tasks keep their keys and stamps")
        guard case .set(_, let fields, _)? = change else {
            Issue.record("a move is one set of one task")
            return
        }
        #expect(fields.section == nil && fields.order != nil)
        list.move(from: 0, to: .priority, index: 3, now: later)
        #expect(captions(list) == ["P1", "P2", "P3", "P4"])
        #expect(list.move(from: 1, to: .priority, index: 1, now: later) == nil)
        expectReversible(before, [change!])
    }

    @Test func moveAcrossSectionsToAnIndex() {
        var list = Fixtures.sampleList()
        let before = list
        let change = list.move(from: 1, to: .bonus, index: 1, now: later)
        #expect(list.priority.map(\.caption) == ["Buy milk"])
        #expect(list.bonus.map(\.caption) == ["Read a book", "Call mum"])
        #expect(list[2].section == .bonus)
        #expect(list[2].modifiedAt == later)
        #expect(list.completedCount == 1)
        expectReversible(before, [change!])
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
        let changes = list.removeCompleted(now: later)
        #expect(captions(list) == ["P2", "B2"])
        #expect(list.completedCount == 0)
        #expect(changes.count == 3)
        #expect(list.deleted.count == 3, "deleted tasks are kept as tombstones")
        list.apply(changes.inverse, clock: TaskList.clock(later.addingTimeInterval(1)))
        #expect(list.seen == before.seen)
        #expect(list.completedCount == 3)
        #expect(list.deleted.isEmpty)
        #expect(TaskList().removingCompleted() == [])
    }

    @Test func completingIsAChangeWithAnInverse() {
        var list = Fixtures.sampleList()
        let before = list
        let change = list.completing(true, at: 0, now: later, local: .current)
        #expect(list.completing(true, at: 1, now: later, local: .current) == nil)
        list.apply(change!, clock: TaskList.clock(later))
        #expect(list.completedCount == 2)
        #expect(list[0].completedAt == later)
        list.apply(change!.inverse, clock: TaskList.clock(later.addingTimeInterval(1)))
        #expect(list.shown.map(\.completed) == before.shown.map(\.completed))
        #expect(list[0].completedAt == nil)
        #expect(list.completedCount == 1)
    }

    // MARK: Merging

    /// The same changes in every order of arrival give the same list.
    private func expectOrderFree(_ base: TaskList, _ stamped: [(TaskChange, Clock)], sourceLocation: SourceLocation = #_sourceLocation) -> TaskList {
        var inOrder = base
        for (change, clock) in stamped { inOrder.apply(change, clock: clock) }
        var reversed = base
        for (change, clock) in stamped.reversed() { reversed.apply(change, clock: clock) }
        #expect(inOrder == reversed, sourceLocation: sourceLocation)
        return inOrder
    }

    @Test func changesToDifferentFieldsOfOneTaskBothHold() {
        let list = Fixtures.sampleList()
        let move = list.moving(from: 0, to: .bonus, index: 0)!
        let complete = list.completing(true, at: 0, now: later, local: .current)!
        let merged = expectOrderFree(list, [(move, Clock(milliseconds: 10)), (complete, Clock(milliseconds: 20))])
        let task = merged.task(withID: Fixtures.id(1))
        #expect(task?.section == .bonus)
        #expect(task?.completed == true)
    }

    @Test func theSameFieldTakesTheLaterClockWhateverTheOrderOfArrival() {
        let list = Fixtures.sampleList()
        let first = list.renaming(at: 0, to: "Buy oat milk")!
        let second = list.renaming(at: 0, to: "Buy soy milk")!
        let merged = expectOrderFree(list, [(first, Clock(milliseconds: 10)), (second, Clock(milliseconds: 10, counter: 1))])
        #expect(merged.task(withID: Fixtures.id(1))?.caption == "Buy soy milk")
    }

    @Test func aStaleCopyNeverBringsADeletedTaskBack() {
        var list = Fixtures.sampleList()
        let old = list[0]
        list.apply(list.deleting(at: 0), clock: Clock(milliseconds: 50))
        list.apply(.add(old), clock: Clock(milliseconds: 40))
        list.apply(.set(old.id, TaskFields(caption: "Stale edit"), was: TaskFields(caption: old.caption)), clock: Clock(milliseconds: 45))
        #expect(list.task(withID: old.id) == nil)
        #expect(list.deleted[old.id]?.clock == Clock(milliseconds: 50))
    }

    @Test func aChangeMadeAfterADeleteBringsTheTaskBackChanged() {
        var list = Fixtures.sampleList()
        let old = list[0]
        list.apply(list.deleting(at: 0), clock: Clock(milliseconds: 50))
        list.apply(.set(old.id, TaskFields(caption: "Buy milk today"), was: TaskFields(caption: old.caption)), clock: Clock(milliseconds: 60))
        #expect(list.task(withID: old.id)?.caption == "Buy milk today")
        #expect(list.deleted[old.id] == nil)
        #expect(list.count == 3)
    }

    @Test func aDeleteOlderThanAChangeIsIgnored() {
        var list = Fixtures.sampleList()
        let task = list[0]
        list.apply(list.completing(true, at: 0, now: later, local: .current)!, clock: Clock(milliseconds: 70))
        list.apply(.delete(task), clock: Clock(milliseconds: 60))
        #expect(list.task(withID: task.id)?.completed == true)
    }

    // MARK: Order keys

    @Test func orderKeysStayInOrderAndShortWhenAddingOnTopAgainAndAgain() {
        var keys: [OrderKey] = [OrderKey.middle]
        for _ in 0..<20_000 { keys.insert(OrderKey.between(nil, keys[0]), at: 0) }
        for _ in 0..<20_000 { keys.append(OrderKey.between(keys.last, nil)) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(keys.map(\.text.count).max()! <= 4, "keys grow with the logarithm of the count")
    }

    @Test func theKeyAfterTheLastIsTheGeneralAlgorithmsKey() {
        // From keys with and without a fraction, on both sides of the middle, across carries.
        for start in ["a0", "Zz", "Zy", "a0V", "az", "b0z", "bzz", "Zzz", "zzzzzzzzzzzzzzzzzzzzzzzzzzz"] {
            var key = OrderKey(start)!
            for _ in 0..<5_000 {
                let next = OrderKey.between(key, nil)
                #expect(next == OrderKey.computed(key, nil), "after \(key)")
                guard next != key, next > key else { break }
                key = next
            }
        }
    }

    @Test func aKeyFitsBetweenAnyTwo() {
        var generator = SeededGenerator(seed: 7)
        var keys: [OrderKey] = [OrderKey.middle]
        for _ in 0..<3000 {
            let index = Int.random(in: 0...keys.count, using: &generator)
            let key = OrderKey.between(index > 0 ? keys[index - 1] : nil, index < keys.count ? keys[index] : nil)
            keys.insert(key, at: index)
        }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(keys.allSatisfy { OrderKey($0.text) == $0 }, "every key made reads back")
        #expect(OrderKey.sequence(500).count == 500)
        #expect(zip(OrderKey.sequence(500), OrderKey.sequence(500).dropFirst()).allSatisfy { $0 < $1 })
        #expect(OrderKey("a") == nil && OrderKey("a00") == nil && OrderKey("!x") == nil && OrderKey("") == nil)
    }

    @Test func clocksOnlyMoveForward() {
        let last = Clock(milliseconds: 2_000_000_000_000, counter: 3)
        let behind = Clock.next(after: last, now: Date(timeIntervalSince1970: 1_000))
        #expect(behind > last, "a late wall clock still moves the stamp forward")
        #expect(Clock.next(after: .zero, now: Date(timeIntervalSince1970: 1_000)) == Clock(milliseconds: 1_000_000))
        #expect(Clock("1795255200123.4") == Clock(milliseconds: 1_795_255_200_123, counter: 4))
        #expect(Clock("-1.0") == nil && Clock("1e300.0") == nil && Clock("99999999999999999999.0") == nil && Clock("5") == nil)
    }

    @Test func randomChangesUndoneInReverseGiveBackTheList() {
        var generator = SeededGenerator(seed: 11)
        var list = TaskList((1...20).map { Fixtures.task("T\($0)", id: $0, section: $0 % 3 == 0 ? .bonus : .priority, completed: $0 % 4 == 0) })
        var snapshots: [[TaskItem]] = []
        var history: [[TaskChange]] = []
        var tick: Int64 = 1000
        func stamp() -> Clock {
            tick += 1
            return Clock(milliseconds: tick)
        }
        for step in 0..<300 {
            guard !list.isEmpty else { break }
            snapshots.append(list.shown)
            let position = Int.random(in: 0..<list.count, using: &generator)
            var changes: [TaskChange] = []
            switch step % 5 {
            case 0: changes = list.completing(!list[position].completed, at: position, now: later, local: .current).map { [$0] } ?? []
            case 1: changes = list.renaming(at: position, to: "R\(step)").map { [$0] } ?? []
            case 2:
                let section: Section = Bool.random(using: &generator) ? .priority : .bonus
                let limit = list.count(in: section) - (list.section(ofPosition: position) == section ? 1 : 0)
                changes = list.moving(from: position, to: section, index: Int.random(in: 0...limit, using: &generator)).map { [$0] } ?? []
            case 3: changes = [list.deleting(at: position)]
            default: changes = [list.adding(onTop: Fixtures.task("N\(step)", id: 1000 + step, section: .bonus, completed: step % 2 == 0))]
            }
            list.apply(changes, clock: stamp())
            history.append(changes)
            #expect(list.completedCount == list.all.filter(\.completed).count)
        }
        while let changes = history.popLast(), let snapshot = snapshots.popLast() {
            list.apply(changes.inverse, clock: stamp())
            #expect(list.shown.map(\.caption) == snapshot.map(\.caption))
            #expect(list.shown.map(\.completed) == snapshot.map(\.completed))
        }
    }
}
