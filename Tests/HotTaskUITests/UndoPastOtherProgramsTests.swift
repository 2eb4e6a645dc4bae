import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// `u` takes back only this app's own steps, and never another program's change on their
/// tasks: a step it cannot take stays on top, so the next `u` never skips past it.
@Suite("Undo in the app next to another program's changes")
struct UndoPastOtherProgramsTests {
    /// "Alpha" typed, then renamed here; another program renames it again.
    private func renamedElsewhere() -> AppState {
        var state = makeState()
        state.type("Alpha")
        state.press(.enter, .tab, .character("e"))
        state.press(.control("u"))
        state.type("Alpha edited here")
        state.press(.enter)
        let theirs = state.tasks.renaming(at: 0, to: "Alpha edited by a script")!
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([theirs])]), now: testNow)
        return state
    }

    @Test func aRefusedStepStaysOnTopAndTheAddBeneathItIsNeverTakenBack() {
        var state = renamedElsewhere()
        state.press(.character("u"))
        #expect(state.message?.text == "Not undone: “Alpha edited by a script” was changed in another program since")
        state.press(.character("u"))
        #expect(state.message?.text == "Not undone: “Alpha edited by a script” was changed in another program since")
        #expect(state.tasks.all.map(\.caption) == ["Alpha edited by a script"], "the script's edit is never deleted with the add")
        state.press(.control("r"))
        #expect(state.message?.text == "Nothing to redo", "nothing was undone, so nothing is there to redo")
    }

    @Test func theAddOfATaskChangedElsewhereIsNotTakenBack() {
        var state = makeState()
        state.type("Bravo")
        state.press(.enter, .tab)
        let theirs = state.tasks.renaming(at: 0, to: "Bravo, renamed by a script")!
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([theirs])]), now: testNow)
        let effects = state.press(.character("u"))
        #expect(savedChanges(effects).isEmpty)
        #expect(state.tasks.all.map(\.caption) == ["Bravo, renamed by a script"])
        #expect(state.message?.text == "Not undone: “Bravo, renamed by a script” was changed in another program since")
    }

    @Test func theAddOfATaskOnlyMovedElsewhereIsTakenBack() {
        var state = makeState(makeList(priority: ["Other"]))
        state.type("Charlie")
        state.press(.enter, .tab)
        let moved = state.tasks.moving(from: 0, to: .priority, index: 1)!
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([moved])]), now: testNow)
        #expect(state.tasks.all.map(\.caption) == ["Other", "Charlie"])
        state.press(.character("u"))
        #expect(state.tasks.all.map(\.caption) == ["Other"], "a task's place is not what it says")
    }
}
