import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

@Suite("Jump, edit, reorder, clear completed, help")
struct OrganizeTests {
    @Test func anEditFollowsItsTaskAndATaskDeletedElsewhereIsNotRenamedInstead() {
        var state = makeState(makeList(priority: ["A", "B", "C"]))
        state.press(.tab, .down, .character("e"))  // editing B
        // Another program deletes A: B moves up a row.
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([state.tasks.deleting(at: 0)])]), now: testNow)
        state.type("!")
        state.press(.enter)
        #expect(state.tasks.all.map(\.caption) == ["B!", "C"], "B is renamed wherever it went")
        state.press(.character("e"))  // editing B! again
        state.type("?")
        // And now B! is deleted elsewhere: the prompt closes at once, not left on C's row.
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([state.tasks.deleting(at: 0)])]), now: testNow)
        #expect(state.focus == .list)
        #expect(state.tasks.all.map(\.caption) == ["C"], "C is not renamed instead")
        #expect(state.input.text == "B!?", "the words are kept in the new-task input")
        #expect(state.message?.text == "That task was deleted elsewhere; your text is in the new-task input")
    }

    @Test(arguments: [("w", "no due date was set"), ("r", "no repeat was set")])
    func aDueOrRepeatPromptClosesWhenItsTaskIsDeletedElsewhere(key: Character, lost: String) {
        var state = makeState(makeList(priority: ["A", "B"]))
        state.press(.tab, .character(key))  // a prompt on A
        state.type("fri")
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([state.tasks.deleting(at: 0)])]), now: testNow)
        #expect(state.focus == .list, "not left open on B's row")
        #expect(state.message?.text == "That task was deleted elsewhere; \(lost)")
        #expect(state.tasks.all.map { $0.due == nil && $0.repeatRule.isNone } == [true], "B is given nothing")
        // A list read whole (after a compaction elsewhere) closes it too.
        state.press(.character(key))
        _ = AppUpdate.update(&state, .reloaded(TaskList()), now: testNow)
        #expect(state.focus == .list)
    }

    @Test func aTaskDeletedHereStaysDeletedWhenAnEarlierChangeFromElsewhereComesWithTheSave() {
        let list = makeList(priority: ["A", "B"])
        // Another program renamed A, and committed it before our delete reached the store.
        let rename = list.renaming(at: 0, to: "A renamed")!
        var state = makeState(list)
        let effects = state.press(.tab, .character("d"))
        guard case .save(let save)? = effects.first else {
            Issue.record("expected the delete to be saved: \(effects)")
            return
        }
        let saved = Event.saved(save, clock: Clock(milliseconds: 2_000), outside: [outsideRecord([rename], clock: Clock(milliseconds: 1_000))])
        _ = AppUpdate.update(&state, saved, now: testNow)
        #expect(state.tasks.all.map(\.caption) == ["B"], "the later delete holds, as it does in the store")
    }

    @Test func anEditOfATaskDeletedElsewhereJoinsWhatTheInputHolds() {
        var state = makeState(makeList(priority: ["A", "B"]))
        state.type("half typed")
        state.press(.tab, .character("e"))  // editing A
        state.type(" and more")
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([state.tasks.deleting(at: 0)])]), now: testNow)
        #expect(state.tasks.all.map(\.caption) == ["B"])
        #expect(state.input.text == "half typed A and more", "neither the typed text nor the edit is dropped")
        #expect(state.message?.text == "That task was deleted elsewhere; your text is in the new-task input")
    }

    @Test func theClearQuestionShowsEvenWhileASaveHasFailed() {
        var state = makeState(makeList(priority: ["A"], completed: ["A"]))
        _ = AppUpdate.update(&state, .saveFailed(reason: "disk full"), now: testNow)
        state.press(.tab, .character("C"))
        expectScreen(
            state,
            [
                " HotTask  Well done - 1 completed!                               1/1 ▰▰▰▰▰▰▰▰▰▰",
                "+ Type a new task and press Enter                                         [Add]",
                "──────────────────────────────────────────── [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (1)",
                "› [x] A",
                "",
                "Bonus (0)",
                "    Nothing here — press m on a task to move it here",
            ] + Array(repeating: "", count: 15) + [
                "Clear 1 completed task? y to clear, any other key keeps them                1/1"
            ])
    }

    @Test func bracketsJumpToTheSections() {
        var state = makeState(makeList(priority: numberedTasks(60), bonus: ["B1"] + numberedTasks(40)))
        state.press(.tab)
        let bonusHeader = state.layout.headerRow(of: .bonus)
        state.expectPress(.character("]")) { next in
            next.selection = 60  // B1, the first task of Bonus
            next.scrollOffset = bonusHeader
            return []
        }
        #expect(state.selectedTask?.caption == "B1")
        #expect(state.scrollOffset == state.layout.headerRow(of: .bonus), "the Bonus header on top")
        state.press(.character("["))
        #expect(state.selection == 0)
        #expect(state.scrollOffset == 0)
        var empty = makeState(makeList(priority: ["A"]))
        empty.press(.tab, .character("]"))
        #expect(empty.message?.text == "Bonus has no tasks")
    }

    @Test func editSavesWithTheCaptionRuleAndEscCancels() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        state.type("draft")
        state.press(.tab, .down)
        let callMum = state.tasks[1].id
        state.expectPress(.character("e")) { next in
            next.editor = LineEditor("Call mum")
            next.editingTaskID = callMum
            next.focus = .editing
            return []
        }
        state.type(" and\tdad ")
        let rename = state.tasks.renaming(at: 1, to: "Call mum and dad")!
        let effects = state.expectPress(.enter) { next in
            next.tasks.apply(rename, clock: .zero, force: true)
            next.focus = .list
            return next.committing([rename], "Edited “Call mum”")
        }
        #expect(state.tasks[1].caption == "Call mum and dad")
        #expect(state.tasks[1].modifiedAt == testNow)
        #expect(savedChanges(effects) == [.set(state.tasks[1].id, TaskFields(caption: "Call mum and dad"), was: TaskFields(caption: "Call mum"))])
        #expect(state.focus == .list)
        #expect(state.input.text == "draft")
        state.press(.function(2), .backspace, .backspace)
        state.expectPress(.escape) { next in
            next.focus = .list
            next.message = Message("Edit cancelled")
            return []
        }
        #expect(state.tasks[1].caption == "Call mum and dad")
    }

    @Test func anEditToWhitespaceIsRefusedAndStaysInEditMode() {
        var state = makeState(makeList(priority: ["Buy milk"]))
        state.press(.tab, .character("e"), .control("u"))
        state.type("   ")
        #expect(state.press(.enter).isEmpty)
        #expect(state.focus == .editing)
        #expect(state.tasks[0].caption == "Buy milk")
        #expect(state.message?.text == "A task needs some text — type a caption or press Esc to cancel")
        #expect(state.message?.kind == .warning)
    }

    @Test func theEditorIsDrawnInTheRowWithTheCursor() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        state.press(.tab, .character("e"), .left, .left, .left, .left)
        let grid = AppRender.render(state, size: state.size)
        #expect(grid.line(4) == "› [ ] Buy milk")
        #expect(grid.cursor?.x == 6 + 4 && grid.cursor?.y == 4)
        #expect(grid[8, 4].style == .editField)
        #expect(grid.line(23).hasPrefix("Editing: Enter save  Esc cancel  F1 help"))
    }

    @Test func reorderMovesWithinAndAcrossSectionsAndSaves() {
        var state = makeState(makeList(priority: ["A", "B", "C"], bonus: ["D"]))
        state.press(.tab, .down)
        let reorder = state.tasks.moving(from: 1, to: .priority, index: 2)!
        var effects = state.expectPress(.shiftDown) { next in
            next.tasks.apply(reorder, clock: .zero, force: true)
            next.selection = 2  // B, after C
            return next.committing([reorder], "Reordered “B”")
        }
        #expect(state.tasks.all.map(\.caption) == ["A", "C", "B", "D"])
        #expect(state.selectedTask?.caption == "B")
        #expect(savedChanges(effects).map(\.id) == [state.selectedTask!.id], "a reorder changes one task")
        effects = state.press(.character("J"))
        #expect(state.tasks.priority.map(\.caption) == ["A", "C"])
        #expect(state.tasks.bonus.map(\.caption) == ["B", "D"], "past the edge: on top of Bonus")
        #expect(state.selectedTask?.caption == "B")
        state.press(.character("K"))
        #expect(state.tasks.priority.map(\.caption) == ["A", "C", "B"], "back up: at the end of Top Priority")
        state.press(.shiftUp, .shiftUp, .shiftUp)
        #expect(state.tasks.priority.map(\.caption) == ["B", "A", "C"])
        #expect(state.message?.text == "Already at the top")
    }

    @Test func reorderWithAFilterStepsOverHiddenTasks() {
        var state = makeState(makeList(priority: ["x1", "a", "x2", "b", "x3"]))
        state.press(.control("f"))
        state.type("x")
        state.press(.enter, .end, .character("K"))
        #expect(state.tasks.all.map(\.caption) == ["x1", "a", "x3", "x2", "b"])
        #expect(state.selectedTask?.caption == "x3")
        #expect(state.selection == 1)
    }

    @Test func reorderIsRefusedOutsideManualOrder() {
        var state = makeState(makeList(priority: ["A", "B"]))
        state.press(.tab, .character("s"))
        #expect(state.press(.character("J")).isEmpty)
        #expect(state.message?.text == "Reordering needs Manual order: press s (and c if completed are last)")
        #expect(state.tasks.all.map(\.caption) == ["A", "B"])
    }

    @Test func clearCompletedAsksFirstAndIsOneUndoStep() {
        var state = makeState(makeList(priority: ["A", "B", "C"], bonus: ["D"], completed: ["A", "C", "D"]))
        state.press(.tab)
        #expect(
            state.expectPress(.character("C")) {
                $0.confirmation = .clearCompleted(count: 3)
                return []
            }.isEmpty)
        expectScreen(
            state,
            [
                " HotTask  3 down 1 to go!                                        3/4 ▰▰▰▰▰▰▰▰▱▱",
                "+ Type a new task and press Enter                                         [Add]",
                "──────────────────────────────────────────── [Manual] Newest  Oldest  A–Z  Due ─",
                "Top Priority (3)",
                "› [x] A",
                "  [ ] B",
                "  [x] C",
                "",
                "Bonus (1)",
                "  [x] D",
            ] + Array(repeating: "", count: 13) + [
                "Clear 3 completed tasks? y to clear, any other key keeps them               1/4"
            ])
        state.expectPress(.character("n")) { next in
            next.confirmation = nil
            next.message = Message("Nothing cleared")
            return []
        }
        #expect(state.tasks.count == 4)
        state.press(.character("C"))
        let clear = state.tasks.removingCompleted()
        let effects = state.expectPress(.character("y")) { next in
            for change in clear { next.tasks.apply(change, clock: .zero, force: true) }
            next.confirmation = nil
            next.message = Message("Cleared 3 completed tasks — u to undo")
            return next.committing(clear, "Cleared 3 completed tasks")
        }
        #expect(state.tasks.all.map(\.caption) == ["B"])
        #expect(state.tasks.completedCount == 0)
        #expect(savedChanges(effects).count == 3)
        #expect(state.message?.text == "Cleared 3 completed tasks — u to undo")
        state.press(.character("C"))
        #expect(state.message?.text == "No completed tasks to clear")
        state.press(.character("u"))
        #expect(state.selectedTask?.caption == "A", "the first restored task is selected")
        #expect(state.tasks.seen == makeList(priority: ["A", "B", "C"], bonus: ["D"], completed: ["A", "C", "D"]).seen)
    }

    @Test func helpShowsTheKeysOfTheFocusAndAnyKeyClosesIt() {
        var state = makeState(makeList(priority: ["A"]))
        state.press(.tab, .character("?"))
        #expect(state.help == .list)
        // Every list key fits at 80×24.
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                 0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+ Ty┌─ Keys: list ────────────────────────────────────────────────────────┐Add]",
                "────│ ↑ k / ↓ j             select                                        │Due ─",
                "Top │ PgUp / PgDn           page up, page down                            │",
                "› [ │ Home g / End G        first, last task                              │",
                "    │ [ / ]                 jump to Top Priority, Bonus                   │",
                "Bonu│ Space x               done / not done                               │",
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
                "    │ q ^C ^Q               quit                                          ▼",
                "    └─ 1–20 of 21 · ↑↓ PgUp PgDn scroll · other keys close ───────────────┘",
                "Tab input  Space done  e edit  w due  m move  d delete  C clear  u undo  ? help",
            ])
        #expect(state.press(.character("d")).isEmpty, "the key only closes the help")
        #expect(state.help == nil)
        #expect(state.tasks.count == 1)
        state.press(.tab, .function(1))
        #expect(state.help == .input)
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to go!                                 0/1 ▱▱▱▱▱▱▱▱▱▱",
                "+┌─ Keys: new task input ─────────────────────────────────────────────────────┐",
                "─│ letters               type a new task (+word: a tag; \\+word: text)         │─",
                "T│ Enter                 add it on top of Top Priority                        │",
                "›│ ←→ Home End ^A ^E ^B  move the cursor                                      │",
                " │ ^← ^→ Alt-b Alt-f     move by words                                        │",
                "B│ ⌫ Del ^D ^K ^U        delete char, char after, to end, to start            │",
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
                "Enter add  ↑↓ select  Tab list  ^F find  F2 edit  F3 due  F1 help  ^C quit  1/1",
            ])
        #expect(AppRender.render(state, size: state.size).cursor == nil)
    }

    @Test func helpFitsASmallScreen() {
        var state = makeState(makeList(priority: ["A"]), size: Size(width: 30, height: 8))
        state.press(.tab, .character("?"))
        expectScreen(
            state,
            [
                " HotTask  Get started - 1 to…",
                "+┌─ Keys: list ─────────────┐",
                "─│ ↑ k / ↓ j    select      │─",
                "T│ PgUp / PgDn  page up,    │",
                "›│              page down   │",
                " │ Home g /     first, last ▼",
                "B└─ 1–4 of 55 · ↑↓ scroll ──┘",
                "Tab input  w due  ? help  1/1",
            ])
    }
}

