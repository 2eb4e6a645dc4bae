import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// The calendar of due dates (W). `testNow` is Wednesday 2026-11-18, 12:06 in Berlin.
@Suite("Calendar of due dates")
struct CalendarViewTests {
    static let berlin = ZoneInfo(identifier: "Europe/Berlin")!

    /// Tasks due on 10 November (overdue), today, the 20th (two, one done) and in December;
    /// keys in the list.
    static func state(_ size: Size = Size(width: 80, height: 24), blocks: Bool = true) -> AppState {
        func day(_ d: Int, _ m: Int = 11) -> DueDate { .date(year: 2026, month: m, day: d)! }
        let tasks = [
            TaskItem(caption: "Pay rent", createdAt: testNow, due: day(20)),
            TaskItem(caption: "Return the library books", createdAt: testNow, due: day(10)),
            TaskItem(caption: "Call mum", createdAt: testNow, due: day(18)),
            TaskItem(caption: "Dentist", createdAt: testNow, due: day(24, 12)),
            TaskItem(caption: "Someday", section: .bonus, createdAt: testNow),
            TaskItem(caption: "Water the plants", section: .bonus, completed: true, createdAt: testNow, due: day(20)),
        ]
        var state = makeState(TaskList(tasks), size: size)
        state.zone = berlin
        _ = AppUpdate.update(&state, .started(Startup(showsDetails: false, blocks: blocks)), now: testNow)
        state.press(.tab)
        return state
    }

    static func day(_ d: Int, _ m: Int = 11) -> Int { Timestamp.daysFromCivil(year: 2026, month: m, day: d) }

    /// The calendar's day chosen as the keys choose it (another month counted anew).
    static func choose(_ day: Int, _ state: inout AppState) {
        let (tasks, dates) = (state.tasks, state.dates)
        state.dueCalendar?.select(day, tasks: tasks, dates: dates)
    }

    @Test("W shows this month with the due days marked; Esc and q go back to the list as it was")
    func month() {
        var state = Self.state()
        let before = state
        state.press(.character("W"))
        #expect(state.focus == .calendar)
        expectScreenSnapshot(state, named: "CalendarViewTests.november80x24")
        state.expectPress(.escape) { wanted in
            wanted = before
            return []
        }
        state.press(.character("W"))
        state.expectPress(.character("q")) { wanted in
            wanted = before
            return []
        }
    }

    @Test("the arrows move the day, PgDn and PgUp the month, t goes back to today")
    func moving() {
        var state = Self.state()
        state.press(.character("W"))
        state.expectPress(.right) { wanted in
            Self.choose(Self.day(19), &wanted)
            return []
        }
        state.expectPress(.up) { wanted in
            Self.choose(Self.day(12), &wanted)
            return []
        }
        state.expectPress(.character("h")) { wanted in
            Self.choose(Self.day(11), &wanted)
            return []
        }
        state.expectPress(.pageDown) { wanted in
            Self.choose(Self.day(11, 12), &wanted)
            return []
        }
        state.press(.pageUp, .pageUp, .pageUp)
        #expect(state.dueCalendar?.selected == Self.day(11, 9))
        state.expectPress(.character("t")) { wanted in
            Self.choose(Self.day(18), &wanted)
            return []
        }
        // The 31st a month on is the last of the next.
        Self.choose(Timestamp.daysFromCivil(year: 2027, month: 1, day: 31), &state)
        state.press(.pageDown)
        #expect(state.dueCalendar?.selected == Timestamp.daysFromCivil(year: 2027, month: 2, day: 28))
    }

    @Test("Enter shows the list filtered to that day's tasks, and Esc there clears the filter")
    func enterFilters() {
        var state = Self.state()
        let before = state
        state.press(.character("W"), .right, .right)
        state.press(.enter)
        #expect(state.focus == .list)
        #expect(state.filter.text == "due:2026-11-20")
        expectScreenSnapshot(state, named: "CalendarViewTests.filtered80x24")
        state.press(.escape)
        #expect(state.filter.text.isEmpty)
        #expect(state.view == before.view)
        #expect(state.focus == .list)
        #expect(state.selection == before.selection)
    }

    @Test("with one list shown, the calendar counts that list's tasks, the ones Enter shows")
    func oneList() throws {
        var list = TaskList([
            TaskItem(caption: "Pay rent", createdAt: testNow, due: .date(year: 2026, month: 11, day: 20)!),
            TaskItem(caption: "Fix the build", createdAt: testNow, due: .date(year: 2026, month: 11, day: 20)!, list: "Work"),
            TaskItem(caption: "Ship it", createdAt: testNow, due: .date(year: 2026, month: 11, day: 20)!, list: "Work"),
        ])
        list.lists = try #require(ListNames(stored: ["Tasks", "Work"]))
        var state = makeState(list, size: Size(width: 80, height: 24))
        state.zone = Self.berlin
        state.press(.tab, .character(">"), .character(">"))
        #expect(state.currentList == "Work")
        state.press(.character("W"), .right, .right)
        let due = try #require(state.dueCalendar?.due(on: Self.day(20)))
        #expect(due.captions == ["Fix the build", "Ship it"])
        state.press(.enter)
        #expect(state.message?.text == "2 tasks due Nov 20 — Esc clears the filter")
        #expect(state.view.count(of: state.tasks) == 2)
    }

    @Test("at 40×12 the month takes a row a week and the chosen day is under it")
    func smallScreen() {
        var state = Self.state(Size(width: 40, height: 12))
        state.press(.character("W"), .right, .right)
        expectScreenSnapshot(state, named: "CalendarViewTests.november40x12")
    }

    @Test("under 36 columns each day keeps both its digits, with today's pointer or the due mark before it", arguments: [30, 24])
    func narrowScreen(width: Int) {
        var state = Self.state(Size(width: width, height: 12))
        state.press(.character("W"), .right, .right)
        expectScreenSnapshot(state, named: "CalendarViewTests.november\(width)x12")
    }

    @Test("without block characters the marks are ASCII")
    func ascii() {
        var state = Self.state(Size(width: 40, height: 12), blocks: false)
        state.press(.character("W"), .right, .right)
        expectScreenSnapshot(state, named: "CalendarViewTests.asciiNovember40x12")
    }

    @Test("H and W switch between the views; Esc goes back to where the keys were before either")
    func switching() {
        var state = Self.state()
        let before = state
        state.press(.character("W"), .character("H"))
        #expect(state.focus == .history)
        state.press(.character("W"))
        #expect(state.focus == .calendar)
        state.expectPress(.escape) { wanted in
            wanted = before
            return []
        }
    }

    @Test("the due: word of a day filters the command line's --filter too")
    func dueDayWord() {
        let query = TaskFilter.Query("due:2026-11-20")
        #expect(query.dueDay == Self.day(20))
        #expect(query.text.isEmpty)
        #expect(TaskFilter.Query("due:2026-02-30").unknownDue == "due:2026-02-30")
        let dates = DueDisplay(now: testNow, local: Self.berlin)
        let tasks = Self.state().tasks
        let matcher = TaskFilter.Matcher(query, dates: dates, lists: tasks.lists)
        let shown = tasks.all.filter(matcher.matches).map(\.caption)
        #expect(shown == ["Pay rent", "Water the plants"])
    }
}
