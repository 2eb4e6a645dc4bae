import FoundationEssentials
import Glibc

/// What a person types for a due date (`--due WHEN`, the UI's due prompt), read as of `now`
/// in the zone `local`.
///
/// A day: `YYYY-MM-DD`; `today`; `tomorrow`; a weekday (`fri` or `friday`, also `next fri`:
/// the next such day, never today); `eow`, `eom`, `eoy` (the last day of this week, Monday to
/// Sunday, of this month, of this year); `in N days`, `in N weeks`, `Nd`, `Nw` (also `+Nd`,
/// `+Nw`); a month and day (`dec 1`, `1 dec`, `december 1`: this year's, or next year's once it
/// has passed; a year after it, `1 dec 2027`, names it). Any of them may be followed by a time
/// on the local clock, `HH:MM` or `H:MM` (`tomorrow 9:00`, `2026-12-01 14:00`, also
/// `2026-12-01T14:00`); a time alone is today's. `none` clears. The words are English whatever
/// the locale, in any case.
public enum DueInput {
    /// What an entry asks for.
    public enum Request: Equatable, Sendable {
        case set(DueDate)
        case clear
    }

    /// Why an entry was refused: the message quotes it and lists the forms.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        let value: String
        /// A reason beyond "not one of the forms" (a day that does not exist, a time the clocks skip).
        public let reason: String?

        public var description: String {
            "\(Self.quoted(value)) is not a due date\(reason.map { " (\($0))" } ?? ""); use \(DueInput.forms)"
        }