@Suite("Undo and redo")
struct UndoTests {
    @Test func everyKindOfChangeUndoesAndRedoesAndSaves() {
        let original = makeList(priority: ["A", "B", "C"], bonus: ["D"])
        var state = makeState(original)
        state.type("New")
        state.press(.enter, .tab)  // add
        state.press(.down, .character("x"))  // complete A
        state.press(.character("m"))  // move A to Bonus
        state.press(.character("["), .character("J"))  // reorder New
        state.press(.character("e"))
        state.type("!")
        state.press(.enter)  // edit
        state.press(.character("d"))  // delete
        let changed = state.tasks
        #expect(state.history.undoSteps.count == 6)
        for _ in 0..<6 {
            let effects = state.press(.character("u"))
            #expect(!savedChanges(effects).isEmpty)
        }
        #expect(state.tasks.shown.map(\.caption) == original.shown.map(\.caption))
        #expect(state.tasks.shown.map(\.completed) == original.shown.map(\.completed))
        #expect(state.press(.character("u")).isEmpty)
        #expect(state.message?.text == "Nothing to undo")
        for _ in 0..<6 {
            #expect(!savedChanges(state.press(.control("r"))).isEmpty)
        }
        #expect(state.tasks.shown == changed.shown)
        #expect(state.message?.text.hasPrefix("Redone: Deleted") == true)
    }

