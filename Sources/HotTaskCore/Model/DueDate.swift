import FoundationEssentials
import Glibc
import Synchronization

/// When a task is due: a whole day, or a time of day with the zone it was given in.
///
/// A time is kept as the wall-clock time in its zone (as iCalendar's DTSTART;TZID=… is), not
/// as an instant: a zone name HotTask does not know (an Outlook one, a phone's own) then goes
/// back out exactly as it came in, and only comparing needs the zone's rules.
///
/// Packed into eight bytes, because every task carries one: the top 16 bits say which form
/// (a day, UTC, floating, or a named zone by its number in `DueZoneNames`), the low 48 the
/// value (days since 1970-01-01 for a day, seconds for a time).
public struct DueDate: Hashable, Sendable {
    /// The zone of a time of day.
    public enum Zone: Hashable, Sendable {
        /// An instant (`…Z`).
        case utc
        /// A wall-clock time wherever the reader is (iCalendar's floating time).
        case floating
        /// A wall-clock time in the zone of this name (an IANA id like "Europe/Berlin", or any
        /// TZID a calendar gave).
        case named(String)
    }

    let bits: UInt64

    private static let valueMask: UInt64 = 0xFFFF_FFFF_FFFF
    private static let dayKind: UInt64 = 0
    private static let utcKind: UInt64 = 1
    private static let floatingKind: UInt64 = 2
    static let firstNamedKind: UInt64 = 3
    /// Never a kind: what `TaskItem` stores for "no due date".
    static let noneBits = UInt64.max

    private init(kind: UInt64, value: Int64) {
        bits = kind << 48 | (UInt64(bitPattern: value) & Self.valueMask)
    }

    init?(bits: UInt64) {
        guard bits != Self.noneBits else { return nil }
        self.bits = bits
    }

    private var kind: UInt64 { bits >> 48 }
    /// The low 48 bits, sign-extended.
    private var value: Int64 { Int64(bitPattern: bits << 16) >> 16 }

    /// Days since 1970-01-01 for the earliest and latest day a due date may be (0000-01-01 and
    /// 9999-12-31): what can be written in four-digit years and read back.
    static let earliestDay = Timestamp.daysFromCivil(year: 0, month: 1, day: 1)
    static let latestDay = Timestamp.daysFromCivil(year: 9999, month: 12, day: 31)

    /// A whole day, by its number of days since 1970-01-01; nil outside years 0000–9999.
    public static func day(_ days: Int) -> DueDate? {
        guard days >= earliestDay, days <= latestDay else { return nil }
        return DueDate(kind: dayKind, value: Int64(days))
    }

