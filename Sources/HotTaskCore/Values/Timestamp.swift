import FoundationEssentials
import Glibc

/// Dates as the store writes them: ISO 8601 in UTC to the second (`2026-11-21T10:00:00Z`).
///
/// Hand-rolled instead of `ISO8601DateFormatter`: it is called twice per task on every load
/// and save, and it also reads Taskwarrior's compact form (`20261121T100000Z`).
public enum Timestamp {
    /// Now, to the whole second: what is stored is exactly what stays in memory.
    public static func now() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the formatted date's 20 ASCII bytes (the store writer's fast path). They are
    /// made in place and appended at once: appended one at a time, each checked the array's
    /// room, a twentieth of an export.
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        var text: (UInt64, UInt64, UInt32) = (0, 0, 0)
        let written = withUnsafeMutableBytes(of: &text) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let length = write(date, to: out)
            bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: length))
            return length > 0
        }
        guard !written else { return }
        // A year past 9999 keeps all its digits.
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        bytes.append(contentsOf: String(civilDate(fromDays: days).0).utf8)
        var rest: [UInt8] = []
        withUnsafeMutableBytes(of: &text) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            _ = write(date, to: out, anyYear: true)
            rest.append(contentsOf: UnsafeBufferPointer(start: out + 4, count: 16))
        }
        bytes.append(contentsOf: rest)
    }

    /// Writes the formatted date's 20 ASCII bytes at `out` (room for 20); 20. 0, writing
    /// nothing, for a year past 9999 (unless `anyYear`: then its last four digits are written).
    @inline(__always)
    static func write(_ date: Date, to out: UnsafeMutablePointer<UInt8>, anyYear: Bool = false) -> Int {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        guard year <= 9999 || anyYear else { return 0 }
        func put(_ value: Int, _ count: Int, at start: Int) {
            var value = value
            for offset in (0..<count).reversed() {
                out[start + offset] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            }
        }
        put(max(0, year), 4, at: 0)
        out[4] = 0x2D
        put(month, 2, at: 5)
        out[7] = 0x2D
        put(day, 2, at: 8)
        out[10] = 0x54
        put(secondOfDay / 3600, 2, at: 11)
        out[13] = 0x3A
        put(secondOfDay / 60 % 60, 2, at: 14)
        out[16] = 0x3A
        put(secondOfDay % 60, 2, at: 17)
        out[19] = 0x5A
        return 20
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`; fractions of a second are dropped.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// `parse` on UTF-8 bytes, without making a String (the store reader's fast path).
    static func parse(utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = DigitReader(utf8)
        guard let year = reader.number(4), reader.skip("-"), let month = reader.number(2), reader.skip("-"),
            let day = reader.number(2), reader.skip("T") || reader.skip("t"), let hour = reader.number(2),
            reader.skip(":"), let minute = reader.number(2), reader.skip(":"), let second = reader.number(2)
        else { return nil }
        if reader.skip(".") { guard reader.skipDigits() else { return nil } }
        var offset = 0
        if reader.skip("Z") || reader.skip("z") {
            offset = 0
        } else if let sign = reader.sign(), let offsetHours = reader.number(2), reader.skip(":"),
            let offsetMinutes = reader.number(2), offsetHours < 24, offsetMinutes < 60
        {
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd else { return nil }
        return date(year, month, day, hour, minute, second, offset: offset)
    }

    /// `YYYYMMDDTHHMMSSZ`, Taskwarrior's form (and a file-name stamp with nothing a shell minds).
    public static func formatCompact(_ date: Date) -> String {
        String(format(date).filter { $0 != "-" && $0 != ":" })
    }

    /// Reads Taskwarrior's `YYYYMMDDTHHMMSSZ`.
    static func parseTaskwarrior(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parseTaskwarrior(utf8: $0) }
    }

    /// `parseTaskwarrior` on UTF-8 bytes (the fast import path: no String is made).
    static func parseTaskwarrior(utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = DigitReader(utf8)
        guard let year = reader.number(4), let month = reader.number(2), let day = reader.number(2),
            reader.skip("T"), let hour = reader.number(2), let minute = reader.number(2),
            let second = reader.number(2), reader.skip("Z"), reader.atEnd
        else { return nil }
        return date(year, month, day, hour, minute, second, offset: 0)
    }

    private static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, offset: Int)
        -> Date?
    {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        // Only years 0000–9999 in UTC can be written back in four digits and read again.
        guard seconds >= Self.earliest, seconds <= Self.latest else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    private static let earliest = daysFromCivil(year: 0, month: 1, day: 1) * 86_400
    private static let latest = daysFromCivil(year: 9999, month: 12, day: 31) * 86_400 + 86_399

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days, proleptic Gregorian calendar.
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func civilDate(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private struct DigitReader {
        private let utf8: UnsafeBufferPointer<UInt8>
        private var index = 0

        init(_ utf8: UnsafeBufferPointer<UInt8>) { self.utf8 = utf8 }

        var atEnd: Bool { index == utf8.count }

        mutating func number(_ digits: Int) -> Int? {
            guard index + digits <= utf8.count else { return nil }
            var value = 0
            for byte in utf8[index..<index + digits] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < utf8.count, utf8[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        mutating func skipDigits() -> Bool {
            let start = index
            while index < utf8.count, utf8[index] >= 0x30, utf8[index] <= 0x39 { index += 1 }
            return index > start
        }

        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