    @Test func messagesNameTheStepAndANewChangeDropsTheRedo() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"]))
        state.press(.tab)
        let delete = state.tasks.deleting(at: 0)
        state.expectPress(.character("d")) { next in
            next.tasks.apply(delete, clock: .zero, force: true)
            next.message = Message("Deleted “Buy milk” — u to undo")
            return next.committing([delete], "Deleted “Buy milk”")
        }
        let effects = state.expectPress(.character("u")) { next in
            next.tasks.apply(delete.inverse, clock: .zero, force: true)
            next.selection = 0  // the restored task, on the row Call mum had
            next.message = Message("Undone: Deleted “Buy milk” — ^R to redo")
            _ = next.history.popUndo()
            return [.save(Save([delete.inverse], what: "Undo: Deleted “Buy milk”", undoesStep: 1))]
        }
        #expect(effects == [.save(Save([delete.inverse], what: "Undo: Deleted “Buy milk”", undoesStep: 1))])
        #expect(state.selectedTask?.caption == "Buy milk", "the restored task is selected")
        state.press(.character("x"))
        state.expectPress(.control("r")) {
            $0.message = Message("Nothing to redo", kind: .warning)
            return []
        }
        #expect(state.tasks.count == 2)
    }

    @Test func redoDoesTheStepAgainAndSelectsItsTask() {
        var state = makeState(makeList(priority: ["A", "B", "C"]))
        state.press(.tab, .down)
        let complete = state.tasks.completing(true, at: 1, now: testNow, local: .current)!
        state.press(.character(" "), .end)
        state.expectPress(.character("u")) { next in
            next.tasks.apply(complete.inverse, clock: .zero, force: true)
            next.selection = 1  // B, the task the step changed
            next.message = Message("Undone: Completed “B” — ^R to redo")
            _ = next.history.popUndo()
            return [.save(Save([complete.inverse], what: "Undo: Completed “B”", undoesStep: 1))]
        }
        state.press(.end)
        let effects = state.expectPress(.control("r")) { next in
            next.tasks.apply(complete, clock: .zero, force: true)
            next.selection = 1
            next.message = Message("Redone: Completed “B” — u to undo")
            _ = next.history.popRedo()
            return [.save(Save([complete], what: "Redo: Completed “B”", stepID: 1))]
        }
        #expect(savedChanges(effects) == [complete])
        state.expectPress(.control("r")) {
            $0.message = Message("Nothing to redo", kind: .warning)
            return []
        }
    }

    @Test func aHundredStepsAreKept() {
        var state = makeState(makeList(priority: ["A"]))
        state.press(.tab)
        for _ in 0..<(UndoHistory.limit + 20) { state.press(.character("x")) }
        #expect(state.history.undoSteps.count == UndoHistory.limit)
        for _ in 0..<UndoHistory.limit { state.press(.character("u")) }
        #expect(state.press(.character("u")).isEmpty)
        #expect(state.tasks[0].completed == false, "120 toggles, 100 undone: 20 toggles, open")
    }

    @Test func stepsHoldOnlyTheTasksTheyTouch() {
        var state = makeState(makeList(priority: numberedTasks(5_000)))
        state.press(.tab)
        for _ in 0..<10 { state.press(.character("x"), .down) }
        #expect(state.history.undoSteps.allSatisfy { $0.changes.count == 1 })
    }
}

