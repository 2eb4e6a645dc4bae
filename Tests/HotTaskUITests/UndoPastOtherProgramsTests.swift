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

    /// Another program renamed "Delta" just before this app's rename reached the store, which
    /// the app had not seen yet: `u` puts back the other program's name, as `--undo` does.
    @Test func undoPutsBackTheNameAnotherProgramGaveJustBeforeThisAppsRename() {
        let list = makeList(priority: ["Delta"])
        var state = makeState(list)
        state.press(.tab, .character("e"))
        state.press(.control("u"))
        state.type("Delta renamed here")
        let effects = state.press(.enter)
        let save = effects.compactMap { effect -> Save? in if case .save(let save) = effect { save } else { nil } }
        try? #require(save.count == 1)
        guard let save = save.first else { return }
        let theirs = list.renaming(at: 0, to: "Delta renamed by a script")!
        let oursStamp = Clock(milliseconds: 9_000_000_002_000)
        _ = AppUpdate.update(
            &state, .saved(save, clock: oursStamp, outside: [outsideRecord([theirs], clock: Clock(milliseconds: 9_000_000_001_000))]), now: testNow)
        #expect(state.tasks.all.map(\.caption) == ["Delta renamed here"], "the later rename wins")
        let undone = savedChanges(state.press(.character("u")))
        #expect(state.tasks.all.map(\.caption) == ["Delta renamed by a script"])
        #expect(undone.count == 1)
        #expect(state.message?.text.hasPrefix("Undone: ") == true)
    }
}
