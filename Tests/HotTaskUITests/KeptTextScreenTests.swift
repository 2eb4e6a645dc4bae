import Foundation
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Text from a file or a server on the screen (issue 41): a caption with line breaks and tabs
/// on one row, a phone's to-do without a title as "(no title)"; the editor opens on what the
/// row shows, and Enter on it unchanged leaves the caption as it came.
@Suite("Kept text on the screen")
struct KeptTextScreenTests {
    func state() -> AppState {
        var list = makeList(priority: ["Line one\nLine two\tand a tab", ""], bonus: ["  spaced  "])
        list = TaskList(list.all)
        return makeState(list)
    }

    @Test func captionsFromElsewhereShowOnOneRowAndNoTitleIsSaid() {
        var state = state()
        state.press(.tab)
        expectScreenSnapshot(state, named: "KeptTextScreenTests.captionsFromElsewhereShowOnOneRowAndNoTitleIsSaid")
    }

    @Test func anEditStartsFromTheRowAndEnterOnItUnchangedKeepsTheCaption() {
        var state = state()
        state.press(.tab, .character("e"))
        #expect(state.editor.text == "Line one Line two and a tab")
        let effects = state.press(.enter)
        #expect(effects.isEmpty, "nothing saved: the caption keeps its line break and tab")
        #expect(state.tasks.priority[0].caption == "Line one\nLine two\tand a tab")
        state.press(.down, .character("e"))
        #expect(state.editor.text == "", "a task without a title opens empty")
        state.type("Named")
        let saved = savedChanges(state.press(.enter))
        #expect(saved.count == 1 && state.tasks.priority[1].caption == "Named")
    }

    @Test func aTypedDueWordIsTheDueDate() {
        var state = makeState()
        state.type("Pay rent due:2030-12-01")
        let saved = savedChanges(state.press(.enter))
        #expect(saved.count == 1)
        #expect(state.tasks.priority.map(\.caption) == ["Pay rent"])
        #expect(state.tasks.priority.first?.due == DueDate(text: "2030-12-01"))
    }
}
