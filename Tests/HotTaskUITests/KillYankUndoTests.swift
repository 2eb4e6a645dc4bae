import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Word kills, Ctrl-Y and Ctrl-_ in the three line editors, as a shell's readline has them.
@Suite("Line editing: word kills, yank and undo")
struct KillYankUndoTests {
    @Test func altBackspaceAndCtrlWDeleteAWordBackAltDAWordForward() {
        var state = makeState()
        state.type("call the bank today")
        state.press(.altBackspace)
        #expect(state.input.text == "call the bank ")
        state.press(.control("w"))
        #expect(state.input.text == "call the ")
        state.press(.home, .alt("d"))
        #expect(state.input.text == " the ")
        #expect(state.input.cursor == 0)
        state.press(.alt("d"))
        #expect(state.input.text == " ", "the spaces before the next word go with it")
    }

    @Test func ctrlYPutsBackTheLastKillAndKillsInARowJoin() {
        var state = makeState()
        state.type("buy oat milk")
        state.press(.control("w"), .control("w"))
        #expect(state.input.text == "buy ")
        state.press(.control("y"))
        #expect(state.input.text == "buy oat milk", "both words, in the order they stood")
        state.press(.control("a"), .control("k"), .control("y"), .control("y"))
        #expect(state.input.text == "buy oat milkbuy oat milk")
        state.press(.left, .control("u"))
        #expect(state.killed == "buy oat milkbuy oat mil", "a kill after a move starts afresh")
    }

    @Test func ctrlUnderscoreTakesBackACtrlUAndTypingAWordAtATime() {
        var state = makeState()
        state.type("Renew the passport before March")
        state.press(.control("u"))
        #expect(state.input.isEmpty)
        state.press(.control("_"))
        #expect(state.input.text == "Renew the passport before March")
        #expect(state.input.cursor == 31)
        state.press(.control("_"))
        #expect(state.input.text == "Renew the passport before ")
        state.press(.control("_"), .control("_"))
        #expect(state.input.text == "Renew the ")
        state.press(.backspace, .backspace, .backspace, .control("_"))
        #expect(state.input.text == "Renew the ", "a run of Backspaces is one step")
        state.press(.control("_"), .control("_"), .control("_"))
        #expect(state.input.isEmpty)
        let before = state
        state.press(.control("_"))
        #expect(state == before, "nothing left to undo changes nothing")
    }

    @Test func undoTakesBackAPasteAndAYankWhole() {
        var state = makeState()
        state.type("a ")
        _ = AppUpdate.update(&state, .pasted("pasted words here"), now: testNow)
        state.press(.control("_"))
        #expect(state.input.text == "a ")
        state.press(.control("w"), .control("y"), .control("y"), .control("_"))
        #expect(state.input.text == "a ")
    }

    @Test func theKillIsSharedByTheInputTheFilterAndTheCaptionEditor() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        state.press(.control("f"))
        state.type("milk")
        state.press(.control("u"))
        #expect(state.layout.taskCount == 2, "the filter follows a kill")
        state.press(.control("_"))
        #expect(state.filter.text == "milk")
        #expect(state.layout.taskCount == 1, "and an undo")
        state.press(.escape, .tab, .character("e"), .end, .control("y"))
        #expect(state.editor.text == "Buy milkmilk")
        state.press(.control("_"))
        #expect(state.editor.text == "Buy milk")
        state.press(.control("_"))
        #expect(state.editor.text == "Buy milk", "undo never goes past the caption the edit started from")
    }

    @Test func aTaskAddedLeavesNothingToUndo() {
        var state = makeState()
        state.type("one")
        state.press(.enter, .control("_"))
        #expect(state.input.isEmpty)
        #expect(state.tasks.priority.map(\.caption) == ["one"])
    }

    @Test func undoHistoryHoldsBoundedText() {
        var editor = LineEditor()
        var killed = ""
        let long = String(repeating: "x", count: 60_000)
        for _ in 0..<20 {
            editor.insert(contentsOf: long)
            editor.deleteToStart(killed: &killed)
        }
        #expect(editor.undoSteps.snapshots.reduce(0) { $0 + $1.characters.count } <= LineUndo.maximumCharacters)
        let undone = editor.undo()
        #expect(undone)
        #expect(editor.text == String(repeating: "x", count: 60_000), "the newest steps are the ones kept")
    }

    @Test func theTerminalsFormsDecodeToTheseKeys() {
        #expect(decode("\u{1B}\u{7F}") == [.keyPressed(.altBackspace)])
        #expect(decode("\u{1B}\u{08}") == [.keyPressed(.altBackspace)], "Alt-Backspace where Backspace sends ^H")
        #expect(decode("\u{1F}") == [.keyPressed(.control("_"))], "Ctrl-_ and Ctrl-/ send 0x1F")
        #expect(decode("\u{1B}d\u{19}") == [.keyPressed(.alt("d")), .keyPressed(.control("y"))])
    }

    @Test func theHelpListsTheNewKeysWhereALineIsEdited() {
        for focus in [Focus.input, .filter, .editing] {
            let keys = KeyHelp.entries(for: focus).map(\.keys).joined(separator: " ")
            for key in ["^W", "Alt-⌫", "Alt-d", "^Y", "^_"] { #expect(keys.contains(key), "\(focus) \(key)") }
        }
    }
}
