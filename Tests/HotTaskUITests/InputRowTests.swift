import HotTaskCore
import Testing

@testable import HotTaskUI

@Suite("Input row: typing and editing")
struct InputRowTests {
    @Test func typingInsertsAtTheCursor() {
        var state = makeState()
        state.type("Buy milk")
        state.press(.left, .left, .left, .left)
        state.type("oat ")
        #expect(state.input.text == "Buy oat milk")
        #expect(state.input.cursor == 8)
    }

    @Test func cursorKeysAndDeletion() {
        var state = makeState()
        state.type("abcdef")
        state.press(.home, .delete, .end, .backspace, .left, .left)
        #expect(state.input.text == "bcde")
        #expect(state.input.cursor == 2)
        state.press(.right, .right, .right)
        #expect(state.input.cursor == 4)
    }

    @Test func emacsKeys() {
        var state = makeState()
        state.type("one two three")
        state.press(.control("w"))
        #expect(state.input.text == "one two ")
        state.press(.control("a"))
        #expect(state.input.cursor == 0)
        state.press(.control("e"))
        #expect(state.input.cursor == 8)
        state.press(.left, .left, .left, .left, .control("k"))
        #expect(state.input.text == "one ")
        state.type("2 three")
        state.press(.left, .left, .control("u"))
        #expect(state.input.text == "ee")
        #expect(state.input.cursor == 0)
    }

    @Test func scalarsThatBelongTogetherFormOneCharacter() {
        var state = makeState()
        state.type("Cafe\u{301} 👨‍👩‍👧 🇫🇷 ❤️")
        #expect(state.input.text == "Café 👨‍👩‍👧 🇫🇷 ❤️")
        #expect(state.input.characters.count == 10)
        state.press(.backspace, .backspace, .backspace, .backspace)
        #expect(state.input.text == "Café 👨‍👩‍👧")
    }

    @Test func enterAddsTheTrimmedCaptionOnTopAndSaves() {
        var state = makeState(makeList(priority: ["Old"], bonus: ["Later"]))
        state.press(.down, .down)
        state.type("   Buy milk 🥛  ")
        let effects = state.press(.enter)
        #expect(state.tasks.priority.map(\.caption) == ["Buy milk 🥛", "Old"])
        #expect(state.tasks.priority[0].createdAt == testNow)
        #expect(effects == [.save(state.tasks)])
        #expect(state.input.isEmpty)
        #expect(state.focus == .input)
        #expect(state.selection == 0, "the new task is selected so that it is seen")
    }

    @Test(arguments: ["", "   ", "\t", "\u{1B}"])
    func enterWithNothingToAddKeepsTheInputAndSaysSo(typed: String) {
        var state = makeState(makeList(priority: ["Old"]))
        state.type(typed)
        let effects = state.press(.enter)
        #expect(effects.isEmpty)
        #expect(state.tasks.count == 1)
        #expect(state.input.text == typed)
        #expect(state.message?.text == "Nothing to add — type a task first")
    }

    @Test func anOverlongCaptionIsRefusedWithTheReason() {
        var state = makeState()
        state.type(String(repeating: "a", count: 1_001))
        #expect(state.press(.enter).isEmpty)
        #expect(state.message?.text.contains("limit is 1000") == true)
        #expect(state.input.characters.count == 1_001)
    }
}
