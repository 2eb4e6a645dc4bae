import Foundation

/// When something happened, in the words a person would use: "just now", "5 minutes ago",
/// "today", "yesterday", "3 days ago", "2 weeks ago", "on 12 Mar", "on 12 Mar 2025". Days are
/// the calendar's (the local time zone's), so "yesterday" starts at midnight.
enum RelativeTime {
    static func words(for date: Date, now: Date, calendar: Calendar) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 && seconds > -60 { return "just now" }
        if seconds > 0 && seconds < 3600 { return count(Int(seconds / 60), "minute") + " ago" }
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: date), to: calendar.startOfDay(for: now)).day ?? 0
        switch days {
        case 0: return "today"
        case 1: return "yesterday"
        case 2..<7: return "\(days) days ago"
        case 7..<35: return count(days / 7, "week") + " ago"
        default: return "on " + dayAndMonth(date, now: now, calendar: calendar)
        }
    }

    private static func count(_ number: Int, _ unit: String) -> String {
        number == 1 ? "1 \(unit)" : "\(number) \(unit)s"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "12 Mar", with the year when it is not this year's (or is in the future).
    private static func dayAndMonth(_ date: Date, now: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let month = months[min(max((parts.month ?? 1) - 1, 0), 11)]
        let text = "\(parts.day ?? 1) \(month)"
        let sameYear = parts.year == calendar.component(.year, from: now) && date <= now
        return sameYear ? text : "\(text) \(parts.year ?? 0)"
    }
}
