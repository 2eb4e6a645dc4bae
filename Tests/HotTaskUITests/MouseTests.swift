import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Clicks select a task or focus the input; the wheel scrolls; `mouse = false` in the config.
@Suite("Mouse: clicks and the wheel")
struct MouseTests {
    private func click(_ state: inout AppState, column: Int = 10, row: Int) -> [Effect] {
        AppUpdate.update(&state, .clicked(column: column, row: row), now: testNow, newID: testID)
    }

    @Test func aClickOnATaskSelectsItAndGivesTheListTheKeys() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"], bonus: ["Read"]))
        state.type("half typed")
        // Rows: 3 Top Priority, 4 Buy milk, 5 Call mum, 6 spacer, 7 Bonus, 8 Read.
        _ = click(&state, row: 8)
        #expect(state.selectedTask?.caption == "Read")
        #expect(state.focus == .list)
        #expect(state.input.text == "half typed", "the input keeps its text")
        _ = click(&state, row: 7)
        #expect(state.selectedTask?.caption == "Read", "a header selects nothing")
        _ = click(&state, row: 5)
        #expect(state.selectedTask?.caption == "Call mum")
        state.press(.character("x"))
        #expect(state.tasks.priority.first { $0.caption == "Call mum" }?.completed == true, "the keys act on the clicked task")
    }

    @Test func aClickOnAScrolledListAndOnADetailsRowFindsItsTask() {
        var state = makeState(makeList(priority: numberedTasks(100)))
        state.press(.tab, .end)
        #expect(state.scrollOffset > 0)
        let bottom = state.screen.listTop + state.screen.listHeight - 1
        _ = click(&state, row: bottom - 1)
        #expect(state.selectedTask?.caption == "Task 99")
        state.press(.character("v"))  // details: two rows a task
        let row = state.screen.listTop + state.layout.lastRow(ofTask: state.selection) - state.scrollOffset
        _ = click(&state, row: row - 2)
        #expect(state.selectedTask?.caption == "Task 98", "the details row belongs to its task")
    }

    @Test func aClickOnTheInputRowFocusesItAndPlacesTheCursor() {
        var state = makeState(makeList(priority: ["Buy milk"]))
        state.type("call the bank")
        state.press(.tab)
        #expect(state.focus == .list)
        _ = click(&state, column: 2 + 5, row: 1)
        #expect(state.focus == .input)
        #expect(state.input.cursor == 5, "before the character clicked")
        _ = click(&state, column: 60, row: 1)
        #expect(state.input.cursor == 13, "right of the text: the end")
        let effects = click(&state, column: 76, row: 1)  // [Add]
        #expect(state.tasks.priority.map(\.caption) == ["call the bank", "Buy milk"])
        #expect(!savedChanges(effects).isEmpty)
    }

    @Test func clicksCloseTheHelpAnswerNoAndLeaveAnEditAlone() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"], completed: ["Buy milk"]))
        state.press(.tab, .character("?"))
        _ = click(&state, row: 5)
        #expect(state.help == nil && state.selection == 0, "the click only closed the help")
        state.press(.character("C"))
        _ = click(&state, row: 5)
        #expect(state.confirmation == nil && state.tasks.count == 2, "a click is not y")
        state.press(.character("e"))
        _ = click(&state, row: 5)
        #expect(state.focus == .editing && state.selection == 0)
        #expect(state.message?.text == "Enter saves the edit, Esc cancels it")
        state.press(.escape, .character("w"))
        state.type("fri")
        _ = click(&state, row: 1)  // the input row
        #expect(state.focus == .due && state.editor.text == "fri", "the due date typed is kept")
        #expect(state.message?.text == "Enter sets the due date, Esc cancels it")
    }

    @Test func aClickFromTheFilterKeepsItAsEnterWould() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum", "Buy bread"]))
        state.press(.control("f"))
        state.type("buy")
        _ = click(&state, row: 5)
        #expect(state.focus == .list)
        #expect(state.view.isFiltering)
        #expect(state.selectedTask?.caption == "Buy bread")
    }

    @Test func theConfigCanTurnTheMouseOff() throws {
        #expect(AppConfig.standard.mouse)
        #expect(AppConfig.parse("mouse = false\n", file: "c.toml").mouse == false)
        let bad = AppConfig.parse("mouse = \"off\"\ntheme = \"light\"\n", file: "c.toml")
        #expect(bad.mouse == true && bad.theme == .light, "only the bad setting is dropped")
        #expect(bad.warnings.map(\.description) == ["config c.toml line 1: mouse must be true or false, not \"off\"; skipped"])
    }
}
