import Foundation
import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// Issue 42's mouse: a click on a checkbox toggles its task, a click on a sort label sorts so, a
/// double-click on a caption edits it; the wheel still scrolls.
@Suite("Mouse: checkboxes, sort labels, double-clicks")
struct MouseActionsTests {
    private func click(_ state: inout AppState, column: Int, row: Int, at time: TimeInterval = 0) -> [Effect] {
        AppUpdate.update(&state, .clicked(column: column, row: row), now: testNow.addingTimeInterval(time), newID: testID)
    }

    @Test func aClickOnACheckboxTogglesItsTaskAndSavesIt() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        // Rows: 3 Top Priority, 4 Buy milk, 5 Call mum; "› [ ] " puts the box at columns 2 to 4.
        for column in 2...4 {
            let effects = click(&state, column: column, row: 5, at: Double(column))
            #expect(savedChanges(effects).count == 1, "column \(column)")
        }
        #expect(state.tasks.priority[1].completed, "three clicks: done, open, done")
        #expect(state.selectedTask?.caption == "Call mum")
        #expect(!state.tasks.priority[0].completed)
        #expect(click(&state, column: 6, row: 4, at: 10).isEmpty, "the caption only selects")
        #expect(!state.tasks.priority[0].completed)
    }

    @Test func aClickOnASortLabelSortsSoAndOnDoneLastTogglesIt() {
        var state = makeState(makeList(priority: ["b", "a"], completed: ["b"]))
        // "──── [Manual] Newest  Oldest  A–Z  Due ─": A–Z at columns 72 to 74.
        let bar = AppRender.render(state, size: state.size).line(2)
        let column = DisplayWidth.of(String(bar[..<bar.range(of: "A–Z")!.lowerBound]))
        _ = click(&state, column: column + 1, row: 2)
        #expect(state.view.sort == .alphabetical)
        #expect(AppRender.render(state, size: state.size).line(2).hasSuffix("Manual  Newest  Oldest [A–Z] Due ─"))
        state.press(.tab, .character("c"))
        let withToggle = AppRender.render(state, size: state.size).line(2)
        #expect(withToggle.contains("[done last]"))
        let toggle = DisplayWidth.of(String(withToggle[..<withToggle.range(of: "done last")!.lowerBound]))
        _ = click(&state, column: toggle, row: 2)
        #expect(!state.view.completedLast)
        #expect(state.view.sort == .alphabetical)
    }

    @Test func aDoubleClickOnACaptionEditsItAndTwoSlowClicksDoNot() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        state.type("half typed")
        _ = click(&state, column: 10, row: 5, at: 0)
        _ = click(&state, column: 12, row: 5, at: 0.3)
        #expect(state.focus == .editing && state.editor.text == "Call mum")
        #expect(state.input.text == "half typed", "the input keeps its text")
        state.press(.escape)
        #expect(state.focus == .list)
        _ = click(&state, column: 10, row: 4, at: 10)
        _ = click(&state, column: 10, row: 4, at: 11)
        #expect(state.focus == .list, "a second click a second later only selects again")
        _ = click(&state, column: 10, row: 5, at: 20)
        _ = click(&state, column: 10, row: 4, at: 20.2)
        #expect(state.focus == .list, "two clicks on two tasks")
    }

    @Test func theWheelStillScrolls() {
        var state = makeState(makeList(priority: numberedTasks(60)))
        _ = AppUpdate.update(&state, .wheelScrolled(lines: 3), now: testNow)
        #expect(state.scrollOffset == 3)
    }
}
