import Foundation

/// What a person types for a due date (`--due WHEN`, the UI's due prompt), read as of `now`
/// in the zone `local`.
///
/// The forms: `YYYY-MM-DD`; `YYYY-MM-DDTHH:MM` (a time in the local zone, kept with its name);
/// `today`; `tomorrow`; a weekday `mon`…`sun` (the next such day, never today); `+Nd`; `+Nw`;
/// and `none` to clear. Words are read in any case.
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
    public static let forms = "YYYY-MM-DD, YYYY-MM-DDTHH:MM (local time), today, tomorrow, mon–sun, +Nd, +Nw, or none"

    private static let weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    public static func parse(_ text: String, now: Date, local: TimeZone) -> Result<Request, Refusal> {
        let word = text.lowercased()
        let today = DueDate.localDay(of: now, in: local)
        func day(_ days: Int) -> Result<Request, Refusal> {
            guard let date = DueDate.day(days) else { return .failure(Refusal(value: text, reason: "past the year 9999")) }
            return .success(.set(date))
        }
        switch word {
        case "none": return .success(.clear)
        case "today": return day(today)
        case "tomorrow": return day(today + 1)
        default: break
        }
        if let weekday = weekdays.firstIndex(of: word) {
            // 1970-01-01 was a Thursday (4).
            let todayWeekday = ((today % 7) + 7 + 4) % 7
            let ahead = (weekday - todayWeekday + 7) % 7
            return day(today + (ahead == 0 ? 7 : ahead))
        }
        let bytes = Array(word.utf8)
        if bytes.count >= 3, bytes.count <= 7, bytes.first == UInt8(ascii: "+"), let unit = bytes.last,
            unit == UInt8(ascii: "d") || unit == UInt8(ascii: "w"),
            bytes[1..<(bytes.count - 1)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let count = Int(String(decoding: bytes[1..<(bytes.count - 1)], as: UTF8.self))
        {
            return day(today + count * (unit == UInt8(ascii: "w") ? 7 : 1))
        }
        return parseAbsolute(text, local: local)
    }

    /// `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM`.
    private static func parseAbsolute(_ text: String, local: TimeZone) -> Result<Request, Refusal> {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count, bytes[start..<start + count].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(String(decoding: bytes[start..<start + count], as: UTF8.self))
        }
        let refused = Result<Request, Refusal>.failure(Refusal(value: text, reason: nil))
        guard bytes.count == 10 || bytes.count == 16, let year = number(0, 4), bytes[4] == UInt8(ascii: "-"),
            let month = number(5, 2), bytes[7] == UInt8(ascii: "-"), let day = number(8, 2)
        else { return refused }
        guard let date = DueDate.date(year: year, month: month, day: day) else {
            return .failure(Refusal(value: text, reason: "there is no such day"))
        }
        if bytes.count == 10 { return .success(.set(date)) }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"),
            let minute = number(14, 2)
        else { return refused }
        guard hour < 24, minute < 60 else { return .failure(Refusal(value: text, reason: "there is no such time")) }
        let wall = Int64(date.days) * 86_400 + Int64(hour * 3600 + minute * 60)
        guard DueDate.exists(wall: wall, in: local) else {
            return .failure(Refusal(value: text, reason: "the clocks skip that time in \(local.identifier)"))
        }
        guard let time = DueDate.time(wallSeconds: wall, zone: zone(of: local)) else { return refused }
        return .success(.set(time))
    }

    /// The zone a local time is kept with: UTC as UTC, any other by its name.
    static func zone(of local: TimeZone) -> DueDate.Zone {
        let utcNames: Set<String> = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Etc/Zulu", "Universal", "Zulu", "Z"]
        return utcNames.contains(local.identifier) ? .utc : .named(local.identifier)
    }
}

extension DueDate {
    /// The day (days since 1970-01-01) that `instant` falls on in `zone`.
    static func localDay(of instant: Date, in zone: TimeZone) -> Int {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(zone.secondsFromGMT(for: instant))
        return Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    }
}

extension DueInput.Request {
    /// The due date it sets; nil when it clears.
    var date: DueDate? {
        if case .set(let date) = self { return date }
        return nil
    }
}