        static func quoted(_ text: String) -> String { "“" + text + "”" }
    }

    /// The forms, as messages and help list them.
    public static let forms =
        "YYYY-MM-DD, today, tomorrow, fri or friday, next fri, eow, eom, eoy, in N days, in N weeks, Nd, Nw, dec 1, 1 dec, any of them with a time (tomorrow 9:00), or none"

    public static func parse(_ text: String, now: Date, local: ZoneInfo) -> Result<Request, Refusal> {
        let lowered = text.lowercased()
        var words = lowered.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if words == ["none"] { return .success(.clear) }
        // YYYY-MM-DDTHH:MM is the day and the time.
        if words.count == 1, words[0].utf8.count == 16, Array(words[0].utf8)[10] == UInt8(ascii: "t") {
            words = [words[0].prefix(10), words[0].suffix(5)]
        }
        let refused = Result<Request, Refusal>.failure(Refusal(value: text, reason: nil))
        // A time of day last: "tomorrow 9:00", "2026-12-01 14:00", "9:30".
        var clock: (hour: Int, minute: Int)?
        if let last = words.last, last.contains(":") {
            guard let time = Self.clock(last) else {
                return .failure(Refusal(value: text, reason: Self.looksLikeClock(last) ? "there is no such time" : nil))
            }
            clock = time
            words.removeLast()
        }
        let today = DueDate.localDay(of: now, in: local)
        let day: Int
        switch Self.day(words, today: today) {
        case .day(let found): day = found
        case .today where clock != nil: day = today
        case .today, .unknown: return refused
        case .noSuchDay: return .failure(Refusal(value: text, reason: "there is no such day"))
        case .notWithinAYear(let next): return .failure(Refusal(value: text, reason: "there is none in the next 12 months; give the year: \(next)"))
        }
        guard let clock else {
            guard let date = DueDate.day(day) else { return .failure(Refusal(value: text, reason: "past the year 9999")) }
            return .success(.set(date))
        }
        return localTime(day: day, clock.hour, clock.minute, text: text, local: local)
    }

    /// What the words before a time name.
    private enum DayReading {
        case day(Int)
        /// No words: today, when a time follows.
        case today
        case noSuchDay
        /// A day without a year whose next one is more than a year away (29 feb): not guessed.
        case notWithinAYear(String)
        case unknown
    }

    private static func day(_ words: [Substring], today: Int) -> DayReading {
        switch words.count {
        case 0: return .today
        case 1: return oneWord(words[0], today: today)
        case 2:
            if words[0] == "next", let weekday = DateWords.weekday(words[1]) { return .day(next(weekday, after: today)) }
            return monthDay(words, today: today)
        case 3:
            if words[0] == "in", let count = DateWords.count(words[1]), let unit = DateWords.Unit(words[2]) {
                switch unit {
                case .day: return .day(today + count)
                case .week: return .day(today + count * 7)
                case .month, .year: return .unknown
                }
            }
            return monthDay(words, today: today)
        default: return .unknown
        }
    }

    private static func oneWord(_ word: Substring, today: Int) -> DayReading {
        switch word {
        case "today": return .day(today)
        case "tomorrow": return .day(today + 1)
        // Weeks run Monday to Sunday (ISO 8601): on a Sunday, eow is today.
        case "eow": return .day(today + (7 - DateWords.weekday(ofDay: today)) % 7)
        case "eom":
            let (year, month, _) = Timestamp.civilDate(fromDays: today)
            return .day(Timestamp.daysFromCivil(year: year, month: month, day: Timestamp.daysIn(month: month, year: year)))
        case "eoy": return .day(Timestamp.daysFromCivil(year: Timestamp.civilDate(fromDays: today).0, month: 12, day: 31))
        default: break
        }
        if let weekday = DateWords.weekday(word) { return .day(next(weekday, after: today)) }
        // Nd, Nw, +Nd, +Nw.
        var count = word
        if count.hasPrefix("+") { count = count.dropFirst() }
        if let unit = count.last, unit == "d" || unit == "w", count.count >= 2, count.count <= 6,
            count.dropLast().utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(count.dropLast())
        {
            return .day(today + number * (unit == "w" ? 7 : 1))
        }
        if let date = DueDate(text: String(word)), date.isDay { return .day(date.days) }
        return isoShaped(Array(word.utf8)) ? .noSuchDay : .unknown
    }

    /// `YYYY-MM-DD` in shape, whatever the numbers.
    private static func isoShaped(_ bytes: [UInt8]) -> Bool {
        bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || ($0.element >= 0x30 && $0.element <= 0x39) }
    }

    /// `dec 1`, `1 dec`, `december 1`, with a year after it or not.
    private static func monthDay(_ words: [Substring], today: Int) -> DayReading {
        let (month, dayOfMonth): (Int, Int)
        if let found = DateWords.month(words[0]), let number = DateWords.count(words[1]) {
            (month, dayOfMonth) = (found, number)
        } else if let number = DateWords.count(words[0]), let found = DateWords.month(words[1]) {
            (month, dayOfMonth) = (found, number)
        } else {
            return .unknown
        }
        let thisYear = Timestamp.civilDate(fromDays: today).0
        if words.count == 3 {
            guard words[2].utf8.count == 4, let year = DateWords.count(words[2]) else { return .unknown }
            return DueDate.date(year: year, month: month, day: dayOfMonth).map { .day($0.days) } ?? .noSuchDay
        }
        // This year's, or next year's once it has passed. 29 feb without a year when neither
        // has one is refused naming the next one (silently four years on was never meant).
        for year in thisYear...(thisYear + 8) {
            guard let date = DueDate.date(year: year, month: month, day: dayOfMonth) else { continue }
            guard date.days >= today else { continue }
            if date.days - today > 366 { return .notWithinAYear("\(words[0]) \(words[1]) \(year)") }
            return .day(date.days)
        }
        return .noSuchDay
    }

    /// The first `weekday` after `today` (never today).
    private static func next(_ weekday: Int, after today: Int) -> Int {
        let ahead = (weekday - DateWords.weekday(ofDay: today) + 7) % 7
        return today + (ahead == 0 ? 7 : ahead)
    }

    /// `H:MM` or `HH:MM`.
    private static func clock(_ word: Substring) -> (hour: Int, minute: Int)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            let hour = DateWords.count(parts[0]), let minute = DateWords.count(parts[1]), hour < 24, minute < 60
        else { return nil }
        return (hour, minute)
    }

    /// Digits, a colon, digits: a time, if not a real one.
    private static func looksLikeClock(_ word: Substring) -> Bool {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { DateWords.count($0) != nil }
    }

    /// A local clock reading on `day`, kept with the zone's name.
    private static func localTime(day: Int, _ hour: Int, _ minute: Int, text: String, local: ZoneInfo) -> Result<Request, Refusal> {
        let wall = Int64(day) * 86_400 + Int64(hour * 3600 + minute * 60)
        guard DueDate.day(day) != nil else { return .failure(Refusal(value: text, reason: "past the year 9999")) }
        guard DueDate.exists(wall: wall, in: local) else {
            return .failure(Refusal(value: text, reason: "the clocks skip that time in \(local.identifier)"))
        }
        guard let time = DueDate.time(wallSeconds: wall, zone: zone(of: local)) else { return .failure(Refusal(value: text, reason: nil)) }
        return .success(.set(time))
    }

    /// The zone a local time is kept with: UTC as UTC, any other by its name.
    static func zone(of local: ZoneInfo) -> DueDate.Zone {
        let utcNames: Set<String> = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Etc/Zulu", "Universal", "Zulu", "Z"]
        return utcNames.contains(local.identifier) ? .utc : .named(local.identifier)
    }
}

extension DueDate {
    /// The day (days since 1970-01-01) that `instant` falls on in `zone`.
    public static func localDay(of instant: Date, in zone: ZoneInfo) -> Int {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(zone.secondsFromGMT(for: instant))
        return DateWords.day(ofSeconds: seconds)
    }
}

extension DueInput.Request {
    /// The due date it sets; nil when it clears.
    var date: DueDate? {
        if case .set(let date) = self { return date }
        return nil
    }
}
