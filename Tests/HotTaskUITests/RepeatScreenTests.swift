import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Repeating tasks on the screen: the repeat prompt (`r`), ↻ on the row, and Space moving a
/// repeating task to its next occurrence. `testNow` is Wednesday 2026-11-18, 12:06 in Berlin.
@Suite("Repeating tasks in the list")
struct RepeatScreenTests {
    static let berlin = ZoneInfo(identifier: "Europe/Berlin")!

    func state() -> AppState {
        let tasks = [
            TaskItem(caption: "Water plants", createdAt: testNow),
            TaskItem(caption: "Pay rent", createdAt: testNow, due: .date(year: 2026, month: 11, day: 30)),
        ]
        var state = makeState(TaskList(tasks), size: Size(width: 80, height: 24))
        state.zone = Self.berlin
        return state
    }

    @Test func rShowsTheRuleAsItIsTypedEnterSetsItAndSpaceMovesTheTaskOn() throws {
        var state = state()
        state.press(.tab, .character("r"))
        #expect(state.focus == .repeating)
        state.type("every sun")
        expectScreenSnapshot(state, named: "RepeatScreenTests.rShowsTheRuleAsItIsTypedEnterSetsItAndSpaceMovesTheTaskOn")
        let effects = state.press(.enter)
        #expect(savedChanges(effects).count == 1)
        #expect(state.tasks[0].repeatRule.rrule == "FREQ=WEEKLY;BYDAY=SU")
        #expect(state.tasks[0].due == .date(year: 2026, month: 11, day: 22), "the first Sunday from today")
        #expect(
            AppRender.render(state, size: state.size).lines[4] == "› [ ] Water plants                                                        ↻ Sun")
        // Space: the next Sunday, the task open, and the message says when.
        state.press(.character(" "))
        #expect(!state.tasks[0].completed)
        #expect(state.tasks[0].due == .date(year: 2026, month: 11, day: 29))
        #expect(state.message?.text.hasPrefix("Completed “Water plants” — next: Sun 29 Nov") == true)
        #expect(Progress(state.tasks).completed == 0, "an occurrence done is not a task done")
        // u takes it back; an empty entry stops the repeat.
        state.press(.character("u"))
        #expect(state.tasks[0].due == .date(year: 2026, month: 11, day: 22))
        state.press(.character("r"))
        #expect(state.editor.text == "every Sun" && state.editor.isAllSelected)
        state.press(.backspace, .enter)
        #expect(state.tasks[0].repeatRule.isNone)
        #expect(state.tasks[0].due == .date(year: 2026, month: 11, day: 22), "the due date stays")
    }

    @Test func aBadRuleKeepsThePromptOpenAndEscLeavesTheRule() {
        var state = state()
        state.press(.tab, .character("r"))
        state.type("fortnightly")
        #expect(AppRender.render(state, size: state.size).lines[4].hasSuffix("✗ not a repeat rule"))
        #expect(state.press(.enter).isEmpty)
        #expect(state.focus == .repeating)
        #expect(state.message?.text.contains("“fortnightly” is not a repeat rule") == true)
        state.press(.escape)
        #expect(state.focus == .list && state.tasks[0].repeatRule.isNone)
        #expect(state.message?.text == "Repeat unchanged")
    }

    @Test func theHelpListsTheKey() {
        #expect(KeyHelp.entries(for: .list).contains { $0.keys == "w / r" && $0.action == "set or clear the due date / repeat rule" })
        #expect(KeyHelp.entries(for: .repeating).contains { $0.action.hasPrefix("a repeat rule: daily, weekly") })
    }

    /// Issue 52 item 5: a synced task whose calendar series HotTask cannot step (a phone's
    /// BYMONTHDAY) is not completed by Space: the footer says why and what to do instead.
    @Test func spaceOnASeriesHotTaskCannotStepSaysSoAndChangesNothing() {
        var state = state()
        let rent = state.tasks[1]
        _ = AppUpdate.update(&state, .unsteppable([rent.id: "BYMONTHDAY=1"]), now: testNow)
        state.press(.tab, .down)
        let before = state.tasks
        let effects = state.press(.character(" "))
        #expect(savedChanges(effects).isEmpty)
        #expect(state.tasks == before)
        #expect(
            state.message?.text
                == "Not completed: 'Pay rent' repeats in your calendar by a rule HotTask cannot step (BYMONTHDAY=1); complete it in your calendar app"
        )
        // The other task completes as ever.
        state.press(.up)
        #expect(savedChanges(state.press(.character(" "))).count == 1)
    }
}