    /// A whole day; nil when there is no such day (2026-02-29) or the year is past 9999.
    static func date(year: Int, month: Int, day: Int) -> DueDate? {
        guard (0...9999).contains(year), (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return Self.day(Timestamp.daysFromCivil(year: year, month: month, day: day))
    }

    /// A time of day: `wallSeconds` counts seconds since 1970-01-01T00:00 as the clocks of the
    /// zone show them (for `.utc`, an instant). Nil outside years 0000–9999.
    public static func time(wallSeconds: Int64, zone: Zone) -> DueDate? {
        guard wallSeconds >= Int64(earliestDay) * 86_400, wallSeconds < Int64(latestDay + 1) * 86_400 else { return nil }
        switch zone {
        case .utc: return DueDate(kind: utcKind, value: wallSeconds)
        case .floating: return DueDate(kind: floatingKind, value: wallSeconds)
        case .named(let name):
            // Past 65,000 names in one process, a time keeps its clock reading and loses its zone.
            guard let code = DueZoneNames.shared.code(for: name) else { return DueDate(kind: floatingKind, value: wallSeconds) }
            return DueDate(kind: firstNamedKind + UInt64(code), value: wallSeconds)
        }
    }

    /// A time of day from its parts; nil when there is no such date or time.
    static func time(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0, zone: Zone) -> DueDate? {
        guard let date = date(year: year, month: month, day: day), hour >= 0, hour < 24, minute >= 0, minute < 60,
            second >= 0, second < 61
        else { return nil }
        return time(wallSeconds: Int64(date.days) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)), zone: zone)
    }

    /// True for a whole day, false for a time of day.
    public var isDay: Bool { kind == Self.dayKind }

    /// Writes `text(local:)` at `out` (room for 25 bytes), with no String made (the Strings it
    /// joins were an eighth of encoding a snapshot, and a quarter of recording an import's base
    /// where a quarter of the due dates had a named zone); how many bytes. `local` counts only
    /// for a time in a named zone HotTask does not know (its offset is then `local`'s).
    func writeText(to out: UnsafeMutablePointer<UInt8>, local: @autoclosure () -> ZoneInfo) -> Int {
        let length = writeWallText(to: out)
        guard kind >= Self.firstNamedKind else { return length }
        let offset = self.offset(local: local())
        let magnitude = abs(offset) / 60
        out[19] = offset < 0 ? 0x2D : 0x2B
        Self.put(magnitude / 60, 2, at: out + 20)
        out[22] = 0x3A
        Self.put(magnitude % 60, 2, at: out + 23)
        return 25
    }

    /// Writes the date, and a time's wall clock after a `T`, at `out`, then a UTC time's `Z`.
    private func writeWallText(to out: UnsafeMutablePointer<UInt8>) -> Int {
        let (year, month, day) = civilDay  // years 0000-9999 only (`date`, `time`)
        Self.put(year, 4, at: out)
        out[4] = 0x2D
        Self.put(month, 2, at: out + 5)
        out[7] = 0x2D
        Self.put(day, 2, at: out + 8)
        guard kind != Self.dayKind else { return 10 }
        let (hour, minute, second) = timeOfDay
        out[10] = 0x54
        Self.put(hour, 2, at: out + 11)
        out[13] = 0x3A
        Self.put(minute, 2, at: out + 14)
        out[16] = 0x3A
        Self.put(second, 2, at: out + 17)
        guard kind == Self.utcKind else { return 19 }
        out[19] = 0x5A
        return 20
    }

    /// `value`'s last `width` digits, zero-padded, at `out`.
    private static func put(_ value: Int, _ width: Int, at out: UnsafeMutablePointer<UInt8>) {
        var value = value
        for offset in (0..<width).reversed() {
            out[offset] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        }
    }

    /// The day it falls on as its own zone's clocks show it (days since 1970-01-01).
    var days: Int {
        isDay ? Int(value) : DateWords.day(ofSeconds: value)
    }

    /// For a time, seconds since 1970-01-01T00:00 as its zone's clocks show them; for a day,
    /// its first second.
    public var wallSeconds: Int64 { isDay ? value * 86_400 : value }

    /// The zone of a time of day; nil for a whole day.
    public var zone: Zone? {
        switch kind {
        case Self.dayKind: nil
        case Self.utcKind: .utc
        case Self.floatingKind: .floating
        default: .named(DueZoneNames.shared.name(Int(kind - Self.firstNamedKind)))
        }
    }

    /// UTC as a ZoneInfo (for a reading that must not depend on where it runs).
    static let utc = ZoneInfo.utc

    /// The (year, month, day) of `days`.
    var civilDay: (year: Int, month: Int, day: Int) {
        let (year, month, day) = Timestamp.civilDate(fromDays: days)
        return (year, month, day)
    }

    /// Hours, minutes and seconds of a time as its zone's clocks show them (0s for a day).
    public var timeOfDay: (hour: Int, minute: Int, second: Int) {
        let seconds = Int(wallSeconds - Int64(days) * 86_400)
        return (seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// The instant (seconds since 1970 UTC) a time of day stands for, floating times and unknown
    /// zones read in `local`; a day stands for its first second in `local`.
    func instant(local: ZoneInfo) -> Int64 {
        switch kind {
        case Self.utcKind: value
        case Self.dayKind, Self.floatingKind: Self.instant(wall: wallSeconds, in: local)
        default: Self.instant(wall: value, in: DueZoneNames.shared.timeZone(Int(kind - Self.firstNamedKind)) ?? local)
        }
    }

    /// The offset from UTC of a time in its zone (floating and unknown zones in `local`).
    func offset(local: ZoneInfo) -> Int {
        kind == Self.utcKind ? 0 : Int(wallSeconds - instant(local: local))
    }

    /// The instant a wall-clock time stands for in `zone`, as RFC 5545 reads one: a time that
    /// happens twice (clocks going back) is the first; one that never happens (clocks going
    /// forward) is read with the offset from before the change (02:30 is 03:30 summer time).
    static func instant(wall: Int64, in zone: ZoneInfo) -> Int64 {
        func offset(at instant: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
        }
        let before = offset(at: wall - 86_400)
        let after = offset(at: wall + 86_400)
        if before == after { return wall - before }
        let candidates = [wall - before, wall - after].filter { offset(at: $0) == wall - $0 }
        return candidates.min() ?? wall - before
    }

    /// Whether a wall-clock time happens at all in `zone` (false inside a spring-forward gap).
    static func exists(wall: Int64, in zone: ZoneInfo) -> Bool {
        let instant = instant(wall: wall, in: zone)
        return instant + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))) == wall
    }
}

