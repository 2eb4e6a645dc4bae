import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// 120 tasks with "Café" tasks near the top, in the middle and far down in Bonus.
private func cafeList() -> TaskList {
    let captions = (1...120).map { [3, 57, 118].contains($0) ? "Café visit \($0)" : "Task \($0)" }
    return makeList(priority: Array(captions[..<80]), bonus: Array(captions[80...]))
}

@Suite("Filter: / and Ctrl-F")
struct FilterTests {
    @Test func typingNarrowsBothSectionsIgnoringCaseAndAccents() {
        var state = makeState(cafeList())
        state.type("half typed")
        state.press(.control("f"))
        #expect(state.focus == .filter)
        state.type("CAFE")
        #expect(state.layout.taskCount == 3)
        #expect(state.view.count(in: .priority, of: state.tasks) == 2)
        #expect(state.view.count(in: .bonus, of: state.tasks) == 1)
        #expect(state.selectedTask?.caption == "Café visit 3")
        #expect(state.input.text == "half typed", "the new-task input keeps its text")
        state.press(.down, .down)
        #expect(state.selectedTask?.caption == "Café visit 118")
    }

    /// taskwarrior-tui #620: filtering while scrolled far down must show the first matches,
    /// not only the rows that were already on screen.
    @Test func filteringWhileScrolledJumpsToTheFirstMatches() {
        var state = makeState(cafeList())
        state.press(.tab)
        for _ in 0..<5 { state.press(.pageDown) }
        let before = (state.selection, state.scrollOffset)
        #expect(state.scrollOffset > 50)
        state.press(.character("/"))
        state.type("caf")
        #expect(state.scrollOffset == 0)
        #expect(state.selection == 0)
        expectScreenSnapshot(state, named: "FilterTests.filteringWhileScrolledJumpsToTheFirstMatches")
        state.press(.escape)
        #expect(!state.view.isFiltering)
        #expect(state.filter.isEmpty)
        #expect(state.focus == .list)
        #expect((state.selection, state.scrollOffset) == before, "Esc restores the selection and the scroll")
    }

    @Test func enterKeepsTheFilterAndMovesToTheListWhereEscClearsIt() {
        var state = makeState(cafeList())
        state.press(.down, .down, .down, .down)
        let task5 = state.tasks[4].id
        state.expectPress(.control("f")) { next in
            next.filterOrigin = FilterOrigin(focus: .input, selectedTaskID: task5, scrollOffset: 0)
            next.focus = .filter
            return []
        }
        state.type("visit ")
        state.expectPress(.character("5")) { next in
            next.filter.insert("5")
            next.view.setQuery("visit 5", list: next.tasks, dates: .runningNow)
            next.selection = 0  // the first match
            return []
        }
        state.expectPress(.enter) { next in
            next.focus = .list
            // Opened from the input row: the footer says where the keys went.
            next.message = Message("Filter kept — keys go to the list (Tab: the new-task input)", shorter: ["Filter kept: keys go to the list"])
            return []
        }
        #expect(state.view.query == "visit 5")
        #expect(state.selectedTask?.caption == "Café visit 57")
        state.press(.character("/"))
        #expect(state.filter.text == "visit 5", "reopening edits the kept filter")
        state.press(.enter)
        state.expectPress(.escape) { next in
            next.message = nil
            next.filter.clear()
            next.view.setQuery("", list: next.tasks, dates: .runningNow)
            next.selection = 4  // Task 5 again
            next.focus = .input  // back where the filter was opened
            next.filterOrigin = nil
            return []
        }
        #expect(!state.view.isFiltering)
        #expect(state.selectedTask?.caption == "Task 5")
    }

    @Test func backspaceWidensAndAnEmptyFilterShowsEverything() {
        var state = makeState(cafeList())
        state.press(.control("f"))
        state.type("caféx")
        #expect(state.layout.taskCount == 0)
        expectScreenSnapshot(state, named: "FilterTests.backspaceWidensAndAnEmptyFilterShowsEverything")
        state.press(.backspace)
        #expect(state.layout.taskCount == 3)
        state.press(.control("u"))
        #expect(state.layout.taskCount == 120)
        state.press(.enter)
        #expect(state.focus == .input, "an empty filter is no filter: Enter closes it")
        #expect(state.filterOrigin == nil)
    }

