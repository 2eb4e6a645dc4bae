import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// The history view (H): completions per day, open tasks at each day's end, a year's heat map.
/// `testNow` is Wednesday 2026-11-18, 11:06 UTC; the history is in UTC.
@Suite("History view")
struct HistoryViewTests {
    static let utc = TimeZone(identifier: "UTC")!

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
        state.calendar.timeZone = utc
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
        expectScreen(state, Self.full80x24)
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
        expectScreen(state, Self.daily40x12)
        state.press(.tab)
        expectScreen(state, Self.open40x12)
        state.press(.tab)
        expectScreen(state, Self.year40x12)
        state.press(.right)
        expectScreen(state, Self.daily40x12)
        state.press(.left)
        expectScreen(state, Self.year40x12)
    }

    @Test("without block characters (LANG=C, NO_COLOR) the charts are ASCII")
    func ascii() {
        var state = Self.state(blocks: false)
        state.press(.character("H"))
        expectScreen(state, Self.ascii80x24)
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

    static let full80x24 = [
        " HotTask  1 down 3 to go!                                        1/4 ▰▰▰▱▱▱▱▱▱▱",
        "History: 0 done today, 9 this week, 34 this month, 3 open",
        "Completed per day, last 56 days: 108, at most 6 a day",
        "   6     █      █      █      █      █      █      █      █",
        "         █      █      █      █      █      █      █      █",
        "      ▃█ █▃█  ▃ █ ▃█   █  ▃█  ██  ▃█ █▃█  ▃ █ ▃█   █  ▃█  ██",
        "     ▅██ ███ ▅█ █▅██ ▅ █ ▅██  ██ ▅██ ███ ▅█ █▅██ ▅ █ ▅██  ██",
        "     Sep 24                                             today",
        "Open tasks at each day's end: 3 now, 24 on Sep 24",
        "  24 █▆▄▆▄▃▂▂▂▂▂▁▂",
        "     ██████████████▆█▇█████▅▆█▆▄▆▅▄▃▃▂▂  ▁",
        "     ██████████████████████████████████▇██▇██▇▆▅▅▅▇▅▆▇▅▃▅▅▄▃▃",
        "     Sep 24                                             today",
        "Completed in the last year: 711, at most 6 a day",
        "      Dec Jan Feb Mar  Apr May  Jun Jul Aug  Sep Oct Nov",
        "Mon █████████████████████████████████████████████████████",
        "    ▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒",
        "Wed ·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·",
        "    ░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒",
        "Fri ▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒",
        "    ▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·",
        "    ····················································",
        "    less ·░▒▓█ more",
        "W calendar  Esc back  F1 help",
    ]
    static let daily40x12 = [
        " HotTask  1 down 3 to go!           1/4",
        "Done: 0 today, 9 week, 3 open",
        "Done per day, 34 days: 66",
        "   6    █      █      █      █      █",
        "        █      █      █      █      █",
        "        █      █      █      █      █",
        "     ▄  █▄   ▄ █ ▄    █  ▄   █   ▄  █▄",
        "     █  ██  ▃█ █▃█  ▃ █ ▃█   █  ▃█  ██",
        "     █  ██ ▁██ ███ ▁█ █▁██ ▁ █ ▁██  ██",
        "     █  ██ ███ ███ ██ ████ █ █ ███  ██",
        "     Oct 16                       today",
        "Tab next chart  Esc back  F1 help",
    ]
    static let open40x12 = [
        " HotTask  1 down 3 to go!           1/4",
        "Done: 0 today, 9 week, 3 open",
        "Open: 3 now, 13 on Oct 16",
        "  16  ▁█▁ ▁",
        "     ▆███▂█▆▂",
        "     ████████▇▇▃▃",
        "     ████████████▁▄█▁▄▄▁    ▁  ▁",
        "     ███████████████████▅▂▂▂█▂▅█▂ ▂▂",
        "     ████████████████████████████▃██▆▃▃",
        "     ██████████████████████████████████",
        "     Oct 16                       today",
        "Tab next chart  Esc back  F1 help",
    ]
    static let year40x12 = [
        " HotTask  1 down 3 to go!           1/4",
        "Done: 0 today, 9 week, 3 open",
        "Done in the last 35 weeks: 466",
        "     Apr May  Jun Jul Aug  Sep Oct Nov",
        "Mon ███████████████████████████████████",
        "    ░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒",
        "Wed ▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·",
        "    ▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒",
        "Fri ·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒",
        "    ░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·▒▒░·",
        "    ··································",
        "Tab next chart  Esc back  F1 help",
    ]
    static let ascii80x24 = [
        " HotTask  1 down 3 to go!                                        1/4 ▰▰▰▱▱▱▱▱▱▱",
        "History: 0 done today, 9 this week, 34 this month, 3 open",
        "Completed per day, last 56 days: 108, at most 6 a day",
        "   6     #      #      #      #      #      #      #      #",
        "         #      #      #      #      #      #      #      #",
        "       # # #    #  #   #   #  ##   # # #    #  #   #   #  ##",
        "     ### ### ## #### # # ###  ## ### ### ## #### # # ###  ##",
        "     Sep 24                                             today",
        "Open tasks at each day's end: 3 now, 24 on Sep 24",
        "  24 #####",
        "     ##############################",
        "     ########################################################",
        "     Sep 24                                             today",
        "Completed in the last year: 711, at most 6 a day",
        "      Dec Jan Feb Mar  Apr May  Jun Jul Aug  Sep Oct Nov",
        "Mon #####################################################",
        "    ++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.+",
        "Wed .++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.",
        "    -.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++",
        "Fri +-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.+",
        "    ++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.++-.",
        "    ....................................................",
        "    less .-+*# more",
        "W calendar  Esc back  F1 help",
    ]
}
