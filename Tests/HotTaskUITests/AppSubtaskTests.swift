import Foundation
import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// The app keeps the subtask rules the command line keeps (`SubtaskRules`): d deletes a task
/// with its subtasks, Space completes them with it, m moves the family whole and never a
/// subtask alone, K/J keep a family in its section, and clearing keeps a completed parent
/// whose subtask is open. One u takes each back.
@Suite("Subtasks in the app")
struct AppSubtaskTests {
    /// Top Priority: Trip, with Flights and Pack under it, then Milk.
    func family() -> AppState {
        var list = makeList(priority: ["Trip", "Flights", "Pack", "Milk"])
        let trip = list.all[0]
        for index in [1, 2] {
            list.apply(ChangeRules.under(list.all[index], trip, key: nil)!, clock: .zero, force: true)
        }
        return makeState(list)
    }

    func rows(_ state: AppState) -> [String] {
        state.tasks.all.map { "\($0.section == .priority ? "P" : "B") \($0.completed ? "x" : " ") \($0.caption)" }
    }

    @Test func dDeletesATaskWithItsSubtasksAndOneUndoBringsThemBack() {
        var state = family()
        let before = rows(state)
        state.press(.tab, .character("d"))
        #expect(rows(state) == ["P   Milk"])
        #expect(state.message?.text == "Deleted “Trip” and its 2 subtasks — u to undo")
        state.press(.character("u"))
        #expect(rows(state) == before)
        #expect(state.tasks.all.map { $0.parent == nil } == [true, false, false, true], "each under its parent again")
    }

    @Test func spaceCompletesTheOpenSubtasksWithTheirParent() {
        var state = family()
        state.press(.tab, .character(" "))
        #expect(rows(state).filter { $0.hasPrefix("P x") }.count == 3, "\(rows(state))")
        #expect(state.message?.text == "Completed “Trip” (and its 2 open subtasks)")
        state.press(.character("u"))
        #expect(state.tasks.completedCount == 0)
    }

    @Test func mMovesTheFamilyWholeAndASubtaskAloneIsRefused() {
        var state = family()
        state.press(.tab, .down)  // Flights
        let before = rows(state)
        state.press(.character("m"))
        #expect(rows(state) == before, "nothing moved")
        #expect(state.message?.text == "“Flights” is a subtask: it stays in its parent's section (move the parent)")
        state.press(.up, .character("m"))  // Trip
        #expect(rows(state) == ["P   Milk", "B   Trip", "B   Flights", "B   Pack"])
        #expect(state.message?.text == "Moved “Trip” and its 2 subtasks to Bonus — u to undo")
    }

    @Test func reorderKeepsASubtaskAmongItsSiblings() {
        var state = family()
        state.press(.tab, .down, .down)  // Pack, the last subtask of Trip
        state.press(.character("J"))  // never out past Milk: said, not moved
        #expect(rows(state) == ["P   Trip", "P   Flights", "P   Pack", "P   Milk"])
        #expect(state.message?.text == "“Pack” is the last subtask of “Trip”: h takes it out of the family")
        state.press(.character("K"))  // before Flights, its sibling
        #expect(rows(state) == ["P   Trip", "P   Pack", "P   Flights", "P   Milk"])
        state.press(.character("K"))  // and never above its parent
        #expect(rows(state) == ["P   Trip", "P   Pack", "P   Flights", "P   Milk"])
        #expect(state.message?.text == "“Pack” is the first subtask of “Trip”: h takes it out of the family")
        state.press(.down, .down, .character("J"))  // Milk, a task of its own, goes
        #expect(rows(state) == ["P   Trip", "P   Pack", "P   Flights", "B   Milk"])
    }

    @Test func tMovesTheFamilyToAnotherListAndASubtaskAloneIsRefused() {
        var state = family()
        var list = state.tasks
        list.lists.add("Work")
        state = makeState(list)
        state.press(.tab, .down, .character("T"))  // Flights
        state.type("Work")
        state.press(.enter)
        #expect(state.message?.text == "“Flights” is a subtask: it stays in its parent's list (move the parent)")
        #expect(state.tasks.all.allSatisfy { $0.list.isEmpty })
        state.press(.up, .character("T"))  // Trip
        state.type("Work")
        state.press(.enter)
        #expect(state.tasks.all.map(\.list) == ["Work", "Work", "Work", ""])
    }

