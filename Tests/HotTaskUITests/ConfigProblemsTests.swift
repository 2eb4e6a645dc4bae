import Foundation
import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// Issue 42: a config problem in the footer was cut to the width and gone after one key. Now
/// every problem is listed over the list at start, and the help overlay lists them again.
@Suite("Config problems: all listed at start, readable in the help")
struct ConfigProblemsTests {
    let problems = [
        "config.toml line 1: theme must be \"auto\", \"dark\", \"light\" or \"mono\", not \"drak\"; skipped",
        "config.toml line 7: unknown key name \"spcae\" for toggle (a single character, or space, enter, tab, escape, up, ctrl-r, f2...); [keys] not used: the standard keys",
    ]

    private func started() -> AppState {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        _ = AppUpdate.update(&state, .started(Startup(showsDetails: false, configProblems: problems)), now: testNow)
        return state
    }

    @Test func everyProblemIsListedAtStartUntilTheNextKey() {
        var state = started()
        expectScreenSnapshot(state, named: "ConfigProblemsTests.everyProblemIsListedAtStartUntilTheNextKey")
        state.type("a")
        #expect(!state.showsConfigProblems, "the next key clears them and is taken as usual")
        #expect(state.input.text == "a")
    }

    @Test func theHelpOverlayListsThemForAsLongAsTheAppRuns() {
        var state = started()
        state.type("x")
        state.press(.function(1))
        // The notes' words, as the box wraps them.
        let words = AppRender.render(state, size: state.size).lines.joined(separator: " ").split(separator: " ")
            .filter { !["│", "▲", "▼"].contains($0) }.joined(separator: " ")
        #expect(words.contains("Config config.toml line 1: theme must be"))
        #expect(words.contains("Config config.toml line 7: unknown key name"))
        #expect(words.contains("[keys] not used: the standard keys"))
    }
}
