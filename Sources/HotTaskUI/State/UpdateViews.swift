import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// The history view and the calendar of due dates: opening them (H and W in the list), their
/// keys, and keeping their numbers current while they are open. Esc and q leave either, back
/// where the keys were; no key inside them changes a task.
extension AppUpdate {
    /// Opens the history view, made from the history and the list's counts as they are now.
    static func openHistory(_ state: inout AppState) {
        state.dueCalendar = nil
        state.chart = makeChart(state)
        state.focus = .history
    }

    /// Opens the calendar of due dates on today's month, for the list shown (Enter then shows
    /// the day's tasks of that list: the counts must be the ones it will show).
    static func openCalendar(_ state: inout AppState) {
        state.chart = nil
        state.dueCalendar = DueCalendar(tasks: state.tasks, dates: state.dates, inList: shownList(state))
        state.focus = .calendar
    }

    /// The stored name of the list shown, nil when every list is.
    private static func shownList(_ state: AppState) -> String? {
        state.currentList.map { state.tasks.lists.stored(for: $0) }
    }

    /// Back to the list: both views open only from it (H and W are list keys).
    static func closeView(_ state: inout AppState) {
        state.chart = nil
        state.dueCalendar = nil
        state.focus = .list
    }

    private static func makeChart(_ state: AppState) -> HistoryChart {
        HistoryChart(
            activity: state.activity, open: state.tasks.count - state.tasks.completedCount, now: state.now, zone: state.dates.local)
    }

    /// A key in the history view.
    static func handleHistoryKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        if handleViewKey(key, &state) { return [] }
        guard var chart = state.chart else { return [] }
        switch key {
        case .tab, .right: chart.page = chart.page.next
        case .backTab, .left: chart.page = chart.page.previous
        default: return []
        }
        state.chart = chart
        return []
    }

    /// A key in the calendar: the arrows (and h j k l) move the day, PgUp and PgDn the month,
    /// Home and t go back to today, Enter shows that day's tasks in the list.
    static func handleCalendarKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        if handleViewKey(key, &state) { return [] }
        guard var calendar = state.dueCalendar else { return [] }
        let day: Int
        switch key {
        case .left, .character("h"): day = calendar.selected - 1
        case .right, .character("l"): day = calendar.selected + 1
        case .up, .character("k"): day = calendar.selected - 7
        case .down, .character("j"): day = calendar.selected + 7
        case .pageUp, .character("p"): day = CalendarDay.moved(calendar.selected, months: -1)
        case .pageDown, .character("n"): day = CalendarDay.moved(calendar.selected, months: 1)
        case .home, .character("t"): day = calendar.today
        case .enter:
            showDay(calendar.selected, &state)
            return []
        default: return []
        }
        calendar.select(day, tasks: state.tasks, dates: state.dates, inList: shownList(state))
        state.dueCalendar = calendar
        return []
    }

    /// Keys both views share: Esc and q leave, the other view's key switches, F1 and ? help.
    /// False when `key` is none of them.
    private static func handleViewKey(_ key: Key, _ state: inout AppState) -> Bool {
        if key == .escape || key == .character("q") {
            closeView(&state)
            return true
        }
        switch state.bindings.action(for: key) {
        case .history?: openHistory(&state)
        case .calendar?: openCalendar(&state)
        case .help?: openHelp(state.focus, &state)
        default: return false
        }
        return true
    }

    /// Enter in the calendar: the list filtered to the tasks due on `day` (`due:YYYY-MM-DD`), as
    /// a kept filter, so Esc in the list clears it and puts the selection back.
    private static func showDay(_ day: Int, _ state: inout AppState) {
        let count = state.dueCalendar?.due(on: day).map { $0.open + $0.done } ?? 0
        closeView(&state)
        if state.filterOrigin == nil {
            state.filterOrigin = FilterOrigin(focus: .list, selectedTaskID: state.selectedTask?.id, scrollOffset: state.scrollOffset)
        }
        state.filter = LineEditor("due:" + Statistics.date(day))
        applyFilter(&state)
        state.focus = .list
        let tasks = count == 1 ? "1 task" : "\(count) tasks"
        state.message = Message(
            "\(tasks) due \(CalendarDay.short(day)) — Esc clears the filter", shorter: ["\(tasks) due \(CalendarDay.short(day))"])
    }

    /// After an event that may have changed the tasks or the history: the open view's numbers
    /// made again (one pass), and a new day seen.
    static func refreshView(after event: Event, _ state: inout AppState) {
        switch event {
        case .saved(let save, let clock, let outside):
            state.activity.count(records: outside)
            state.activity.count(save.changes, what: save.what, undoes: save.undoes, committed: clock)
        case .changedOutside(let records):
            state.activity.count(records: records)
        case .reloaded: break
        case .stillUnsaved, .timerFired:
            // Nothing changed but maybe the day: a timer fires every half second while a save
            // waits, and a view made again is a pass over the tasks.
            let today = DueDate.localDay(of: state.now, in: state.dates.local)
            guard state.chart.map({ $0.today != today }) ?? state.dueCalendar.map({ $0.today != today }) ?? false else { return }
        default: return
        }
        if state.focus == .history, let shown = state.chart {
            var chart = makeChart(state)
            chart.page = shown.page
            if chart != shown { state.chart = chart }
        }
        if state.focus == .calendar, let calendar = state.dueCalendar {
            state.dueCalendar = DueCalendar(tasks: state.tasks, dates: state.dates, inList: shownList(state), selected: calendar.selected)
        }
    }
}
