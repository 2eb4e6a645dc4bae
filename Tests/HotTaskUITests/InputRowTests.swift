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

    /// The input row at 40 columns: a 31-column field.
    private func inputRow(_ state: AppState) -> String {
        AppRender.render(state, size: state.size).line(1)
    }

    @Test func aClippedInputShowsMarkersAndTheViewMovesOnlyAsFarAsTheCursorNeeds() {
        var state = makeState(size: Size(width: 40, height: 12))
        state.type("one two three four five six seven eight nine ten")
        #expect(inputRow(state) == "+ …five six seven eight nine ten  [Add]", "room for the cursor after the text")
        let atEnd = inputRow(state)
        // Left within the view: the text stays where it is.
        state.press(.left, .left, .left, .wordLeft, .wordLeft)
        #expect(inputRow(state) == atEnd)
        // Home: the start shows, the end is marked as hidden.
        state.press(.home)
        #expect(inputRow(state) == "+ one two three four five six se… [Add]")
        let cursor = AppRender.render(state, size: state.size).cursor
        #expect(cursor?.x == 2)
        // Right within the view: nothing moves; past its edge, one character at a time.
        state.press(.wordRight, .wordRight)
        #expect(inputRow(state) == "+ one two three four five six se… [Add]")
        state.press(.end, .home)
        for _ in 0..<31 { state.press(.right) }
        #expect(inputRow(state) == "+ … two three four five six seve… [Add]", "three characters off the left, no more")
    }

    @Test func theHelpNamesEveryWorkingKeyAndTheConfiguredSection() {
        var state = AppState(tasks: makeList(priority: ["A"]), size: Size(width: 80, height: 40), config: AppConfig(defaultSection: .bonus))
        state.press(.function(1))
        let input = AppRender.render(state, size: state.size).lines.joined(separator: "\n")
        #expect(input.contains("add it on top of Bonus"))
        for key in ["^B", "^D", "^Q", "^Z", "^L", "^←", "Alt-b", "paste"] { #expect(input.contains(key), "input help: \(key)") }
        state.press(.escape, .tab, .function(1))
        let list = AppRender.render(state, size: state.size).lines.joined(separator: "\n")
        for key in ["Tab", "^Q", "^Z", "^L"] { #expect(list.contains(key), "list help: \(key)") }
        state.press(.escape, .control("f"), .function(1))
        let filter = AppRender.render(state, size: state.size).lines.joined(separator: "\n")
        for key in ["^B", "^D", "^Q", "^Z", "^L"] { #expect(filter.contains(key), "filter help: \(key)") }
        state.press(.escape, .escape, .tab, .character("e"), .function(1))
        let editing = AppRender.render(state, size: state.size).lines.joined(separator: "\n")
        for key in ["^B", "^D", "^Q", "^Z", "^L"] { #expect(editing.contains(key), "editing help: \(key)") }
    }

    @Test func theListFooterSaysHowToGetBackToTheInput() {
        var state = makeState(makeList(priority: ["A"]))
        state.press(.tab)
        let footer = AppRender.render(state, size: state.size).line(23)
        #expect(footer.hasPrefix("↑↓ select  Tab input  Space done"))
        #expect(!footer.contains("s sort"), "sort gives way at 80 columns; it is in the help")
        #expect(footer.contains("? help"))
    }

    @Test func theListFooterNamesWhatUWouldTakeBackWhereItFits() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]), size: Size(width: 120, height: 24))
        state.press(.tab)
        let footer = { AppRender.render(state, size: state.size).line(23) }
        #expect(footer() == "↑↓ select  Tab input  Space done  e edit  d delete  u undo  / find  ? help  s sort  q quit                          1/2")
        state.press(.character("d"))
        state.press(.down)  // the message gives way to the hints
        #expect(footer() == "↑↓ select  Tab input  Space done  e edit  d delete  u undo Deleted “Buy milk”  / find  ? help  s sort  q quit       1/1")
    }

    @Test func anOverlongCaptionIsRefusedWithTheReason() {
        var state = makeState()
        state.type(String(repeating: "a", count: 1_001))
        #expect(state.press(.enter).isEmpty)
        #expect(state.message?.text.contains("limit is 1000") == true)
        #expect(state.input.characters.count == 1_001)
    }
}
