import FoundationEssentials
import Glibc
import HotTaskCore

/// When something happened, in the words a person would use: "just now", "5 minutes ago",
/// "today", "yesterday", "3 days ago", "2 weeks ago", "on 12 Mar", "on 12 Mar 2025". Days are
/// the local time zone's, so "yesterday" starts at midnight.
enum RelativeTime {
    static func words(for date: Date, now: Date, zone: ZoneInfo) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 && seconds > -60 { return "just now" }
        if seconds > 0 && seconds < 3600 { return count(Int(seconds / 60), "minute") + " ago" }
        let days = DueDate.localDay(of: now, in: zone) - DueDate.localDay(of: date, in: zone)
        switch days {
        case 0: return "today"
        case 1: return "yesterday"
        case 2..<7: return "\(days) days ago"
        case 7..<35: return count(days / 7, "week") + " ago"
        default: return "on " + dayAndMonth(date, now: now, zone: zone)
        }
    }

    private static func count(_ number: Int, _ unit: String) -> String {
        number == 1 ? "1 \(unit)" : "\(number) \(unit)s"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "12 Mar", with the year when it is not this year's (or is in the future).
    private static func dayAndMonth(_ date: Date, now: Date, zone: ZoneInfo) -> String {
        let (year, month, day) = Timestamp.civilDate(fromDays: DueDate.localDay(of: date, in: zone))
        let text = "\(day) \(months[month - 1])"
        let sameYear = year == Timestamp.civilDate(fromDays: DueDate.localDay(of: now, in: zone)).0 && date <= now
        return sameYear ? text : "\(text) \(year)"
    }
}
