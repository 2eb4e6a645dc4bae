import Foundation
import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Tasks created an hour apart, in stored order: "b 10" (oldest), "Á 2", "c", "a 1".
private func datedList() -> TaskList {
    var list = TaskList()
    for (hour, caption) in ["b 10", "Á 2", "c", "a 1"].enumerated() {
        list.append(TaskItem(caption: caption, createdAt: testNow.addingTimeInterval(Double(hour) * 3600)))
    }
    list.append(TaskItem(caption: "bonus", section: .bonus, createdAt: testNow))
    return list
}

extension AppState {
    /// Captions in display order.
    var shownCaptions: [String] {
        (0..<layout.taskCount).map { tasks[view.position(ofDisplay: $0, in: tasks)].caption }
    }
}

@Suite("Sort modes and completed last")
struct SortTests {
    @Test func sCyclesTheModesWithoutChangingTheStoredOrder() {
        var state = makeState(datedList())
        state.press(.tab)
        let stored = state.tasks
        #expect(state.shownCaptions == ["b 10", "Á 2", "c", "a 1", "bonus"])
        let effects = state.expectPress(.character("s")) { next in
            next.view.setOrder(.newest, completedLast: false, local: next.dates.local, list: next.tasks)
            next.selection = 3  // "b 10" stays selected: the oldest is last of its section now
            next.message = Message("Sort: newest first — a view; only Manual order is saved")
            return []
        }
        #expect(effects.isEmpty, "a view is not saved")
        #expect(state.shownCaptions == ["a 1", "c", "Á 2", "b 10", "bonus"])
        state.press(.character("s"))
        #expect(state.shownCaptions == ["b 10", "Á 2", "c", "a 1", "bonus"])
        state.press(.character("s"))
        #expect(state.view.sort == .alphabetical)
        #expect(state.shownCaptions == ["a 1", "Á 2", "b 10", "c", "bonus"], "case, accents ignored; numbers by value")
        state.press(.character("s"))
        #expect(state.view.sort == .due)
        state.press(.character("s"))
        #expect(state.view.sort == .manual)
        #expect(state.tasks == stored)
    }

    @Test func alphabeticalOrdersNumbersByValue() {
        var state = makeState(makeList(priority: ["Task 10", "task 2", "Task 1", "Zebra", "apple"]))
        state.press(.tab, .character("s"), .character("s"), .character("s"))
        #expect(state.shownCaptions == ["apple", "Task 1", "task 2", "Task 10", "Zebra"])
    }

    @Test func completedLastAndTheSelectionFollowsTheSelectedTask() {
        var state = makeState(makeList(priority: ["A", "B", "C", "D"], completed: ["A", "C"]))
        state.press(.tab, .down, .down)
        #expect(state.selectedTask?.caption == "C")
        state.expectPress(.character("c")) { next in
            next.view.setOrder(.manual, completedLast: true, local: next.dates.local, list: next.tasks)
            next.selection = 3
            next.message = Message("Sort: Manual (stored order), completed last — a view; only Manual order is saved")
            return []
        }
        #expect(state.shownCaptions == ["B", "D", "A", "C"])
        #expect(state.selectedTask?.caption == "C", "the selected task stays selected")
        state.press(.home, .character(" "))
        #expect(state.shownCaptions == ["D", "A", "B", "C"], "a completed task goes down")
        #expect(state.selection == 0, "the row stays, so Space completes the next one")
        #expect(state.view.isManualOrder == false)
    }

    @Test func theSortControlShowsTheActiveMode() {
        var state = makeState(makeList(priority: ["A"]))
        state.press(.tab, .character("s"), .character("s"), .character("s"), .character("c"))
        expectScreenSnapshot(state, named: "SortTests.theSortControlShowsTheActiveMode")
        var small = makeState(makeList(priority: ["A"]), size: Size(width: 30, height: 8))
        small.press(.tab, .character("s"))
        // Only the active mode where the rest does not fit.
        expectScreenSnapshot(small, named: "SortTests.theSortControlShowsTheActiveMode-2")
    }

    /// The view is updated change by change (binary search, index shifts); it must always
    /// equal a view built from scratch on the same list.
    @Test(arguments: [SortMode.manual, .newest, .oldest, .alphabetical])
    func changesKeepTheSortedViewEqualToAFreshOne(sort: SortMode) {
        var generator = SeededGenerator(seed: 7)
        var list = TaskList()
        for number in 0..<60 {
            list.append(
                TaskItem(
                    caption: ["Café", "tea", "Cake", "bread", "Apple"][number % 5] + " \(number % 13)",
                    section: number % 3 == 0 ? .bonus : .priority, completed: number % 4 == 0,
                    createdAt: testNow.addingTimeInterval(Double(number % 17) * 60)))
        }
        var state = makeState(list)
        state.view.setOrder(sort, completedLast: true, local: state.dates.local, list: state.tasks)
        state.view.setQuery("ca", list: state.tasks, dates: .runningNow)
        state.focus = .list
        let keys: [Key] = [.character("x"), .character("m"), .character("d"), .character("u"), .control("r"), .down, .up, .end]
        for step in 0..<300 {
            state.press(keys[Int.random(in: 0..<keys.count, using: &generator)])
            if step % 25 == 0 {
                state.press(.tab)
                state.type("Cat \(step)")
                state.press(.enter, .tab)
            }
            var fresh = ListView()
            fresh.setOrder(sort, completedLast: true, local: state.dates.local, list: state.tasks)
            fresh.setQuery("ca", list: state.tasks, dates: .runningNow)
            #expect(state.view == fresh, "after step \(step)")
            #expect(state.selectionIsVisible)
        }
    }
}