    @Test func oAddsSubtasksUnderTheSelectedTaskAfterItsOwnUntilTheInputIsLeft() {
        var state = family()
        state.press(.tab, .character("o"))  // under Trip
        #expect(state.focus == .input)
        state.type("Tickets")
        expectScreenSnapshot(state, named: "subtask-input-80")
        state.press(.enter)
        #expect(state.tasks.all.map(\.caption) == ["Trip", "Flights", "Pack", "Tickets", "Milk"])
        #expect(state.tasks.all[3].parent == state.tasks.all[0].id)
        state.type("Visa")
        _ = AppUpdate.update(&state, .keyPressed(.enter), now: testNow, newID: UUID())
        #expect(state.tasks.all.map(\.caption) == ["Trip", "Flights", "Pack", "Tickets", "Visa", "Milk"], "the next one too, after it")
        // Left and back: a task of its own again, on top.
        state.press(.tab, .tab)
        state.type("Bread")
        _ = AppUpdate.update(&state, .keyPressed(.enter), now: testNow, newID: UUID())
        #expect(state.tasks.all.first?.caption == "Bread" && state.tasks.all.first?.parent == nil)
    }

    @Test func escTakesBackOAndKeepsWhatWasTyped() {
        var state = family()
        state.press(.tab, .character("o"))  // under Trip
        state.type("Tick")
        state.press(.escape)
        #expect(state.focus == .input, "the next letters are typed, never list commands")
        #expect(state.message?.text == "Not a subtask of “Trip”: Enter adds a task of its own")
        #expect(state.input.text == "Tick")
        expectScreenSnapshot(state, named: "subtask-input-taken-back-80")
        // A second Esc does nothing here; Enter adds a task of its own, not a subtask.
        state.press(.escape)
        #expect(state.focus == .input)
        state.type("ets")
        state.press(.enter)
        #expect(state.tasks.all.first?.caption == "Tickets" && state.tasks.all.first?.parent == nil)
    }

    @Test func aSubtaskASortPutsAwayFromItsFamilyIsNotIndentedUnderAnotherTask() {
        var state = family()
        state.press(.tab, .character("s"), .character("s"), .character("s"))  // Newest, Oldest, A–Z
        let rows = AppRender.render(state, size: state.size).lines.filter { $0.contains("[ ]") }
        #expect(rows.map { $0.trimmingCharacters(in: .whitespaces) } == ["[ ] Flights", "[ ] Milk", "[ ] Pack", "› [ ] Trip  ▾ 0/2"], "\(rows)")
        #expect(rows.allSatisfy { $0.hasPrefix("› [ ]") || $0.hasPrefix("  [ ]") }, "none indented: \(rows)")
    }

    @Test(arguments: [80, 40])
    func subtasksAreIndentedUnderTheirParent(width: Int) {
        var list = family().tasks
        let pack = list.all[2]
        list.apply(
            list.adding(TaskItem(caption: "Passport and the visa papers for everyone", section: .priority, createdAt: testNow), under: pack),
            clock: .zero, force: true)
        var state = makeState(list, size: Size(width: width, height: 12))
        state.press(.tab, .down, .down, .down)
        expectScreenSnapshot(state, named: "subtasks-indented-\(width)")
    }

    @Test func clearingCompletedKeepsACompletedParentWithAnOpenSubtask() {
        var state = family()
        state.press(.tab, .character(" "))  // Trip and both subtasks done
        state.press(.down, .character(" "))  // Flights open again
        state.press(.character("C"))
        #expect(state.confirmation == .clearCompleted(count: 1), "Pack only: Trip keeps its open Flights")
        state.press(.character("y"))
        #expect(rows(state) == ["P x Trip", "P   Flights", "P   Milk"])
    }
}
