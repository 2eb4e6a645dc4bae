import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// The history view (H): completions per day, open tasks at each day's end, a year's heat map.
/// `testNow` is Wednesday 2026-11-18, 11:06 UTC; the history is in UTC.
@Suite("History view")
struct HistoryViewTests {
    static let utc = ZoneInfo(identifier: "UTC")!

    /// A year of history (a few completions most days, more on Mondays, none on Sundays) and
    /// four open tasks, one done, in the list; keys in the list.
    static func state(_ size: Size = Size(width: 80, height: 24), blocks: Bool = true) -> AppState {
        var activity = ActivityHistory()
        let today = DueDate.localDay(of: testNow, in: utc)
        for back in 0..<400 {
            let day = today - back
            let weekday = CalendarDay.weekday(day)
            let done = weekday == 6 ? 0 : weekday == 0 ? 6 : (back * 7) % 4
            let noon = Date(timeIntervalSince1970: TimeInterval(day) * 86_400 + 43_200)
            activity.tally(added: (back * 5) % 3 + (weekday == 0 ? 4 : 0), completed: done, at: noon)
        }
        var state = makeState(makeList(priority: ["Pay rent", "Call mum", "Plan the trip"], bonus: ["Bake"], completed: ["Bake"]), size: size)
        state.zone = utc
        _ = AppUpdate.update(&state, .started(Startup(showsDetails: false, activity: activity, blocks: blocks)), now: testNow)
        state.press(.tab)
        return state
    }

    @Test("H shows the three charts at 80×24; Esc and q go back to the list as it was")
    func fullScreen() {
        var state = Self.state()
        let before = state
        state.press(.character("H"))
        #expect(state.focus == .history)
        expectScreenSnapshot(state, named: "HistoryViewTests.full80x24")
        state.expectPress(.escape) { wanted in
            wanted = before
            return []
        }
        state.press(.character("H"))
        state.expectPress(.character("q")) { wanted in
            wanted = before
            return []
        }
    }

    @Test("at 40×12 one chart at a time: Tab and ← → go through them")
    func smallScreen() {
        var state = Self.state(Size(width: 40, height: 12))
        state.press(.character("H"))
        expectScreenSnapshot(state, named: "HistoryViewTests.daily40x12")
        state.press(.tab)
        expectScreenSnapshot(state, named: "HistoryViewTests.open40x12")
        state.press(.tab)
        expectScreenSnapshot(state, named: "HistoryViewTests.year40x12")
        state.press(.right)
        expectScreenSnapshot(state, named: "HistoryViewTests.daily40x12")
        state.press(.left)
        expectScreenSnapshot(state, named: "HistoryViewTests.year40x12")
    }

    @Test("without block characters (LANG=C, NO_COLOR) the charts and the title's gauge are ASCII")
    func ascii() {
        var state = Self.state(blocks: false)
        state.press(.character("H"))
        expectScreenSnapshot(state, named: "HistoryViewTests.ascii80x24")
    }

    @Test("a completion saved while the view is open counts today, and its undo takes it back")
    func followsSaves() throws {
        var state = Self.state()
        state.press(.character("H"))
        let before = try #require(state.chart)
        let task = state.tasks.priority[0]
        let change = TaskChange.set(task.id, TaskFields(completed: true, completedAt: testNow), was: TaskFields(completed: false))
        let save = Save([change], what: "Completed “Pay rent”")
        _ = AppUpdate.update(&state, .saved(save, clock: Clock(milliseconds: 1_795_000_001_000), outside: []), now: testNow)
        #expect(state.chart?.completed(on: before.today) == before.completed(on: before.today) + 1)
        let undo = Save(
            [TaskChange.set(task.id, TaskFields(completed: false), was: TaskFields(completed: true, completedAt: testNow))],
            what: "Undo: Completed “Pay rent”")
        _ = AppUpdate.update(&state, .saved(undo, clock: Clock(milliseconds: 1_795_000_002_000), outside: []), now: testNow)
        #expect(state.chart?.completed(on: before.today) == before.completed(on: before.today))
    }

    @Test("the open tasks at each day's end go back from now through the days' adds and completions")
    func burndown() {
        var activity = ActivityHistory()
        let today = DueDate.localDay(of: testNow, in: Self.utc)
        let noon = { (day: Int) in Date(timeIntervalSince1970: TimeInterval(day) * 86_400 + 43_200) }
        activity.tally(added: 3, at: noon(today))
        activity.tally(completed: 2, at: noon(today - 1))
        activity.tally(added: 1, completed: 4, at: noon(today - 2))
        let chart = HistoryChart(activity: activity, open: 5, now: testNow, zone: Self.utc)
        // Today ends with 5; yesterday 5 - 3 = 2; the day before 2 + 2 = 4; before that 4 - 1 + 4 = 7.
        #expect(chart.openAtEndOfDay(last: 4) == [7, 4, 2, 5])
    }

    @Test("a list read again in full brings its lasting history: the completions folded into another's snapshot count")
    func reloadTakesTheHistory() {
        var state = makeState(makeList(priority: ["A"]))
        var activity = ActivityHistory()
        activity.tally(completed: 3, at: testNow)
        _ = AppUpdate.update(&state, .reloaded(makeList(priority: ["A"]), activity: activity), now: testNow)
        #expect(state.activity == activity)
        // A reload that read no history keeps what the app counted.
        _ = AppUpdate.update(&state, .reloaded(makeList(priority: ["A"])), now: testNow)
        #expect(state.activity == activity)
    }

    /// A daily task done three days running is three completions, but one open task all along:
    /// the open tasks' line counted each occurrence as a task closed (3 open the day before).
    @Test("a repeating task's occurrences close nothing in the open tasks' line")
    func repeatingOccurrencesCloseNothing() {
        var activity = ActivityHistory()
        let today = DueDate.localDay(of: testNow, in: Self.utc)
        let noon = { (back: Int) in Date(timeIntervalSince1970: TimeInterval(today - back) * 86_400 + 43_200) }
        activity.tally(added: 1, at: noon(3))
        for back in 0..<3 { activity.tally(completed: 1, stepped: 1, at: noon(back)) }
        let chart = HistoryChart(activity: activity, open: 1, now: testNow, zone: Self.utc)
        #expect(chart.openAtEndOfDay(last: 5) == [0, 1, 1, 1, 1])
        #expect(chart.completed(since: today - 2) == 3)
    }
}
