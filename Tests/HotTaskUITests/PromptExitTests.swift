import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// No mode traps: every prompt on a row (a caption edit, a due date, a repeat rule), opened from the input row
/// or the list by any of its keys, gives the keys back where they were on every way out, and
/// the footer says where they went when that is the input row. The letter typed next goes
/// there: a typed `x` never reopens a task behind the person's back.
@Suite("Prompts: every way out returns the keys")
struct PromptExitTests {
    /// A prompt and how it is opened.
    enum Opening: String, CaseIterable, CustomTestStringConvertible {
        case editByF2InTheInput, editByEInTheList, editByF2InTheList
        case dueByF3InTheInput, dueByWInTheList
        case repeatByRInTheList

        var origin: Focus { rawValue.hasSuffix("Input") ? .input : .list }
        var prompt: Focus { rawValue.hasPrefix("edit") ? .editing : rawValue.hasPrefix("repeat") ? .repeating : .due }
        var key: Key {
            switch self {
            case .editByF2InTheInput, .editByF2InTheList: .function(2)
            case .editByEInTheList: .character("e")
            case .dueByF3InTheInput: .function(3)
            case .dueByWInTheList: .character("w")
            case .repeatByRInTheList: .character("r")
            }
        }
        var testDescription: String { rawValue }
    }

    /// How a prompt is left.
    enum WayOut: String, CaseIterable, CustomTestStringConvertible {
        /// Enter with an entry the prompt takes.
        case enter
        case escape
        /// Another program deleted the task: the prompt closes as this list hears of it.
        case taskDeletedElsewhere

        var testDescription: String { rawValue }
    }

    /// The list with "Buy milk" selected and completed, focus where `opening` starts from.
    private func opened(_ opening: Opening) -> AppState {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"], completed: ["Buy milk"]))
        if opening.origin == .list { state.press(.tab) }
        state.press(opening.key)
        #expect(state.focus == opening.prompt, "\(opening) opens its prompt")
        return state
    }

    @Test(arguments: Opening.allCases, WayOut.allCases)
    func everyWayOutGivesTheKeysBackWhereTheyWere(_ opening: Opening, _ wayOut: WayOut) {
        var state = opened(opening)
        let selected = state.selectedTask?.id
        switch wayOut {
        case .enter:
            state.press(.control("u"))
            state.type(["Buy oat milk", "weekly", "tomorrow"][opening.prompt == .editing ? 0 : opening.prompt == .repeating ? 1 : 2])
            state.press(.enter)
        case .escape:
            state.press(.escape)
        case .taskDeletedElsewhere:
            let task = state.tasks.priority[0]
            _ = AppUpdate.update(&state, .changedOutside([outsideRecord([.delete(task)])]), now: testNow)
        }
        #expect(state.focus == opening.origin, "\(opening), \(wayOut): the keys go back where they were")
        let footer = AppRender.render(state, size: state.size).lines[23]
        if opening.origin == .input {
            // (Text kept from a deleted task's edit is said to be in the input: the keys are too.)
            #expect(footer.lowercased().contains("new-task input"), "the footer says where the keys went: \(footer)")
        }
        // The next letter goes there: typed in the input, or a command in the list.
        let completedBefore = state.tasks.completedCount
        let inputBefore = state.input.text
        state.type("x")
        if opening.origin == .input {
            #expect(state.input.text == inputBefore + "x", "typed into the input row")
            #expect(state.tasks.completedCount == completedBefore, "no task toggled")
        } else if wayOut != .taskDeletedElsewhere {
            #expect(state.selectedTask?.id == selected)
            #expect(state.tasks.completedCount == completedBefore - 1, "x toggles the selected task in the list")
        }
    }

    @Test(arguments: Opening.allCases)
    func whatIsNotAWayOutKeepsThePromptOpen(_ opening: Opening) {
        var state = opened(opening)
        // An entry the prompt refuses: the reason, and the prompt stays.
        state.press(.control("u"))
        state.type(opening.prompt == .editing ? "   " : "someday")
        state.press(.enter)
        #expect(state.focus == opening.prompt, "a refused entry keeps the prompt")
        // The help over it, closed by any key.
        state.press(.function(1))
        #expect(state.help == opening.prompt)
        state.press(.character("q"))
        #expect(state.focus == opening.prompt && state.help == nil, "closing the help leaves the prompt open")
        // A stray click.
        _ = AppUpdate.update(&state, .clicked(column: 10, row: 5), now: testNow)
        #expect(state.focus == opening.prompt, "a click leaves the prompt open")
        state.press(.escape)
        #expect(state.focus == opening.origin)
    }

    @Test func aClickThatMovesTheKeysToTheListSaysSo() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        state.type("half")
        _ = AppUpdate.update(&state, .clicked(column: 10, row: 5), now: testNow)
        #expect(state.focus == .list)
        #expect(AppRender.render(state, size: state.size).lines[23].hasPrefix("Selected — keys go to the list (Tab: the new-task input)"))
    }

    @Test func aFilterKeptFromTheInputRowSaysTheKeysGoToTheList() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        state.press(.control("f"))
        state.type("mum")
        state.press(.enter)
        #expect(state.focus == .list)
        #expect(AppRender.render(state, size: state.size).lines[23].hasPrefix("Filter kept — keys go to the list (Tab: the new-task input)"))
    }
}
