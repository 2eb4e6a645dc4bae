import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Task list")
struct TaskListTests {
    let later = Fixtures.date(hours: 100)

    private func captions(_ list: TaskList) -> [String] { list.all.map(\.caption) }

    @Test("an empty list")
    func empty() {
        let list = TaskList()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        #expect(list.completedCount == 0)
        #expect(list.all == [])
    }

    @Test("building from tasks sorts them into their sections in order")
    func buildFromTasks() {
        let list = TaskList([
            Fixtures.task("B1", id: 1, section: .bonus), Fixtures.task("P1", id: 2),
            Fixtures.task("B2", id: 3, section: .bonus, completed: true), Fixtures.task("P2", id: 4, completed: true),
        ])
        #expect(list.priority.map(\.caption) == ["P1", "P2"])
        #expect(list.bonus.map(\.caption) == ["B1", "B2"])
        #expect(captions(list) == ["P1", "P2", "B1", "B2"])
        #expect(list.completedCount == 2)
        #expect(list.count(in: .priority) == 2)
        #expect(list[2].caption == "B1")
        #expect(list.position(of: Fixtures.id(3)) == 3)
        #expect(list.position(of: Fixtures.id(99)) == nil)
        #expect(list.task(withID: Fixtures.id(4))?.caption == "P2")
    }

    @Test("a new task goes on top of its section")
    func insertOnTop() {
        var list = Fixtures.sampleList()
        list.insertOnTop(Fixtures.task("Urgent", id: 10))
        list.insertOnTop(Fixtures.task("Someday", id: 11, section: .bonus))
        #expect(captions(list) == ["Urgent", "Buy milk", "Call mum", "Someday", "Read a book"])
        #expect(list.count == 5)
    }

    @Test("append puts a task at the end of its section")
    func append() {
        var list = Fixtures.sampleList()
        list.append(Fixtures.task("Last priority", id: 10, completed: true))
        list.append(Fixtures.task("Last bonus", id: 11, section: .bonus))
        #expect(captions(list) == ["Buy milk", "Call mum", "Last priority", "Read a book", "Last bonus"])
        #expect(list.completedCount == 2)
    }

    @Test("completing sets completedAt and modifiedAt; reopening clears completedAt")
    func setCompleted() {
        var list = Fixtures.sampleList()
        let completed = list.setCompleted(true, at: 0, now: later)
        #expect(completed)
        #expect(list[0].completed)
        #expect(list[0].completedAt == later)
        #expect(list[0].modifiedAt == later)
        #expect(list[0].createdAt == Fixtures.baseDate)
        #expect(list.completedCount == 2)
        #expect(captions(list) == ["Buy milk", "Call mum", "Read a book"])

        let evenLater = later.addingTimeInterval(60)
        let reopened = list.setCompleted(false, at: 0, now: evenLater)
        #expect(reopened)
        #expect(!list[0].completed)
        #expect(list[0].completedAt == nil)
        #expect(list[0].modifiedAt == evenLater)
        #expect(list.completedCount == 1)
    }

    @Test("completing a completed task changes nothing")
    func setCompletedNoChange() {
        var list = Fixtures.sampleList()
        let before = list
        let completedAgain = list.setCompleted(true, at: 1, now: later)
        let reopenedAgain = list.setCompleted(false, at: 2, now: later)
        #expect(!completedAgain)
        #expect(!reopenedAgain)
        #expect(list == before)
    }

    @Test("completing a Bonus task keeps its place and counts it")
    func completeBonus() {
        var list = Fixtures.sampleList()
        list.setCompleted(true, at: 2, now: later)
        #expect(list[2].caption == "Read a book")
        #expect(list[2].completed)
        #expect(list.completedCount == 2)
        #expect(Progress(list).summary == "2 down 1 to go!")
    }

    @Test("moving puts the task on top of the other section")
    func move() {
        var list = Fixtures.sampleList()
        let position = list.moveToOtherSection(at: 1, now: later)
        #expect(captions(list) == ["Buy milk", "Call mum", "Read a book"])
        #expect(list.priority.map(\.caption) == ["Buy milk"])
        #expect(list.bonus.map(\.caption) == ["Call mum", "Read a book"])
        #expect(position == 1)
        #expect(list[position].section == .bonus)
        #expect(list[position].modifiedAt == later)
        #expect(list[position].completed, "moving keeps the task completed")
        #expect(list.completedCount == 1)

        let back = list.moveToOtherSection(at: 2, now: later)
        #expect(back == 0)
        #expect(list.priority.map(\.caption) == ["Read a book", "Buy milk"])
        #expect(list.bonus.map(\.caption) == ["Call mum"])
    }

