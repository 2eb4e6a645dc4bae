import FoundationEssentials
import Glibc

/// What `--stats` says: the lasting history by local day, and the list as it stands now.
public struct Statistics: Equatable, Sendable {
    public struct Day: Equatable, Sendable {
        /// Days since 1970-01-01 in the zone the statistics were made for.
        public var day: Int
        public var added: Int
        public var completed: Int

        /// `YYYY-MM-DD`.
        public var date: String { Statistics.date(day) }
    }

    /// Every day from the first with history (at most `daysShown` before today) to today,
    /// days without history included, oldest first.
    public var days: [Day]
    /// Today (days since 1970-01-01, local).
    public var today: Int
    public var completedToday: Int
    /// Since Monday, and since the 1st of the month.
    public var completedThisWeek: Int
    public var completedThisMonth: Int
    public var open: Int
    public var overdue: Int
    /// The open task added first, if any.
    public var oldestOpen: TaskItem?
    /// The local day it was added.
    public var oldestOpenDay: Int?

    /// A local day (days since 1970-01-01) as `YYYY-MM-DD`.
    public static func date(_ day: Int) -> String {
        let (year, month, date) = Timestamp.civilDate(fromDays: day)
        return year.zeroPadded(4) + "-" + month.zeroPadded(2) + "-" + date.zeroPadded(2)
    }

    /// The last days, at most `count`, oldest first.
    public func lastDays(_ count: Int) -> ArraySlice<Day> { days.suffix(count) }

    /// The statistics of `state` as of `dates.now` in `dates.local`. `matching` narrows them (a
    /// filter): the days then count the matching tasks the store holds, deleted ones included
    /// (added on `createdAt`, completed on `completedAt`), and each matching repeating task's
    /// completed occurrences, which the lasting history keeps by task. `chartDays`: days shown
    /// at least, before the first with history.
    public static func of(
        _ list: TaskList, activity: ActivityHistory, dates: DueDisplay, matching: ((TaskItem) -> Bool)? = nil, chartDays: Int = 14
    ) -> Statistics {
        let today = DueDate.localDay(of: dates.now, in: dates.local)
        let history = matching.map { ActivityHistory(tasksOf: list, occurrences: activity, matching: $0) } ?? activity
        let byDay = history.days(in: dates.local)
        let first = min(byDay.keys.filter { $0 <= today }.min() ?? today, today - chartDays + 1)
        let days = (first...today).map { day in
            let counts = byDay[day] ?? ActivityHistory.Counts()
            return Day(day: day, added: max(0, counts.added), completed: max(0, counts.completed))
        }
        let monday = today - DateWords.daysSinceMonday(ofDay: today)
        let (_, _, dayOfMonth) = Timestamp.civilDate(fromDays: today)
        let firstOfMonth = today - dayOfMonth + 1
        let completed = { (from: Int) in days.reduce(0) { $0 + ($1.day >= from ? $1.completed : 0) } }
        var open = 0
        var overdue = 0
        var oldest: TaskItem?
        // Section by section: `list.all` would copy every task (15 MB at 100,000).
        for task in [list.priority, list.bonus].joined() where !task.completed && matching?(task) ?? true {
            open += 1
            if dates.isOverdue(task.due) { overdue += 1 }
            if oldest.map({ task.createdAt < $0.createdAt }) ?? true { oldest = task }
        }
        return Statistics(
            days: days, today: today, completedToday: completed(today), completedThisWeek: completed(monday),
            completedThisMonth: completed(firstOfMonth), open: open, overdue: overdue, oldestOpen: oldest,
            oldestOpenDay: oldest.map { DueDate.localDay(of: $0.createdAt, in: dates.local) })
    }
}

extension ActivityHistory {
    /// The history of the tasks of `list` (live and deleted, those `matching`): each added on
    /// its `createdAt`, completed on its `completedAt` when done, and, for a repeating task,
    /// completed on each occurrence's day that `occurrences` kept. A task whose add an undo
    /// took back was never added.
    package init(tasksOf list: TaskList, occurrences: ActivityHistory = ActivityHistory(), matching: (TaskItem) -> Bool) {
        self.init()
        for task in [list.priority, list.bonus].joined() where matching(task) { tally(task, occurrences) }
        for tombstone in list.deleted.values where matching(tombstone.task) && !occurrences.addsTakenBack.contains(tombstone.task.id) {
            tally(tombstone.task, occurrences)
        }
    }

    private mutating func tally(_ task: TaskItem, _ kept: ActivityHistory) {
        tally(added: 1, at: task.createdAt)
        if task.completed, let completedAt = task.completedAt { tally(completed: 1, at: completedAt) }
        if !kept.occurrences.isEmpty { countOccurrences(of: task.id, in: kept) }
    }
}

extension TaskStore {
    /// `--stats`: the store read once, without a lock, and its statistics. `inList` (`--in`)
    /// narrows them as a filter does: to the tasks of that list the store still holds.
    public func statistics(dates: DueDisplay, filter: String?, inList: String? = nil) throws -> (Statistics, warnings: [String]) {
        let state = try read()
        let only = try inList.map { state.list.lists.stored(for: try Self.existingList($0, in: state.list, flag: "--in")) }
        let query = TaskFilter.Query(filter ?? "")
        let matcher = query.isEmpty && only == nil ? nil : TaskFilter.Matcher(query, dates: dates, lists: state.list.lists, onlyStored: only)
        let statistics = Statistics.of(state.list, activity: state.activity, dates: dates, matching: matcher.map { $0.matches })
        return (statistics, state.warnings)
    }
}
