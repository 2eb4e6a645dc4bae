import FoundationEssentials
import Glibc

/// Due dates as text: the store's form and RFC 3339.
extension DueDate {
    /// The store's and scripts' form (`"due"`), RFC 3339: `2026-12-01` for a day;
    /// `2026-12-01T08:30:00Z` in UTC; `2026-12-01T09:30:00+01:00` in a named zone (its name is
    /// `zoneName`, beside it as `"dueZone"`; the offset is `local`'s when the zone is not one
    /// this system knows); a floating time without an offset, `2026-12-01T09:30:00`.
    func text(local: ZoneInfo = .current) -> String {
        switch zone {
        case nil: dayText
        case .utc?: dayText + "T" + timeText + "Z"
        case .floating?: dayText + "T" + timeText
        case .named?: dayText + "T" + timeText + Self.offsetText(offset(local: local))
        }
    }

    /// The name of a named zone (`"dueZone"`), nil for the others.
    var zoneName: String? {
        if case .named(let name)? = zone { return name }
        return nil
    }

    /// `2026-12-01`.
    public var dayText: String {
        let (year, month, day) = civilDay
        return year.zeroPadded(4) + "-" + month.zeroPadded(2) + "-" + day.zeroPadded(2)
    }

    /// `09:30:00`.
    var timeText: String {
        let (hour, minute, second) = timeOfDay
        return hour.zeroPadded(2) + ":" + minute.zeroPadded(2) + ":" + second.zeroPadded(2)
    }

    static func offsetText(_ seconds: Int) -> String {
        let magnitude = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + (magnitude / 60).zeroPadded(2) + ":" + (magnitude % 60).zeroPadded(2)
    }

    /// Reads `text(local:)` and `zoneName` back. With a zone name, the clock reading before the
    /// offset is what counts; without one, a time with an offset is kept as the instant (UTC).
    /// Nil when it is none of these forms, or the zone name is empty.
    init?(text: String, zone zoneName: String? = nil) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse(utf8: $0, zone: zoneName) }) else { return nil }
        self = parsed
    }

    /// `init(text:zone:)` on UTF-8 bytes (the store reader's fast path).
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, zone zoneName: String?) -> DueDate? {
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        func byte(_ index: Int, is character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(character.value)
        }
        guard let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"), let day = number(8, 2)
        else { return nil }
        if bytes.count == 10 { return zoneName == nil ? DueDate.date(year: year, month: month, day: day) : nil }
        guard byte(10, is: "T"), let hour = number(11, 2), byte(13, is: ":"), let minute = number(14, 2), byte(16, is: ":"),
            let second = number(17, 2)
        else { return nil }
        var index = 19
        var offset: Int?
        if byte(index, is: "Z") {
            offset = 0
            index += 1
        } else if byte(index, is: "+") || byte(index, is: "-") {
            guard let hours = number(index + 1, 2), byte(index + 3, is: ":"), let minutes = number(index + 4, 2), hours < 24,
                minutes < 60
            else { return nil }
            offset = (byte(index, is: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
            index += 6
        }
        guard index == bytes.count else { return nil }
        if let zoneName {
            guard !zoneName.isEmpty else { return nil }
            return time(year: year, month: month, day: day, hour: hour, minute: minute, second: second, zone: .named(zoneName))
        }
        guard let offset else {
            return time(year: year, month: month, day: day, hour: hour, minute: minute, second: second, zone: .floating)
        }
        guard let wall = time(year: year, month: month, day: day, hour: hour, minute: minute, second: second, zone: .utc) else {
            return nil
        }
        return time(wallSeconds: wall.wallSeconds - Int64(offset), zone: .utc)
    }
}
