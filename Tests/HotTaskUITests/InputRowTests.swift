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
        expectScreen(
            state,
            [
                " HotTask  It's lonely here - add some…",
                "+ …five six seven eight nine ten  [Add]",
                "────────────────────────────────────────",
                "Top Priority (0)",
                "    Nothing here yet — type a task abov…",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to…",
            ] + Array(repeating: "", count: 3) + [
                "Enter add  Tab list  F1 help  ^C quit"
            ])
        // Left within the view: the text stays where it is.
        state.press(.left, .left, .left, .wordLeft, .wordLeft)
        expectScreen(
            state,
            [
                " HotTask  It's lonely here - add some…",
                "+ …five six seven eight nine ten  [Add]",
                "────────────────────────────────────────",
                "Top Priority (0)",
                "    Nothing here yet — type a task abov…",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to…",
            ] + Array(repeating: "", count: 3) + [
                "Enter add  Tab list  F1 help  ^C quit"
            ])
        // Home: the start shows, the end is marked as hidden.
        state.press(.home)
        expectScreen(
            state,
            [
                " HotTask  It's lonely here - add some…",
                "+ one two three four five six se… [Add]",
                "────────────────────────────────────────",
                "Top Priority (0)",
                "    Nothing here yet — type a task abov…",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to…",
            ] + Array(repeating: "", count: 3) + [
                "Enter add  Tab list  F1 help  ^C quit"
            ])
        let cursor = AppRender.render(state, size: state.size).cursor
        #expect(cursor?.x == 2)
        // Right within the view: nothing moves; past its edge, one character at a time.
        state.press(.wordRight, .wordRight)
        expectScreen(
            state,
            [
                " HotTask  It's lonely here - add some…",
                "+ one two three four five six se… [Add]",
                "────────────────────────────────────────",
                "Top Priority (0)",
                "    Nothing here yet — type a task abov…",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to…",
            ] + Array(repeating: "", count: 3) + [
                "Enter add  Tab list  F1 help  ^C quit"
            ])
        state.press(.end, .home)
        for _ in 0..<31 { state.press(.right) }
        // Three characters off the left, no more.
        expectScreen(
            state,
            [
                " HotTask  It's lonely here - add some…",
                "+ … two three four five six seve… [Add]",
                "────────────────────────────────────────",
                "Top Priority (0)",
                "    Nothing here yet — type a task abov…",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to…",
            ] + Array(repeating: "", count: 3) + [
                "Enter add  Tab list  F1 help  ^C quit"
            ])
    }

    @Test func theHelpNamesEveryWorkingKeyAndTheConfiguredSection() {
        var state = AppState(tasks: makeList(priority: ["A"]), size: Size(width: 80, height: 40), config: AppConfig(defaultSection: .bonus))
        state.press(.function(1))
        // Adding goes on top of Bonus; ^B ^D ^Q ^Z ^L ^← Alt-b and paste are all there.
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                 0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+ Type a new task and press Enter                                         [Add]",
                "──────────────────────────────────────────── [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (1)",
                "› [ ] A",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to move it here",
                "",
                " ┌─ Keys: new task input ─────────────────────────────────────────────────────┐",
                " │ letters               type a new task (+word: a tag; \\+word: text)         │",
                " │ Enter                 add it on top of Bonus                               │",
                " │ ←→ Home End ^A ^E ^B  move the cursor                                      │",
                " │ ^← ^→ Alt-b Alt-f     move by words                                        │",
                " │ ⌫ Del ^D ^K ^U        delete char, char after, to end, to start            │",
                " │ ^W Alt-⌫ Alt-d        delete a word back, a word forward                   │",
                " │ ^Y ^_                 put back the last deleted text, undo an edit         │",
                " │ paste                 pasted text goes in as text (line breaks become      │",
                " │                       spaces)                                              │",
                " │ ↑↓ PgUp PgDn          move the selection in the list                       │",
                " │ Tab ⇧Tab              go to the list (after +wo: complete the tag)         │",
                " │ ^F                    filter the list                                      │",
                " │ F2                    edit the selected task (Enter or Esc comes back      │",
                " │                       here)                                                │",
                " │ F3                    set the selected task's due date (Enter or Esc comes │",
                " │                       back here)                                           │",
                " │ ^R                    redo                                                 │",
                " │ F1                    this help                                            │",
                " │ ^C ^Q                 quit                                                 │",
                " │ ^Z ^L                 suspend, redraw                                      │",
                " └─ any key closes ───────────────────────────────────────────────────────────┘",
            ] + Array(repeating: "", count: 8) + [
                "Enter add  ↑↓ select  Tab list  ^F find  F2 edit  F3 due  F1 help  ^C quit  1/1"
            ])
        state.press(.escape, .tab, .function(1))
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                 0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+ Type a new task and press Enter                                         [Add]",
                "──────────────────────────────────────────── [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (1)",
                "› [ ] A",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to move it here",
                "    ┌─ Keys: list ────────────────────────────────────────────────────────┐",
                "    │ ↑ k / ↓ j             select                                        │",
                "    │ PgUp / PgDn           page up, page down                            │",
                "    │ Home g / End G        first, last task                              │",
                "    │ [ / ]                 jump to Top Priority, Bonus                   │",
                "    │ Space x               done / not done                               │",
                "    │ m                     move to the other section                     │",
                "    │ K ⇧↑ / J ⇧↓           reorder (Manual order)                        │",
                "    │ e F2 / n              edit the caption / the note ($EDITOR)         │",
                "    │ d Del                 delete                                        │",
                "    │ w / r                 set or clear the due date / repeat rule       │",
                "    │ C                     clear completed tasks                         │",
                "    │ u / ^R                undo, redo                                    │",
                "    │ / ^F                  filter                                        │",
                "    │ s                     sort: Manual, Newest, Oldest, A–Z, Due        │",
                "    │ c                     completed tasks last (on/off)                 │",
                "    │ v                     when each task was added and done (on/off)    │",
                "    │ H / W                 history / calendar of due dates               │",
                "    │ i Enter Esc ⇧Tab Tab  back to the input (Esc clears a filter first) │",
                "    │ ? F1                  this help                                     │",
                "    │ q ^C ^Q               quit                                          │",
                "    │ ^Z ^L                 suspend, redraw                               │",
                "    └─ any key closes ────────────────────────────────────────────────────┘",
            ] + Array(repeating: "", count: 8) + [
                "Tab input  Space done  e edit  w due  m move  d delete  C clear  u undo  ? help"
            ])
        state.press(.escape, .control("f"), .function(1))
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                 0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+ Type a new task and press Enter                                         [Add]",
                "─ / type to filter                         ─ [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (1)",
                "› [ ] A",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to move it here",
            ] + Array(repeating: "", count: 3) + [
                " ┌─ Keys: filter ─────────────────────────────────────────────────────────────┐",
                " │ letters               narrow the list (case, accents and width ignored)    │",
                " │ +tag -tag             with, without a tag (Tab completes it)               │",
                " │ due:                  due:today, due:overdue, due:week, due:none           │",
                " │ ←→ Home End ^A ^E ^B  move the cursor                                      │",
                " │ ^← ^→ Alt-b Alt-f     move by words                                        │",
                " │ ⌫ Del ^D ^K ^U        delete char, char after, to end, to start            │",
                " │ ^W Alt-⌫ Alt-d        delete a word back, a word forward                   │",
                " │ ^Y ^_                 put back the last deleted text, undo an edit         │",
                " │ paste                 pasted text goes in as text (line breaks become      │",
                " │                       spaces)                                              │",
                " │ Enter Tab ⇧Tab        keep the filter, go to the list                      │",
                " │ Esc                   clear the filter, back to where you were             │",
                " │ ↑↓ PgUp PgDn          move the selection in the matches                    │",
                " │ F1                    this help                                            │",
                " │ ^C ^Q                 quit                                                 │",
                " │ ^Z ^L                 suspend, redraw                                      │",
                " └─ any key closes ───────────────────────────────────────────────────────────┘",
            ] + Array(repeating: "", count: 10) + [
                "Enter keep  Esc clear  ↑↓ select  F1 help                                   1/1"
            ])
        state.press(.escape, .escape, .tab, .character("e"), .function(1))
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                 0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+ e                                                                       [Add]",
                "──────────────────────────────────────────── [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (1)",
                "› [ ] A",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to move it here",
                "",
                " ┌─ Keys: new task input ─────────────────────────────────────────────────────┐",
                " │ letters               type a new task (+word: a tag; \\+word: text)         │",
                " │ Enter                 add it on top of Bonus                               │",
                " │ ←→ Home End ^A ^E ^B  move the cursor                                      │",
                " │ ^← ^→ Alt-b Alt-f     move by words                                        │",
                " │ ⌫ Del ^D ^K ^U        delete char, char after, to end, to start            │",
                " │ ^W Alt-⌫ Alt-d        delete a word back, a word forward                   │",
                " │ ^Y ^_                 put back the last deleted text, undo an edit         │",
                " │ paste                 pasted text goes in as text (line breaks become      │",
                " │                       spaces)                                              │",
                " │ ↑↓ PgUp PgDn          move the selection in the list                       │",
                " │ Tab ⇧Tab              go to the list (after +wo: complete the tag)         │",
                " │ ^F                    filter the list                                      │",
                " │ F2                    edit the selected task (Enter or Esc comes back      │",
                " │                       here)                                                │",
                " │ F3                    set the selected task's due date (Enter or Esc comes │",
                " │                       back here)                                           │",
                " │ ^R                    redo                                                 │",
                " │ F1                    this help                                            │",
                " │ ^C ^Q                 quit                                                 │",
                " │ ^Z ^L                 suspend, redraw                                      │",
                " └─ any key closes ───────────────────────────────────────────────────────────┘",
            ] + Array(repeating: "", count: 8) + [
                "Enter add  ↑↓ select  Tab list  ^F find  F2 edit  F3 due  F1 help  ^C quit  1/1"
            ])
    }

    @Test func theListFooterSaysHowToGetBackToTheInput() {
        var state = makeState(makeList(priority: ["A"]))
        state.press(.tab)
        // Issue 42: w, m and C were not in the footer. As many keys as fit, the way back first.
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                 0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+ Type a new task and press Enter                                         [Add]",
                "──────────────────────────────────────────── [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (1)",
                "› [ ] A",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to move it here",
            ] + Array(repeating: "", count: 15) + [
                "Tab input  Space done  e edit  w due  m move  d delete  C clear  u undo  ? help"
            ])
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
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                                                                                                                                         0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+ Type a new task and press Enter                                                                                                                                                                 [Add]",
                "──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────── [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (1)",
                "› [ ] Call mum",
                "",
                "Bonus (0)",
                "Deleted “Buy milk” — u to undo                                                                                                                                                                      1/1",
            ])
        state.press(.down)  // the message gives way to the keys, and only the keys
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                                                                                                                                         0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+ Type a new task and press Enter                                                                                                                                                                 [Add]",
                "──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────── [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (1)",
                "› [ ] Call mum",
                "",
                "Bonus (0)",
                "Tab input  ↑↓ select  Space done  e edit  w due  m move  d delete  C clear  u undo  / find  s sort  HW views  ? help  q quit                                                                        1/1",
            ])
    }

    @Test func anOverlongCaptionIsRefusedWithTheReason() {
        var state = makeState()
        state.type(String(repeating: "a", count: 1_001))
        #expect(state.press(.enter).isEmpty)
        #expect(state.message?.text.contains("limit is 1000") == true)
        #expect(state.input.characters.count == 1_001)
    }
}
