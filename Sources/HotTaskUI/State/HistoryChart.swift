import FoundationEssentials
import Glibc
import HotTaskCore

/// The history view's numbers, made once when it opens (and again when records arrive while it
/// is open): the lasting history's counts by local day for the last year, and the open tasks
/// now. Drawing then only looks days up, so a frame costs the screen's size, not the store's.
struct HistoryChart: Equatable, Sendable {
    /// Days kept: a heat map of 53 whole weeks, Monday to Sunday, ending with this one.
    static let span = 54 * 7

    /// Today, local (days since 1970-01-01).
    let today: Int
    /// Added and completed per day, `first` to `today`.
    private let added: [Int]
    private let completed: [Int]
    /// Of those, tasks closed (not a repeating task's occurrence, after which it stays open).
    private let closed: [Int]
    /// Open tasks now (from the counts the list keeps).
    let openNow: Int
    /// The chart shown when the screen is too small for all three (Tab shows the next).
    var page = HistoryPage.daily

    /// The first day kept.
    var first: Int { today - Self.span + 1 }

    /// `activity`'s days in `zone` (one pass over its quarter-hours) as of `now`.
    init(activity: ActivityHistory, open: Int, now: Date, zone: ZoneInfo) {
        today = DueDate.localDay(of: now, in: zone)
        openNow = open
        var added = [Int](repeating: 0, count: Self.span)
        var completed = [Int](repeating: 0, count: Self.span)
        var closed = [Int](repeating: 0, count: Self.span)
        let first = today - Self.span + 1
        for (day, counts) in activity.days(in: zone) where day >= first && day <= today {
            added[day - first] = max(0, counts.added)
            completed[day - first] = max(0, counts.completed)
            closed[day - first] = max(0, counts.completed - counts.stepped)
        }
        self.added = added
        self.completed = completed
        self.closed = closed
    }

    /// Tasks completed on `day`; 0 outside the days kept.
    func completed(on day: Int) -> Int {
        day >= first && day <= today ? completed[day - first] : 0
    }

    func added(on day: Int) -> Int {
        day >= first && day <= today ? added[day - first] : 0
    }

    /// Completed from `from` to today.
    func completed(since from: Int) -> Int {
        (max(from, first)...today).reduce(0) { $0 + completed[$1 - first] }
    }

    /// Open tasks at the end of each of the last `count` days, oldest first: back from the open
    /// tasks now through each day's adds and completions, but a repeating task's occurrences,
    /// after which it stays open (a task deleted open is not in the history, so the line drifts
    /// by those; never below zero).
    func openAtEndOfDay(last count: Int) -> [Int] {
        var open = openNow
        var values: [Int] = []
        for day in stride(from: today, to: today - count, by: -1) {
            values.append(max(0, open))
            open = open - added(on: day) + (day >= first && day <= today ? closed[day - first] : 0)
        }
        return values.reversed()
    }
}

/// The history view's three charts, one at a time on a small screen.
enum HistoryPage: Int, CaseIterable, Equatable, Sendable {
    case daily, open, year

    var next: HistoryPage { HistoryPage(rawValue: (rawValue + 1) % Self.allCases.count)! }
    var previous: HistoryPage { HistoryPage(rawValue: (rawValue + Self.allCases.count - 1) % Self.allCases.count)! }
}

/// Days as the views write them.
enum CalendarDay {
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let longMonthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// Monday 0 … Sunday 6.
    static func weekday(_ day: Int) -> Int { DateWords.daysSinceMonday(ofDay: day) }

    /// (year, month 1–12, day of month 1–31).
    static func civil(_ day: Int) -> (year: Int, month: Int, date: Int) {
        let (year, month, date) = Timestamp.civilDate(fromDays: day)
        return (year, month, date)
    }

    /// The first day of `day`'s month, moved by `months`.
    static func firstOfMonth(_ day: Int, movedBy months: Int = 0) -> Int {
        let (year, month, _) = civil(day)
        let index = year * 12 + (month - 1) + months
        let (newYear, newMonth) = (index >= 0 ? index / 12 : (index - 11) / 12, ((index % 12) + 12) % 12 + 1)
        return Timestamp.daysFromCivil(year: newYear, month: newMonth, day: 1)
    }

    static func daysInMonth(_ day: Int) -> Int {
        let (year, month, _) = civil(day)
        return Timestamp.daysIn(month: month, year: year)
    }

    /// `day` moved by `months`, on the same day of the month or the month's last.
    static func moved(_ day: Int, months: Int) -> Int {
        let first = firstOfMonth(day, movedBy: months)
        return first + min(civil(day).date, daysInMonth(first)) - 1
    }

    /// "Dec 3".
    static func short(_ day: Int) -> String {
        let (_, month, date) = civil(day)
        return "\(monthNames[month - 1]) \(date)"
    }
}
