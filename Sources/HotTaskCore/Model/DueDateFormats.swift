import FoundationEssentials
import Glibc

/// A due date as the other tools write it: Taskwarrior's `due`, todo.txt's `due:` tag and
/// iCalendar's DUE.
extension DueDate {
    /// The due date as the sync's base keeps it, the same wherever it is read: "" for none.
    static func baseKey(_ due: DueDate?) -> String {
        guard let due else { return "" }
        return due.text(local: utc) + (due.zoneName.map { " " + $0 } ?? "")
    }

    /// FNV-1a of its `baseKey`, without making the text: the import base fingerprints every due
    /// date an export or import records, and the text cost more than the rest of a task's entry.
    var baseKeyHash: UInt64 {
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let hash = withUnsafeMutableBytes(of: &text) { raw in
            let length = writeText(to: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), local: Self.utc)
            return FNV1a.hash(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[0..<length]))
        }
        guard var name = zoneName else { return hash }
        return name.withUTF8 { FNV1a.hash($0, seed: FNV1a.hash(CollectionOfOne(0x20), seed: hash)) }
    }

    /// The due date a non-empty `baseKey` stands for.
    init?(baseKey: String) {
        let parts = baseKey.split(separator: " ", maxSplits: 1)
        guard let text = parts.first else { return nil }
        self.init(text: String(text), zone: parts.count > 1 ? String(parts[1]) : nil)
    }

    // MARK: Taskwarrior

    /// Taskwarrior's `due` (an instant in UTC): local midnight is a whole day (what
    /// `task add … due:2026-12-01` stores), any other time that instant.
    static func fromTaskwarrior(_ instant: Date, local: ZoneInfo = .current) -> DueDate? {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
        let wall = seconds + Int64(local.secondsFromGMT(for: instant))
        let day = Int(wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400)
        if wall == Int64(day) * 86_400 { return .day(day) }
        return .time(wallSeconds: seconds, zone: .utc)
    }

    /// `YYYYMMDDTHHMMSSZ`: a day as its local midnight, a time as its instant.
    func taskwarriorText(local: ZoneInfo = .current) -> String {
        Timestamp.formatCompact(Date(timeIntervalSince1970: TimeInterval(instant(local: local))))
    }

    // MARK: todo.txt

    /// The `due:YYYY-MM-DD` tag (todo.txt has days only: a time's day where it falls here).
    func todoTxtTag(local: ZoneInfo = .current) -> String {
        "due:" + (isDay ? dayText : DueDate.day(localDay(in: local)).map(\.dayText) ?? dayText)
    }

    /// The day it falls on in `local` (days since 1970-01-01): a day or a floating time its own.
    func localDay(in local: ZoneInfo) -> Int {
        if isDay || zone == .floating { return days }
        return DueDate.localDay(of: Date(timeIntervalSince1970: TimeInterval(instant(local: local))), in: local)
    }

    // MARK: iCalendar

    /// DUE (or DTSTART) as RFC 5545 writes it: `VALUE=DATE:20261201`, `20261201T083000Z`,
    /// `TZID=Europe/Berlin:20261201T093000`, or floating `20261201T093000`. Nil when it is none.
    static func fromICalendar(_ property: ICalProperty) -> DueDate? {
        let value = property.value.trimmingBlanks()
        let bytes = Array(value.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count, bytes[start..<start + count].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(String(decoding: bytes[start..<start + count], as: UTF8.self))
        }
        guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2) else { return nil }
        if bytes.count == 8 { return .date(year: year, month: month, day: day) }
        guard bytes.count >= 15, bytes[8] == UInt8(ascii: "T"), let hour = number(9, 2), let minute = number(11, 2),
            let second = number(13, 2)
        else { return nil }
        if bytes.count == 16, bytes[15] == UInt8(ascii: "Z") {
            return .time(year: year, month: month, day: day, hour: hour, minute: minute, second: second, zone: .utc)
        }
        guard bytes.count == 15 else { return nil }
        let zone = parameter("TZID", in: property.parameters).map { Zone.named($0) } ?? .floating
        return .time(year: year, month: month, day: day, hour: hour, minute: minute, second: second, zone: zone)
    }

    /// The DUE property for this date (parameters and value).
    var iCalendarProperty: ICalProperty {
        let (year, month, day) = civilDay
        let date = year.zeroPadded(4) + month.zeroPadded(2) + day.zeroPadded(2)
        guard let zone else { return ICalProperty(name: "DUE", parameters: ";VALUE=DATE", value: date) }
        let (hour, minute, second) = timeOfDay
        let time = date + "T" + hour.zeroPadded(2) + minute.zeroPadded(2) + second.zeroPadded(2)
        switch zone {
        case .utc: return ICalProperty(name: "DUE", value: time + "Z")
        case .floating: return ICalProperty(name: "DUE", value: time)
        case .named(let name): return ICalProperty(name: "DUE", parameters: ";TZID=" + Self.parameterValue(name), value: time)
        }
    }

    /// A parameter's value from `;NAME=value;…` (quotes taken off).
    static func parameter(_ name: String, in parameters: String) -> String? {
        var inQuotes = false
        var parts: [String] = []
        var current = ""
        for character in parameters {
            if character == "\"" { inQuotes.toggle() }
            if character == ";" && !inQuotes {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        for part in parts {
            guard let equals = part.firstIndex(of: "="), part[..<equals].uppercased() == name else { continue }
            var value = String(part[part.index(after: equals)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// A parameter value, quoted when it holds `;`, `:` or `,` (RFC 5545 §3.2); a quote
    /// itself cannot be written and is left out.
    static func parameterValue(_ text: String) -> String {
        let clean = text.filter { $0 != "\"" }
        return clean.contains(where: { $0 == ";" || $0 == ":" || $0 == "," }) ? "\"" + clean + "\"" : clean
    }
}
