import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

@Suite("Scrolling and selecting, from the input and from the list")
struct ListNavigationTests {
    @Test func upAndDownInTheInputMoveTheSelectionAndKeepTheText() {
        var state = makeState(makeList(priority: numberedTasks(3), bonus: ["B"]))
        state.type("half typed")
        state.press(.left, .left)
        state.press(.down, .down, .down)
        #expect(state.selection == 3)
        #expect(state.focus == .input)
        #expect(state.input.text == "half typed")
        #expect(state.input.cursor == 8)
        state.press(.up)
        #expect(state.selection == 2)
        state.press(.down, .down, .down)
        #expect(state.selection == 3, "the selection stops at the last task")
    }

    @Test func pageDownScrollsAThousandTasksWhileTyping() {
        var state = makeState(makeList(priority: numberedTasks(1_000)))
        state.type("waiting")
        for _ in 0..<10 { state.press(.pageDown) }
        #expect(state.selection == 10 * (state.screen.listHeight - 1))
        #expect(state.selectionIsVisible)
        #expect(state.scrollOffset > 0)
        #expect(state.input.text == "waiting")
        state.press(.pageUp)
        #expect(state.selectionIsVisible)
    }

    @Test func listKeysMoveTheSelection() {
        var state = makeState(makeList(priority: numberedTasks(50), bonus: ["B1", "B2"]))
        state.press(.tab)
        #expect(state.focus == .list)
        state.press(.character("j"), .character("j"), .character("k"))
        #expect(state.selection == 1)
        state.press(.character("G"))
        #expect(state.selection == 51)
        #expect(state.selectionIsVisible)
        state.press(.character("g"))
        #expect(state.selection == 0)
        #expect(state.scrollOffset == 0, "the first task shows its section header")
        state.press(.end)
        #expect(state.selection == 51)
        state.press(.home)
        #expect(state.selection == 0)
        state.press(.pageDown)
        #expect(state.selection == state.screen.listHeight - 1)
    }

    @Test func theWheelScrollsTheViewAndTheSelectionFollowsOnlyWhenItWouldLeave() {
        var state = makeState(makeList(priority: numberedTasks(100)))
        state.press(.down, .down, .down, .down, .down)
        _ = AppUpdate.update(&state, .wheelScrolled(lines: 3), now: testNow)
        #expect(state.scrollOffset == 3)
        #expect(state.selection == 5, "still on screen, so the selection stays")
        _ = AppUpdate.update(&state, .wheelScrolled(lines: 30), now: testNow)
        #expect(state.scrollOffset == 33)
        #expect(state.selectionIsVisible)
        _ = AppUpdate.update(&state, .wheelScrolled(lines: -1_000), now: testNow)
        #expect(state.scrollOffset == 0)
        #expect(state.selectionIsVisible)
    }

    @Test func resizeKeepsTextCursorSelectionAndShowsTheSelection() {
        var state = makeState(makeList(priority: numberedTasks(200)))
        state.type("keep me")
        state.press(.left)
        for _ in 0..<30 { state.press(.down) }
        _ = AppUpdate.update(&state, .resized(Size(width: 40, height: 12)), now: testNow)
        #expect(state.input.text == "keep me")
        #expect(state.input.cursor == 6)
        #expect(state.selection == 30)
        #expect(state.selectionIsVisible)
        _ = AppUpdate.update(&state, .resized(Size(width: 120, height: 50)), now: testNow)
        #expect(state.selection == 30)
        #expect(state.selectionIsVisible)
    }

    @Test func theSelectionStaysInViewThroughAnyKeys() {
        var generator = SeededGenerator(seed: 42)
        let keys: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end, .tab, .character("m"), .character("x"), .character("d")]
        var state = makeState(makeList(priority: numberedTasks(300), bonus: numberedTasks(40)))
        state.press(.tab)
        for _ in 0..<2_000 {
            state.press(keys.randomElement(using: &generator)!)
            #expect(state.selectionIsVisible)
            #expect(state.tasks.isEmpty || state.selection < state.tasks.count)
        }
    }
}

@Suite("Changing tasks from the list")
struct ListActionTests {
    @Test func spaceAndXToggleCompletedAndSave() {
        var state = makeState(makeList(priority: ["A", "B"]))
        state.press(.tab, .down)
        let id = state.tasks[1].id
        let complete = TaskChange.set(id, TaskFields(completed: true, completedAt: testNow), was: TaskFields(completed: false))
        var effects = state.expectPress(.character(" ")) { next in
            next.tasks.apply(complete, clock: .zero, force: true)
            return next.committing([complete], "Completed “B”")
        }
        #expect(state.tasks[1].completedAt == testNow)
        #expect(savedChanges(effects) == [complete])
        let reopen = TaskChange.set(id, TaskFields(completed: false), was: TaskFields(completed: true, completedAt: testNow))
        effects = state.expectPress(.character("x")) { next in
            next.tasks.apply(reopen, clock: .zero, force: true)
            return next.committing([reopen], "Reopened “B”")
        }
        #expect(!state.tasks[1].completed)
        #expect(savedChanges(effects) == [reopen])
    }

