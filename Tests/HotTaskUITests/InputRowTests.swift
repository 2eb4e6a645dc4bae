import HotTaskSettings
import Testing

@testable import HotTaskCore
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
            return next.committing([.add(added)], "Added “Buy milk 🥛”")
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

    @Test func aClippedInputShowsMarkersAndTheViewMovesOnlyAsFarAsTheCursorNeeds() {
        var state = makeState(size: Size(width: 40, height: 12))
        state.type("one two three four five six seven eight nine ten")
        // At 40 columns the field has 31: room for the cursor after the text.
        expectScreenSnapshot(state, named: "InputRowTests.aClippedInputShowsMarkersAndTheViewMovesOnlyAsFarAsTheCursorNeeds")
        // Left within the view: the text stays where it is.
        state.press(.left, .left, .left, .wordLeft, .wordLeft)
        expectScreenSnapshot(state, named: "InputRowTests.aClippedInputShowsMarkersAndTheViewMovesOnlyAsFarAsTheCursorNeeds-2")
        // Home: the start shows, the end is marked as hidden.
        state.press(.home)
        expectScreenSnapshot(state, named: "InputRowTests.aClippedInputShowsMarkersAndTheViewMovesOnlyAsFarAsTheCursorNeeds-3")
        let cursor = AppRender.render(state, size: state.size).cursor
        #expect(cursor?.x == 2)
        // Right within the view: nothing moves; past its edge, one character at a time.
        state.press(.wordRight, .wordRight)
        expectScreenSnapshot(state, named: "InputRowTests.aClippedInputShowsMarkersAndTheViewMovesOnlyAsFarAsTheCursorNeeds-4")
        state.press(.end, .home)
        for _ in 0..<31 { state.press(.right) }
        // Three characters off the left, no more.
        expectScreenSnapshot(state, named: "InputRowTests.aClippedInputShowsMarkersAndTheViewMovesOnlyAsFarAsTheCursorNeeds-5")
    }

    @Test func theHelpNamesEveryWorkingKeyAndTheConfiguredSection() {
        var state = AppState(tasks: makeList(priority: ["A"]), size: Size(width: 80, height: 40), config: AppConfig(defaultSection: .bonus))
        state.press(.function(1))
        // Adding goes on top of Bonus; ^B ^D ^Q ^Z ^L ^← Alt-b and paste are all there.
        expectScreenSnapshot(state, named: "InputRowTests.theHelpNamesEveryWorkingKeyAndTheConfiguredSection")
        state.press(.escape, .tab, .function(1))
        expectScreenSnapshot(state, named: "InputRowTests.theHelpNamesEveryWorkingKeyAndTheConfiguredSection-2")
        state.press(.escape, .control("f"), .function(1))
        expectScreenSnapshot(state, named: "InputRowTests.theHelpNamesEveryWorkingKeyAndTheConfiguredSection-3")
        state.press(.escape, .escape, .tab, .character("e"), .function(1))
        expectScreenSnapshot(state, named: "InputRowTests.theHelpNamesEveryWorkingKeyAndTheConfiguredSection-4")
    }

    @Test func theListFooterSaysHowToGetBackToTheInput() {
        var state = makeState(makeList(priority: ["A"]))
        state.press(.tab)
        // Issue 42: w, m and C were not in the footer. As many keys as fit, the way back first.
        expectScreenSnapshot(state, named: "InputRowTests.theListFooterSaysHowToGetBackToTheInput")
        // A list longer than the screen keeps room for where the selection is; keys give way.
        var long = makeState(makeList(priority: numberedTasks(100)))
        long.press(.tab)
        #expect(AppRender.render(long, size: long.size).line(23) == "Tab input  Space done  e edit  w due  m move  C clear  u undo  ? help     1/100")
    }

    /// Issue 48: at 200 columns `u undo` named the step it would take back, the last message's
    /// words again among the keys, as if left stale. The footer shows a message or the keys.
    @Test func aWideFooterShowsTheMessageThenOnlyTheKeys() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]), size: Size(width: 200, height: 8))
        state.press(.tab, .character("d"))
        expectScreenSnapshot(state, named: "InputRowTests.aWideFooterShowsTheMessageThenOnlyTheKeys")
        state.press(.down)  // the message gives way to the keys, and only the keys
        expectScreenSnapshot(state, named: "InputRowTests.aWideFooterShowsTheMessageThenOnlyTheKeys-2")
    }

    @Test func anOverlongCaptionIsRefusedWithTheReason() {
        var state = makeState()
        state.type(String(repeating: "a", count: 1_001))
        #expect(state.press(.enter).isEmpty)
        #expect(state.message?.text.contains("limit is 1000") == true)
        #expect(state.input.characters.count == 1_001)
    }
}
