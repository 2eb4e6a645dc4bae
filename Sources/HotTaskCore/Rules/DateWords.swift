import Foundation

/// The English words dates and repeat rules are said in (`DueInput`, `RepeatInput`): the same
/// whatever the locale, so that a command in a script means the same day everywhere.
enum DateWords {
    /// Weekdays as 0 Sunday … 6 Saturday, by their three-letter and full names.
    static func weekday(_ word: Substring) -> Int? {
        let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        if let index = names.firstIndex(of: String(word)) { return index }
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
    static func weekday(ofDay day: Int) -> Int { ((day % 7) + 7 + 4) % 7 }
}