    @Test("removing keeps the completed count right")
    func remove() {
        var list = Fixtures.sampleList()
        #expect(list.remove(at: 1).caption == "Call mum")
        #expect(list.completedCount == 0)
        #expect(list.remove(at: 1).caption == "Read a book")
        #expect(list.remove(at: 0).caption == "Buy milk")
        #expect(list.isEmpty)
        #expect(list.completedCount == 0)
        #expect(Progress(list).summary == "It's lonely here - add some tasks!")
    }

    @Test("the completed count follows every change")
    func completedCountThroughChanges() {
        var list = TaskList()
        for number in 1...6 {
            list.insertOnTop(Fixtures.task("T\(number)", id: number, section: number.isMultiple(of: 2) ? .bonus : .priority))
        }
        for position in 0..<list.count where position.isMultiple(of: 2) {
            list.setCompleted(true, at: position, now: later)
        }
        list.moveToOtherSection(at: 0, now: later)
        list.moveToOtherSection(at: list.count - 1, now: later)
        list.remove(at: 2)
        #expect(list.completedCount == list.all.filter(\.completed).count)
        #expect(list.completedCount == 2)
    }

    @Test("a task item keeps completedAt only while completed")
    func taskItemInit() {
        let open = TaskItem(caption: "x", completed: false, createdAt: Fixtures.baseDate, completedAt: later)
        #expect(open.completedAt == nil)
        #expect(open.modifiedAt == Fixtures.baseDate)
        let done = TaskItem(caption: "x", completed: true, createdAt: Fixtures.baseDate)
        #expect(done.completedAt == Fixtures.baseDate)
    }

    @Test("section titles and the other section")
    func sections() {
        #expect(Section.priority.title == "Top Priority")
        #expect(Section.bonus.title == "Bonus")
        #expect(Section.priority.other == .bonus)
        #expect(Section.bonus.other == .priority)
        #expect(Section.allCases == [.priority, .bonus])
    }

    @Test("a second, later delete of a deleted task keeps it deleted against a change made between the two")
    func laterDeleteHolds() {
        let first = Clock(milliseconds: 1_000)
        let between = Clock(milliseconds: 1_500)
        let later = Clock(milliseconds: 2_000)
        for bulk in [false, true] {
            var list = TaskList((0..<300).map { Fixtures.task("task \($0)", id: $0) })
            let deletes = (0..<300).map { list.deleting(at: $0) }
            let rename = list.renaming(at: 0, to: "renamed")!
            if bulk {
                list.applyInOnePass(deletes, clock: first)
                list.applyInOnePass(deletes, clock: later)
            } else {
                list.apply(deletes, clock: first)
                list.apply(deletes, clock: later)
            }
            list.apply(rename, clock: between)
            #expect(list.count == 0, "the rename at \(between) came before the delete at \(later)")
            list.apply(rename, clock: Clock(milliseconds: 3_000))
            #expect(list.all.map(\.caption) == ["renamed"], "a change after the last delete brings it back")
        }
    }

    @Test("restamp gives exactly the clocks applying the changes again would, and declines when a task changed since")
    func restamp() {
        var list = TaskList((0..<100).map { Fixtures.task("kept \($0)", id: $0) })
        let adds = (0..<300).map { TaskChange.add(Fixtures.task("brought back \($0)", id: 1000 + $0, completed: true)) }
        list.applyInOnePass(adds, clock: .zero, force: true)
        let clock = Clock.next(after: .zero, now: Fixtures.date(hours: 5))
        var applied = list
        applied.applyInOnePass(adds, clock: clock)
        var stamped = list
        let tookStamp = stamped.restamp(adds, clock: clock)
        #expect(tookStamp)
        #expect(stamped.all == applied.all, "the same tasks, the same clocks")
        #expect(stamped.all != list.all, "the clocks did change")

        // Another program renamed one of the tasks before the save: applying again changes a
        // caption, which a stamp alone must not hide.
        var changedSince = list
        let brought = changedSince.position(of: Fixtures.id(1000))!
        changedSince.apply(changedSince.renaming(at: brought, to: "renamed elsewhere")!, clock: .zero, force: true)
        let before = changedSince
        let stampedAlone = changedSince.restamp(adds, clock: clock)
        #expect(!stampedAlone)
        #expect(changedSince.all == before.all, "nothing changed")

        let deleted = adds.prefix(1).map(\.inverse)
        var gone = list
        gone.applyInOnePass(deleted, clock: .zero, force: true)
        let goneBefore = gone
        let goneStamped = gone.restamp(adds, clock: clock)
        #expect(!goneStamped, "a task its add names is gone: not ours to stamp alone")
        #expect(gone.all == goneBefore.all, "nothing changed")
    }
}
