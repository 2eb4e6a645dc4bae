import FoundationEssentials
import Glibc
import HotTaskCore

/// The month calendar of due dates: what each day of the month shown has due, made in one
/// pass over the tasks when the calendar opens or shows another month (and again when the
/// tasks change while it is open), and the day the arrows have chosen. Drawing looks days up;
/// no frame passes over the tasks.
struct DueCalendar: Equatable, Sendable {
    /// What one day has due.
    struct Due: Equatable, Sendable {
        var open = 0
        var done = 0
        var openCaptions: [String] = []
        var doneCaptions: [String] = []

        /// The first few captions, open ones first (the calendar lists them under the month).
        var captions: [String] { Array((openCaptions + doneCaptions).prefix(DueCalendar.captionsKept)) }
    }

    /// Captions kept per day: more than the largest screen lists.
    static let captionsKept = 8

    /// Today, local (days since 1970-01-01).
    let today: Int
    /// The chosen day.
    private(set) var selected: Int
    /// The first day of the month shown (the chosen day's).
    private(set) var month: Int
    /// What each day of that month with something due has.
    private(set) var days: [Int: Due]

    /// The due dates of `tasks` (of the list stored as `inList`, every list's when nil) in the
    /// month of `selected` (today's when nil), by local day as `dates` reads them.
    init(tasks: TaskList, dates: DueDisplay, inList: String? = nil, selected: Int? = nil) {
        today = DueDate.localDay(of: dates.now, in: dates.local)
        self.selected = selected ?? today
        month = CalendarDay.firstOfMonth(self.selected)
        days = Self.days(of: tasks, inList: inList, dates: dates, from: month, to: month + CalendarDay.daysInMonth(month) - 1)
    }

    /// Chooses `day`; another month is counted anew (one pass).
    mutating func select(_ day: Int, tasks: TaskList, dates: DueDisplay, inList: String? = nil) {
        selected = day
        let first = CalendarDay.firstOfMonth(day)
        guard first != month else { return }
        month = first
        days = Self.days(of: tasks, inList: inList, dates: dates, from: first, to: first + CalendarDay.daysInMonth(first) - 1)
    }

    /// One pass over the tasks (section by section: `tasks.all` would copy every one). A due
    /// date's local day is within a day of its wall-clock day, so only those near the month are
    /// read exactly, and each distinct due date once: a time in a named zone costs the zone's
    /// offset lookups, 20 ms for 10,000 of them.
    private static func days(of tasks: TaskList, inList: String?, dates: DueDisplay, from first: Int, to last: Int) -> [Int: Due] {
        var days: [Int: Due] = [:]
        var known: [DueDate: Int] = [:]
        for task in [tasks.priority, tasks.bonus].joined() {
            guard let due = task.due, inList.map({ $0 == task.list }) ?? true else { continue }
            let wall = due.wallSeconds
            let wallDay = Int(wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400)
            guard wallDay >= first - 1, wallDay <= last + 1 else { continue }
            let day = known[due] ?? dates.localDay(due)
            known[due] = day
            guard day >= first, day <= last else { continue }
            if task.completed {
                days[day, default: Due()].done += 1
                if days[day]!.doneCaptions.count < captionsKept { days[day]!.doneCaptions.append(CaptionRule.shown(task.caption)) }
            } else {
                days[day, default: Due()].open += 1
                if days[day]!.openCaptions.count < captionsKept { days[day]!.openCaptions.append(CaptionRule.shown(task.caption)) }
            }
        }
        return days
    }

    func due(on day: Int) -> Due? { days[day] }

    /// A day before today with open tasks due.
    func isOverdue(_ day: Int) -> Bool {
        day < today && (days[day]?.open ?? 0) > 0
    }
}