/// The zone names due times carry, numbered in the order first seen: a due date then fits in
/// eight bytes and compares as a number. Each name's `ZoneInfo` is looked up once.
final class DueZoneNames: Sendable {
    static let shared = DueZoneNames()

    private struct Table {
        var names: [String] = []
        var zones: [ZoneInfo?] = []
        var codes: [String: Int] = [:]
    }

    private let table = Mutex(Table())
    /// Codes fit in the 16 bits left after the three fixed kinds and the "none" value.
    private static let capacity = Int(0xFFFF - DueDate.firstNamedKind)

    func code(for name: String) -> Int? {
        table.withLock { table in
            if let code = table.codes[name] { return code }
            // A name from a file or a server, cleaned as a caption is (no C0, C1 or bidi
            // controls, no escape sequence): it reaches terminals and scripts (`--list --json`).
            let clean = Self.cleaned(name)
            if let code = table.codes[clean] {
                table.codes[name] = code
                return code
            }
            guard table.names.count < Self.capacity else { return nil }
            table.names.append(clean)
            table.zones.append(ZoneInfo(identifier: clean))
            table.codes[clean] = table.names.count - 1
            table.codes[name] = table.names.count - 1
            return table.names.count - 1
        }
    }

    /// `name` without escape sequences, controls (C0, DEL, C1, line and paragraph separators)
    /// or bidi controls, spaces trimmed; "unnamed" when nothing is left (never empty: an empty
    /// `dueZone` is no date).
    static func cleaned(_ name: String) -> String {
        guard !name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return name }
        let text = EscapeSequences.mayHoldOne(name.unicodeScalars) ? EscapeSequences.removed(from: name.unicodeScalars) : name
        // Dropped, not made spaces as in a caption: `Europe/<NEL>Berlin` is Europe/Berlin.
        let controls = text.unicodeScalars.filter { !($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}") }
        let clean = CaptionRule.cleanFragment(String(String.UnicodeScalarView(controls))).trimmingBlanks()
        return clean.isEmpty ? "unnamed" : clean
    }

    func name(_ code: Int) -> String {
        table.withLock { code < $0.names.count ? $0.names[code] : "UTC" }
    }

    func timeZone(_ code: Int) -> ZoneInfo? {
        table.withLock { code < $0.zones.count ? $0.zones[code] : nil }
    }
}
