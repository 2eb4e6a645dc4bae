import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// `v`: a second, dimmer line under each task saying when it was added and completed.
@Suite("Detail rows")
struct DetailRowsTests {
    private static let day: TimeInterval = 86_400
    private static let utc = ZoneInfo.utc

    /// A state whose tasks were added `ages` days before `testNow`.
    private func state(ages: [Double], size: Size = Size(width: 80, height: 24)) -> AppState {
        let tasks = ages.enumerated().map { index, age in
            TaskItem(caption: "Task \(index + 1)", section: .priority, createdAt: testNow.addingTimeInterval(-age * Self.day))
        }
        var state = makeState(TaskList(tasks), size: size)
        state.zone = Self.utc
        return state
    }

    @Test func vShowsASecondLineUnderEachTaskAndHidesItAgain() {
        var state = state(ages: [3, 0])
        state.press(.tab)
        let effects = state.expectPress(.character("v")) { next in
            next.showsDetails = true
            next.message = Message("Details on: when each task was added and done")
            return []
        }
        #expect(effects.isEmpty, "nothing to do but draw: the run loop remembers it at exit")
        expectScreenSnapshot(state, named: "DetailRowsTests.vShowsASecondLineUnderEachTaskAndHidesItAgain")
        state.press(.character("v"))
        #expect(!state.showsDetails)
        expectScreenSnapshot(state, named: "DetailRowsTests.vShowsASecondLineUnderEachTaskAndHidesItAgain-2")
    }

    @Test func aCompletedTaskSaysWhenItWasDone() {
        var state = state(ages: [10])
        state.press(.tab, .character(" "), .character("v"))
        expectScreenSnapshot(state, named: "DetailRowsTests.aCompletedTaskSaysWhenItWasDone")
    }

    private static let ages: [(TimeInterval, String)] = [
        (30, "just now"), (5 * 60, "5 minutes ago"), (3 * 3600, "today"), (day, "yesterday"),
        (3 * day, "3 days ago"), (7 * day, "1 week ago"), (20 * day, "2 weeks ago"), (60 * day, "on 19 Sep"),
        (400 * day, "on 14 Oct 2025"), (-2 * day, "on 20 Nov 2026"),
    ]

    @Test(arguments: ages)
    func wordsForWhenSomethingHappened(age: TimeInterval, words: String) {
        // testNow is 2026-11-18 11:06:40 UTC; a date ahead of it (another device's clock) gets its year.
        #expect(RelativeTime.words(for: testNow.addingTimeInterval(-age), now: testNow, zone: Self.utc) == words)
    }

    /// PgDn moves by the tasks that fit, and the selected task's two rows stay on screen.
    @Test func pagingAndMovingKeepBothRowsOfTheSelectedTaskInView() {
        var state = state(ages: Array(repeating: 1, count: 100))
        state.press(.tab, .character("v"))
        for key in [Key.pageDown, .pageDown, .down, .down, .end, .pageUp, .up, .home] {
            state.press(key)
            let layout = state.layout
            #expect(state.visibleRows.contains(layout.row(ofTask: state.selection)), "\(key)")
            #expect(state.visibleRows.contains(layout.lastRow(ofTask: state.selection)), "\(key)")
        }
        state.press(.home, .pageDown)
        // 20 list rows: a page is 9 tasks of two rows.
        #expect(state.selection == 9)
        expectScreenSnapshot(state, named: "DetailRowsTests.pagingAndMovingKeepBothRowsOfTheSelectedTaskInView")
    }

    /// Turning details on keeps the selected task where it was on screen, unless its details
    /// row would fall off the bottom: then it moves up by that row.
    @Test func togglingKeepsTheSelectedTaskInItsPlace() {
        var state = state(ages: Array(repeating: 1, count: 100))
        state.press(.tab)
        for _ in 0..<50 { state.press(.down) }
        for _ in 0..<5 { state.press(.up) }
        func selectedLine(_ state: AppState) -> Int? { AppRender.render(state, size: state.size).lines.firstIndex { $0.hasPrefix("› ") } }
        let before = selectedLine(state)
        state.press(.character("v"))
        #expect(selectedLine(state) == before)
        #expect(state.selection == 45)
        state.press(.character("v"))
        for _ in 0..<5 { state.press(.down) }
        let atBottom = selectedLine(state)!
        state.press(.character("v"))
        #expect(selectedLine(state) == atBottom - 1)
        expectScreenSnapshot(state, named: "DetailRowsTests.togglingKeepsTheSelectedTaskInItsPlace")
    }

    /// The filter, the wheel and a resize with two-line rows.
    @Test func filterWheelAndResizeStayCorrect() {
        var state = state(ages: Array(repeating: 2, count: 60))
        state.press(.tab, .character("v"), .character("/"))
        state.type("Task 4")
        // Task 4 and Task 40...49, each match's details under it.
        expectScreenSnapshot(state, named: "DetailRowsTests.filterWheelAndResizeStayCorrect")
        state.press(.escape)
        _ = AppUpdate.update(&state, .wheelScrolled(lines: 30), now: testNow)
        #expect(state.visibleRows.contains(state.layout.row(ofTask: state.selection)))
        #expect(state.visibleRows.contains(state.layout.lastRow(ofTask: state.selection)))
        _ = AppUpdate.update(&state, .resized(Size(width: 40, height: 8)), now: testNow)
        expectScreenSnapshot(state, named: "DetailRowsTests.filterWheelAndResizeStayCorrect-2")
    }

    @Test func theLayoutGivesEachTaskTwoRows() {
        let layout = ListLayout(priorityCount: 2, bonusCount: 1, details: true)
        #expect(
            (0..<layout.rowCount).map { layout.content(ofRow: $0) } == [
                .header(.priority), .task(0), .details(0), .task(1), .details(1), .spacer, .header(.bonus), .task(2), .details(2),
            ])
        #expect(layout.row(ofTask: 2) == 7 && layout.lastRow(ofTask: 2) == 8)
        #expect(layout.task(nearRow: 4, searchingDown: true) == 1)
    }

    @Test func theConfigCanStartWithDetailsOn() throws {
        let config = AppConfig.parse("details = true\n", file: "c.toml")
        #expect(AppState(tasks: TaskList(), size: Size(width: 80, height: 24), config: config).showsDetails)
        #expect(AppConfig.parse("details = \"yes\"\n", file: "c.toml").warnings.count == 1, "skipped, and said")
    }
}