    /// Backspace goes back to a result kept from the way in, without a scan; a change to the
    /// list drops every kept result, so none can show a stale match.
    @Test func backspaceReusesAnEarlierResultOnlyUntilTheListChanges() {
        var state = makeState(makeList(priority: ["review notes", "read mail", "rest", "tea"]))
        state.press(.control("f"))
        state.type("rev")
        #expect(state.layout.taskCount == 1)
        state.press(.backspace)
        #expect(state.layout.taskCount == 3)
        state.press(.backspace)
        #expect(state.layout.taskCount == 3, "r: review, read, rest")
        let added = TaskItem(caption: "rebase", createdAt: testNow)
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([.add(added)])]), now: testNow)
        #expect(state.layout.taskCount == 4)
        state.type("e")
        #expect(state.layout.taskCount == 4, "re was kept with 3 matches before rebase came")
        state.type("v")
        state.press(.backspace)
        #expect(state.layout.taskCount == 4)
        var fresh = ListView()
        fresh.setQuery("re", list: state.tasks, dates: .runningNow)
        #expect(state.view == fresh)
    }

    @Test func narrowingGivesTheSameResultAsAFreshScan() {
        var generator = SeededGenerator(seed: 42)
        let words = ["Café", "cafe", "CAFÉ au lait", "naïve", "Naive plan", "résumé", "Resume", "tea"]
        let captions = (0..<300).map { "\(words[Int.random(in: 0..<words.count, using: &generator)]) \($0)" }
        let list = makeList(priority: Array(captions[..<150]), bonus: Array(captions[150...]))
        for query in ["c", "ca", "caf", "cafe", "café ", "n", "na", "nai", "naiv", "r", "re", "res", "resume"] {
            var narrowed = ListView()
            var fresh = ListView()
            for prefixLength in 1...query.count {
                narrowed.setQuery(String(query.prefix(prefixLength)), list: list, dates: .runningNow)
            }
            fresh.setQuery(query, list: list, dates: .runningNow)
            #expect(narrowed == fresh, "query \(query)")
        }
    }

    @Test func matchesAreHighlightedOnScreen() {
        var state = makeState(makeList(priority: ["Un café noir", "Tea"]))
        state.press(.control("f"))
        state.type("CAFE")
        expectScreenSnapshot(state, named: "FilterTests.matchesAreHighlightedOnScreen")
        let grid = AppRender.render(state, size: state.size)
        #expect(grid[8, 4].style == .selectedInactive)
        #expect((9...12).allSatisfy { grid[$0, 4].style == .matchSelected }, "“café” is highlighted")
        #expect(grid[13, 4].style == .selectedInactive)
        #expect(grid.cursor?.x == 8 && grid.cursor?.y == 2, "the cursor is in the filter line")
    }

    @Test func changesWhileFilteredKeepTheViewConsistent() {
        var state = makeState(cafeList())
        state.press(.control("f"))
        state.type("caf")
        state.press(.enter, .down)
        state.press(.character("x"))
        #expect(state.tasks.task(withID: state.selectedTask!.id)?.completed == true)
        state.press(.character("d"))
        #expect(state.layout.taskCount == 2)
        #expect(state.message?.text == "Deleted “Café visit 57” — u to undo")
        state.press(.character("u"))
        #expect(state.layout.taskCount == 3)
        #expect(state.selectedTask?.caption == "Café visit 57")
        state.press(.tab)
        state.type("Another café")
        state.press(.enter)
        #expect(state.layout.taskCount == 4)
        #expect(state.selectedTask?.caption == "Another café")
        state.type("no match")
        state.press(.enter)
        #expect(state.message?.text == "Added “no match” — the filter hides it")
        var fresh = ListView()
        fresh.setQuery("caf", list: state.tasks, dates: .runningNow)
        #expect(state.view == fresh)
    }

    /// The folded captions live in one buffer per section, edited in place by every change:
    /// after adds, deletes, edits and moves in any order, a fresh query scans them to the same
    /// result as a view folded from scratch.
    @Test func foldedCaptionsStayInStepThroughAddsDeletesEditsAndMoves() {
        var generator = SeededGenerator(seed: 5)
        let words = ["Café", "tea", "Straße", "ﬁle", "naïve", "plan", "日本"]
        var state = makeState(makeList(priority: (0..<30).map { "\(words[$0 % 7]) \($0)" }, bonus: (30..<50).map { "\(words[$0 % 7]) \($0)" }))
        for step in 0..<80 {
            let tasks = state.tasks.all
            let task = tasks[Int.random(in: 0..<tasks.count, using: &generator)]
            let word = words[Int.random(in: 0..<words.count, using: &generator)]
            let change: TaskChange
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: change = .add(TaskItem(caption: "\(word) new \(step)", section: step % 2 == 0 ? .priority : .bonus, createdAt: testNow))
            case 1 where tasks.count > 5: change = .delete(task)
            case 2: change = .set(task.id, TaskFields(caption: "\(word) edited \(step)"), was: TaskFields(caption: task.caption))
            default:
                change = .set(task.id, TaskFields(section: task.section == .priority ? .bonus : .priority), was: TaskFields(section: task.section))
            }
            let clock = Clock(milliseconds: 9_000_000_000_000 + Int64(step))
            _ = AppUpdate.update(&state, .changedOutside([outsideRecord([change], clock: clock)]), now: testNow)
            let query = String(words[Int.random(in: 0..<words.count, using: &generator)].lowercased().prefix(2))
            state.view.setQuery(query, list: state.tasks, dates: .runningNow)
            var fresh = ListView()
            fresh.setQuery(query, list: state.tasks, dates: .runningNow)
            #expect(state.view == fresh, "step \(step): \(change), query \(query)")
            state.view.setQuery("", list: state.tasks, dates: .runningNow)
        }
    }

    /// Folding scalar by scalar (cached) agrees with Foundation folding the whole strings.
    @Test func theFastMatcherAgreesWithFoundation() {
        var generator = SeededGenerator(seed: 8)
        let pieces = [
            "cafe", "Café", "CAFÉ", "ab", "AB", "x", "naïve", "Naive", "日本", "🥛", " ", "e\u{301}", "ß", "SS", "[", "z",
            "ﬁ", "FI", "Ｆｉ", "ẞ", "Straße", "①", "İ",
        ]
        func reference(_ text: String) -> String {
            text.precomposedStringWithCompatibilityMapping.folding(
                options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        }
        for _ in 0..<5_000 {
            let caption = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let query = (0..<Int.random(in: 1...2, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let expected = reference(query).isEmpty || reference(caption).contains(reference(query))
            #expect(
                TaskFilter.Matcher(query, dates: .runningNow, lists: .initial).matches(caption: caption) == expected,
                "\(caption.debugDescription) ~ \(query.debugDescription)")
        }
    }

    @Test func foldingFindsSharpSLigaturesAndFullWidthAndHighlightsThem() {
        var state = makeState(makeList(priority: ["Straße 5", "ﬁle taxes", "ＡＢＣ invoice", "Café", "other"]))
        for (query, found) in [
            ("strasse", "Straße 5"), ("file", "ﬁle taxes"), ("abc", "ＡＢＣ invoice"), ("ABC", "ＡＢＣ invoice"),
            ("ｃａｆｅ", "Café"), ("STRASSE", "Straße 5"),
        ] {
            state.press(.control("f"))
            state.type(query)
            #expect(state.layout.taskCount == 1, "\(query)")
            #expect(state.selectedTask?.caption == found, "\(query)")
            state.press(.escape)
        }
        #expect(TaskFilter.matchRanges(of: "strasse", in: "Straße 5").map { "Straße 5"[$0] } == ["Straße"])
        #expect(TaskFilter.matchRanges(of: "fi", in: "ﬁle").map { "ﬁle"[$0] } == ["ﬁ"])
        #expect(TaskFilter.matchRanges(of: "b", in: "ＡＢＣ").map { "ＡＢＣ"[$0] } == ["Ｂ"])
    }
}