extension TaskList {
    /// This list with the ids of `other`, position by position (tests build equal captions
    /// with fresh ids).
    fileprivate func withIDs(of other: TaskList) -> TaskList {
        TaskList(
            all.enumerated().map { offset, task in
                var task = task
                task.id = other[offset].id
                return task
            })
    }
}

@Suite("Any keys, any size")
struct RandomKeysTests {
    /// Every new key at sizes from the smallest up: the selection stays shown, every row fits.
    @Test(arguments: [Size(width: 24, height: 6), Size(width: 30, height: 8), Size(width: 80, height: 24)])
    func randomKeysKeepTheScreenSane(size: Size) {
        var generator = SeededGenerator(seed: UInt64(size.width))
        var state = makeState(makeList(priority: numberedTasks(30) + ["Café"], bonus: ["Cake", "Tea"], completed: ["Task 3"]), size: size)
        let keys: [Key] = [
            .tab, .enter, .escape, .up, .down, .pageDown, .home, .end, .backspace, .character("/"), .control("f"),
            .character("c"), .character("a"), .character("s"), .character("x"), .character("e"), .character("J"),
            .character("K"), .character("["), .character("]"), .character("u"), .control("r"), .character("C"),
            .character("y"), .character("?"), .function(1), .function(2), .character("d"), .character("m"), .shiftUp,
        ]
        for step in 0..<2_000 {
            state.press(keys[Int.random(in: 0..<keys.count, using: &generator)])
            let visible = state.selectionIsVisible
            #expect(visible, "step \(step)")
            let lines = AppRender.render(state, size: size).lines
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= size.width })
        }
        #expect(state.tasks.completedCount == state.tasks.all.filter(\.completed).count)
    }
}
