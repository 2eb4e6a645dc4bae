import FoundationEssentials
import Glibc

/// How a due date is shown (`--list`, the UI's rows): relative when near, else the date in the
/// chosen format; a time adds its local clock reading.
public struct DueDisplay: Sendable {
    /// How a date that is not near is written (the config's `date_format`).
    public enum Format: String, CaseIterable, Sendable {
        /// 2026-12-01
        case iso
        /// 01.12.2026
        case dmy
        /// 12/01/2026
        case mdy
    }

    /// Where a due date stands as of now.
    public enum Standing: Equatable, Sendable {
        /// Its day has passed (a date), or its time has (a time of day).
        case overdue
        /// Due later today.
        case today
        case later
    }

    public let now: Date
    public let local: ZoneInfo
    let format: Format
    /// Today, in `local` (days since 1970-01-01).
    let today: Int
    private let nowSeconds: Int64

    public init(now: Date, local: ZoneInfo, format: Format = .iso) {
        self.now = now
        self.local = local
        self.format = format
        today = DueDate.localDay(of: now, in: local)
        nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
    }

    /// The day a due date falls on here: a date's own day; a time's day in `local`.
    public func localDay(_ due: DueDate) -> Int {
        due.localDay(in: local)
    }

    /// "today", "tomorrow", a weekday within the week ahead ("Fri"), else the date; a time of
    /// day follows as the local clock shows it ("tomorrow 09:30").
    public func text(_ due: DueDate) -> String {
        let day = localDay(due)
        let dayText: String
        switch day - today {
        case 0: dayText = "today"
        case 1: dayText = "tomorrow"
        case 2...6: dayText = DateWords.weekdayNames[DateWords.weekday(ofDay: day)]
        default: dayText = dateText(day)
        }
        guard !due.isDay else { return dayText }
        let wall = due.zone == .floating ? due.wallSeconds : due.instant(local: local) + Int64(due.offsetHere(local: local))
        let minutes = Int((wall - Int64(day) * 86_400) / 60)
        return dayText + " " + (minutes / 60).zeroPadded(2) + ":" + (minutes % 60).zeroPadded(2)
    }

    /// A repeating task's next occurrence as completing it says it: "Sun 6 Dec", with the year
    /// when it is not this one ("Mon 4 Jan 2027") and a time of day after ("Fri 4 Dec 09:30").
    public func occurrenceText(_ due: DueDate) -> String {
        let day = localDay(due)
        let (year, month, date) = Timestamp.civilDate(fromDays: day)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var text = DateWords.weekdayNames[DateWords.weekday(ofDay: day)] + " \(date) " + months[month - 1]
        if year != Timestamp.civilDate(fromDays: today).0 { text += " \(year)" }
        guard !due.isDay else { return text }
        let relative = self.text(due)
        return text + " " + String(relative.suffix(5))
    }

    /// A day in `format`.
    public func dateText(_ day: Int) -> String {
        let (year, month, date) = Timestamp.civilDate(fromDays: day)
        let (y, m, d) = (year.zeroPadded(4), month.zeroPadded(2), date.zeroPadded(2))
        switch format {
        case .iso: return y + "-" + m + "-" + d
        case .dmy: return d + "." + m + "." + y
        case .mdy: return m + "/" + d + "/" + y
        }
    }

    public func standing(_ due: DueDate) -> Standing {
        if due.isDay {
            return due.days < today ? .overdue : due.days == today ? .today : .later
        }
        if due.instant(local: local) < nowSeconds { return .overdue }
        return localDay(due) == today ? .today : .later
    }

    /// The next moment after `now` at which `due` reads differently: the start of the next day
    /// here (today becomes tomorrow's yesterday), or, for a time still ahead, the second after it
    /// (it is overdue from then). The run loop sleeps until then rather than looking each minute.
    public func nextChange(of due: DueDate) -> Date {
        let midnight = DueDate.instant(wall: Int64(today + 1) * 86_400, in: local)
        var next = midnight
        if !due.isDay {
            let passes = due.instant(local: local) + 1
            if passes > nowSeconds { next = min(next, passes) }
        }
        return Date(timeIntervalSince1970: TimeInterval(next))
    }

    public func isOverdue(_ due: DueDate?) -> Bool {
        guard let due else { return false }
        return standing(due) == .overdue
    }
}

extension DueDate {
    /// The offset from UTC in `local` at the instant this stands for.
    func offsetHere(local: ZoneInfo) -> Int {
        local.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant(local: local))))
    }

    /// A key that orders due dates by when they fall, for a reader in `local`: seconds as the
    /// local clock reads them, a date at the end of its day (after the times of that day: a
    /// time that went overdue this morning comes before what is due today, all day).
    /// A day or a floating time needs no zone rules at all (most due dates: sorting 100,000
    /// costs no more than reading them).
    public func sortKey(local: ZoneInfo) -> Int64 {
        if isDay { return wallSeconds + 86_399 }
        if zone == .floating { return wallSeconds }
        let instant = instant(local: local)
        return instant + Int64(local.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
    }
}
