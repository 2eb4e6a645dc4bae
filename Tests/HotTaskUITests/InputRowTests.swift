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
        let added = TaskItem(
            id: testID, caption: "Buy milk 🥛", createdAt: testNow, order: OrderKey.between(nil, state.tasks.priority[0].order))
        let effects = state.expectPress(.enter) { next in
            next.tasks.apply(.add(added), clock: .zero, force: true)
            next.input.clear()
            next.selection = 0  // the new task is selected so that it is seen
            next.scrollOffset = 0
            next.history.record(UndoStep([.add(added)], description: "Added “Buy milk 🥛”"))
        }
        #expect(state.tasks.priority.map(\.caption) == ["Buy milk 🥛", "Old"])
        #expect(effects == [.save(Save([.add(added)], what: "Added “Buy milk 🥛”", stepID: 1))])
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