    @Test func mMovesToTheOtherSectionAndTheSelectionFollows() {
        var state = makeState(makeList(priority: ["A", "B"], bonus: ["C"]))
        state.press(.tab)
        let move = state.tasks.moving(from: 0, to: .bonus, index: 0)!
        let effects = state.expectPress(.character("m")) { next in
            next.tasks.apply(move, clock: .zero, force: true)
            next.selection = 1  // A, on top of Bonus
            next.message = Message("Moved “A” to Bonus — u to undo")
            return next.committing([move], "Moved “A” to Bonus")
        }
        #expect(state.tasks.priority.map(\.caption) == ["B"])
        #expect(state.tasks.bonus.map(\.caption) == ["A", "C"])
        #expect(state.selectedTask?.caption == "A")
        #expect(savedChanges(effects).count == 1, "one task changes: its section and its key")
        #expect(state.message?.text == "Moved “A” to Bonus — u to undo")
    }

    @Test(arguments: [Key.character("d"), .delete])
    func deleteRemovesTheSelectedTaskAndKeepsASelection(key: Key) {
        var state = makeState(makeList(priority: ["A", "B", "C"]))
        state.press(.tab, .end)
        let delete = state.tasks.deleting(at: 2)
        let effects = state.expectPress(key) { next in
            next.tasks.apply(delete, clock: .zero, force: true)
            next.selection = 1  // the row above: the list ends there now
            next.message = Message("Deleted “C” — u to undo")
            return next.committing([delete], "Deleted “C”")
        }
        #expect(state.tasks.all.map(\.caption) == ["A", "B"])
        #expect(state.selection == 1)
        #expect(savedChanges(effects).map(\.id) == [state.tasks.deleted.keys.first!])
        #expect(state.message?.text == "Deleted “C” — u to undo")
    }

    @Test func actionsOnAnEmptyListDoNothing() {
        var state = makeState()
        state.press(.tab)
        for key in [Key.character(" "), .character("m"), .character("d"), .down, .end] {
            #expect(state.expectPress(key) { _ in [] }.isEmpty, "\(key) changes nothing")
        }
    }

    @Test(arguments: [Key.tab, .character("i"), .enter, .escape])
    func keysThatReturnToTheInput(key: Key) {
        var state = makeState(makeList(priority: ["A"]))
        state.type("draft")
        state.press(.tab)
        state.press(key)
        #expect(state.focus == .input)
        #expect(state.input.text == "draft")
    }

    @Test func lettersInTheListDoNotLeakIntoTheInput() {
        var state = makeState(makeList(priority: ["A"]))
        state.press(.tab, .character("b"))
        #expect(state.input.isEmpty)
        #expect(state.message?.text == "Press Tab or i to type a new task, ? for keys")
    }

    @Test func quittingAndSuspending() {
        var state = makeState(makeList(priority: ["A"]))
        #expect(state.press(.control("c")) == [.quit])
        #expect(state.press(.control("q")) == [.quit])
        #expect(state.press(.control("z")) == [.suspend])
        #expect(state.press(.character("q")).isEmpty, "q is a letter while typing")
        state.press(.tab)
        #expect(state.press(.character("q")) == [.quit])
        #expect(state.press(.control("c")) == [.quit])
    }

    @Test func aFailedSaveStaysOnScreenUntilASaveWorks() {
        var state = makeState(makeList(priority: ["A"]))
        _ = AppUpdate.update(&state, .saveFailed(reason: "No space left on device"), now: testNow)
        state.press(.down)
        #expect(state.saveError == "No space left on device")
        _ = AppUpdate.update(&state, .saved(Save([], what: ""), clock: Clock(milliseconds: 1), outside: []), now: testNow)
        #expect(state.saveError == nil)
    }

    @Test func aSaveWaitingForTheLockIsSaidUntilItLands() {
        var state = makeState(makeList(priority: ["A"]))
        _ = AppUpdate.update(&state, .saveFailed(reason: "No space left on device"), now: testNow)
        state.press(.tab, .character("x"))
        _ = AppUpdate.update(&state, .saveWaiting, now: testNow)
        #expect(state.saveError == nil, "waiting for the lock is not failing: the earlier failure is over")
        state.press(.down)  // the key clears the "Completed" message; the wait is still said
        expectScreenSnapshot(state, named: "ListNavigationTests.aSaveWaitingForTheLockIsSaidUntilItLands")
        _ = AppUpdate.update(&state, .saved(Save([], what: ""), clock: Clock(milliseconds: 1), outside: []), now: testNow)
        expectScreenSnapshot(state, named: "ListNavigationTests.aSaveWaitingForTheLockIsSaidUntilItLands-2")
    }

    @Test func aCompactionThatFailedIsSaid() {
        var state = makeState(makeList(priority: ["A"]))
        _ = AppUpdate.update(&state, .compactionFailed(reason: "No space left on device"), now: testNow)
        expectScreenSnapshot(state, named: "ListNavigationTests.aCompactionThatFailedIsSaid")
    }
}
