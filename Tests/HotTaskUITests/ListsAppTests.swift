import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Issue 53 in the app: the rule shows the lists, `>` and `<` switch between them (then every
/// list at once), the title and progress are the shown list's, the input adds to it, and `T`
/// moves the selected task to a list found as its name is typed.
@Suite("lists in the app")
struct ListsAppTests {
    /// Buy milk and Call mum in Tasks (the default list), Fix the build in Work.
    private func twoLists() -> AppState {
        var list = TaskList([
            TaskItem(caption: "Buy milk", createdAt: testNow),
            TaskItem(caption: "Fix the build", createdAt: testNow, list: "Work"),
            TaskItem(caption: "Call mum", section: .bonus, completed: true, createdAt: testNow),
        ])
        list.lists = ListNames(stored: ["Tasks", "Work"])!
        return makeState(list, size: Size(width: 60, height: 10))
    }

    @Test func theRuleShowsTheListsAndTheKeysSwitchBetweenThem() {
        var state = twoLists()
        state.press(.tab)
        expectScreenSnapshot(state, named: "ListsAppTests.theRuleShowsTheListsAndTheKeysSwitchBetweenThem")
        state.press(.character(">"))
        #expect(state.message?.text == "List: Tasks")
        expectScreenSnapshot(state, named: "ListsAppTests.theRuleShowsTheListsAndTheKeysSwitchBetweenThem-2")
        state.press(.character(">"))
        #expect(state.currentList == "Work")
        #expect(state.view.count(of: state.tasks) == 1)
        state.press(.character(">"))
        #expect(state.currentList == nil && state.message?.text == "All lists")
        state.press(.character("<"))
        #expect(state.currentList == "Work")
    }

    @Test func theInputAddsToTheListShown() {
        var state = twoLists()
        state.press(.tab, .character(">"), .character(">"), .tab)
        state.type("Review the PR")
        let effects = state.press(.enter)
        let added = savedChanges(effects).compactMap { change -> TaskItem? in if case .add(let task) = change { task } else { nil } }
        #expect(added.map(\.list) == ["Work"])
        #expect(state.view.count(of: state.tasks) == 2)
        state.press(.tab, .character("<"), .tab)
        state.type("Water the plants")
        let more = savedChanges(state.press(.enter)).compactMap { change -> TaskItem? in if case .add(let task) = change { task } else { nil } }
        #expect(more.map(\.list) == [""], "the default list stores nothing")
    }

    @Test func moveToListFindsTheListAsItIsTypedAndTheTaskLeavesTheView() {
        var state = twoLists()
        state.press(.tab, .character(">"))
        #expect(state.selectedTask?.caption == "Buy milk")
        state.press(.character("T"))
        #expect(state.focus == .listing)
        state.type("wo")
        let effects = state.press(.enter)
        #expect(
            savedChanges(effects) == [
                .set(state.tasks.all.first { $0.caption == "Buy milk" }!.id, TaskFields(list: "Work"), was: TaskFields(list: ""))
            ])
        #expect(state.focus == .list)
        #expect(state.view.count(of: state.tasks) == 1, "Buy milk went to Work")
        state.press(.character("T"))
        state.type("nowhere")
        #expect(savedChanges(state.press(.enter)).isEmpty)
        #expect(state.focus == .listing && state.message?.kind == .error)
        state.press(.escape)
        #expect(state.focus == .list && state.message?.text == "List unchanged")
    }

    @Test func aStoreOfOneListLooksAsBeforeAndSaysHowToMakeAnother() {
        var state = makeState(makeList(priority: ["Buy milk"]), size: Size(width: 60, height: 10))
        state.press(.tab, .character(">"))
        #expect(state.message?.text == "One list only: make another with hottask --new-list NAME")
        #expect(state.currentList == nil)
    }

    static let allLists = [
        " HotTask  1 down 2 to go!                    1/3 ▰▰▰▱▱▱▱▱▱▱",
        "+ Type a new task and press Enter                     [Add]",
        "─ Tasks  Work [All]───── [Manual] Newest  Oldest  A–Z  Due ─",
        "Top Priority (2)",
        "› [ ] Buy milk  · Tasks",
        "  [ ] Fix the build  · Work",
        "",
        "Bonus (1)",
        "  [x] Call mum  · Tasks",
        "Tab input  Space done  w due  m move  C clear  ? help   1/3",
    ]
    static let tasksList = [
        " Tasks  1 down 1 to go!                      1/2 ▰▰▰▰▰▱▱▱▱▱",
        "+ Type a new task and press Enter                     [Add]",
        "─[Tasks] Work  All ───── [Manual] Newest  Oldest  A–Z  Due ─",
        "Top Priority (1)",
        "› [ ] Buy milk",
        "",
        "Bonus (1)",
        "  [x] Call mum",
        "",
        "List: Tasks                                             1/2",
    ]
}
