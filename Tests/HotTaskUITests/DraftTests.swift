import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Text typed and not added survives quitting: what the state calls its draft, and how it
/// comes back.
@Suite("The draft")
struct DraftTests {
    @Test func theDraftIsTheInputAndAnEditThatChangedSomething() {
        var state = makeState(makeList(priority: ["Buy milk"]))
        #expect(state.draft.isEmpty)
        state.type("half an idea")
        #expect(state.draft == Draft(input: "half an idea"))
        state.press(.tab, .character("e"))
        #expect(state.draft.captionEdit == nil, "an edit that changed nothing loses nothing")
        state.type(" and bread")
        let id = state.tasks.all[0].id
        #expect(state.draft == Draft(input: "half an idea", captionEdit: (id, "Buy milk and bread")))
    }

    @Test func aRestoredDraftIsBackWhereItWasAndSaysSo() {
        let list = makeList(priority: ["Buy milk", "Call mom"])
        let id = list.all[1].id
        var state = makeState(list)
        AppUpdate.restore(Draft(input: "half an idea", captionEdit: (id, "Call mom tonight")), &state)
        #expect(state.input.text == "half an idea")
        #expect(state.focus == .editing)
        #expect(state.editor.text == "Call mom tonight")
        #expect(state.selectedTask?.id == id)
        #expect(state.message?.text.hasPrefix("Restored") == true)
        // Enter saves the edit as if it had never been interrupted.
        state.press(.enter)
        #expect(state.tasks.all.map(\.caption) == ["Buy milk", "Call mom tonight"])
    }

    @Test func theStartEventTakesTheDraftDetailsAWarningAndTheSchedule() {
        let list = makeList(priority: ["Buy milk", "Call mom"])
        var state = makeState(list)
        var expected = state
        let schedule = SyncSchedule(now: Date(timeIntervalSince1970: 0), interval: 300, firstRetry: 10)
        _ = AppUpdate.update(
            &state,
            .started(
                Startup(
                    showsDetails: true, draft: Draft(input: "half an idea"), configProblems: ["config.toml: no such key"], syncSchedule: schedule)),
            now: state.now)
        expected.showsDetails = true
        AppUpdate.restore(Draft(input: "half an idea"), &expected)
        expected.configProblems = ["config.toml: no such key"]
        expected.showsConfigProblems = true
        expected.message = Message(
            "The config file has a problem (above; F1 shows it again)", kind: .error,
            shorter: ["Config: a problem; F1 shows it", "Config: a problem"])
        expected.syncSchedule = schedule
        expected.lastTimeCheck = state.now  // what the time changes on screen is current as of the start
        AppUpdate.followCursors(&expected)
        #expect(state == expected, "the whole state, as the run loop used to set it by hand")
    }

    @Test func anEditOfATaskGoneSinceComesBackInTheInput() {
        var state = makeState(makeList(priority: ["Buy milk"]))
        AppUpdate.restore(Draft(input: "one", captionEdit: (UUID(), "gone task text")), &state)
        #expect(state.focus == .input)
        #expect(state.input.text == "one gone task text")
        #expect(state.message != nil)
    }
}
