import FoundationEssentials
import Glibc

/// The English words dates and repeat rules are said in (`DueInput`, `RepeatInput`): the same
/// whatever the locale, so that a command in a script means the same day everywhere.
public enum DateWords {
    /// The weekdays' short names, 0 Sunday … 6 Saturday: every list, message, chart and
    /// calendar says a weekday with these.
    public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    private static let lowercasedWeekdayNames = weekdayNames.map { $0.lowercased() }

    /// Weekdays as 0 Sunday … 6 Saturday, by their three-letter and full names.
    static func weekday(_ word: Substring) -> Int? {
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        if let index = lowercasedWeekdayNames.firstIndex(of: String(word)) { return index }
        if let index = full.firstIndex(of: String(word)) { return index }
        // tues, thur, thurs, weds: shortenings people write.
        let more = ["tues": 2, "weds": 3, "thur": 4, "thurs": 4]
        return more[String(word)]
    }

    /// Months as 1…12 by their three-letter and full names (and `sept`).
    static func month(_ word: Substring) -> Int? {
        let full = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        ]
        if let index = full.firstIndex(of: String(word)) { return index + 1 }
        if word == "sept" { return 9 }
        if word.count == 3, let index = full.firstIndex(where: { $0.hasPrefix(word) }) { return index + 1 }
        return nil
    }

    /// A calendar unit: `day`/`days`, `week`/`weeks`, `month`/`months`, `year`/`years`.
    enum Unit: String, Sendable {
        case day, week, month, year

        init?(_ word: Substring) {
            let singular = word.hasSuffix("s") ? word.dropLast() : word
            guard let unit = Unit(rawValue: String(singular)) else { return nil }
            self = unit
        }
    }

    /// A count of 1–4 digits (so that no count runs past the year 9999 unchecked).
    static func count(_ word: Substring) -> Int? {
        guard (1...4).contains(word.utf8.count), word.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(word)
    }

    /// The weekday of a day (days since 1970-01-01, a Thursday): 0 Sunday … 6 Saturday.
    public static func weekday(ofDay day: Int) -> Int { ((day % 7) + 7 + 4) % 7 }

    /// How many days a day is after the Monday of its week: 0 Monday … 6 Sunday.
    public static func daysSinceMonday(ofDay day: Int) -> Int { (weekday(ofDay: day) + 6) % 7 }

    /// The day (days since 1970-01-01) that a count of seconds since its midnight falls on,
    /// before 1970 too.
    static func day(ofSeconds seconds: Int64) -> Int {
        Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    }
}
