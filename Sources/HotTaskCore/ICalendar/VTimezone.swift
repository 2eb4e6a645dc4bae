import FoundationEssentials
import Glibc
import Synchronization

/// VTIMEZONE components (RFC 5545 §3.6.5) made from the system's zone data
/// (`/usr/share/zoneinfo`, TZif files, RFC 8536), so that every TZID HotTask writes has its
/// VTIMEZONE in the same object or file, as §3.2.19 requires.
///
/// A zone's changes since 1970 are written as they happened (an observance per kind of change,
/// its first onset as DTSTART and every onset, that one too, as RDATE: readers that expand
/// only RRULE and RDATE, as Python's `ical` does, then see it), and the rule the zone follows
/// now (the TZif footer, a POSIX TZ string) as yearly RRULEs from the first change it
/// explains. A zone
/// this system does not know (an Outlook name a calendar sent) gets none: its object keeps
/// whatever VTIMEZONE came with it.
enum VTimezone {
    /// The VTIMEZONE for `zone`, or nil when this system has no such zone. Made once per
    /// process and zone.
    static func component(for zone: String) -> ICalComponent? {
        if let cached = cache.withLock({ $0[zone] }) { return cached }
        let made = make(zone)
        cache.withLock { $0[zone] = .some(made) }
        return made
    }

    private static let cache = Mutex<[String: ICalComponent?]>([:])

    /// Where the zone files are: `TZDIR` when set, else the system's.
    static var folder: String { ProcessInfo.processInfo.environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo" }

    /// Adds to `calendar` a VTIMEZONE for each TZID its components name that it holds none for
    /// and this system knows, before its first other component.
    static func complete(_ calendar: inout ICalComponent) {
        let held = Set(calendar.components.lazy.filter { $0.name == "VTIMEZONE" }.compactMap { $0.first("TZID")?.text })
        var named: [String] = []
        for component in calendar.components where component.name != "VTIMEZONE" {
            for name in ICalendarCarry.tzids(of: component) where !held.contains(name) && !named.contains(name) { named.append(name) }
        }
        guard !named.isEmpty else { return }
        let zones = named.compactMap(component(for:))
        let at = calendar.components.firstIndex { $0.name != "VTIMEZONE" } ?? calendar.components.count
        calendar.components.insert(contentsOf: zones, at: at)
    }

    // MARK: Making one

    static func make(_ zone: String) -> ICalComponent? {
        ZoneInfo.file(named: zone).map { build(zone, $0) }
    }

    /// From 1970: what happened before is no one's due date.
    static let start: Int64 = 0
    /// How far a rule RRULE cannot say is written out as dates.
    static let lastYear = 2100

    struct Change: Equatable {
        var time: Int64
        var from: Int32
        var to: Int32
        var isDST: Bool
        var name: String
    }

    static func build(_ zone: String, _ data: TZif) -> ICalComponent {
        // The offset in force at `start`, then every change after it.
        var current = data.types[data.initialType]
        var changes: [Change] = []
        for (time, typeIndex) in data.transitions {
            let type = data.types[typeIndex]
            if time <= start {
                current = type
                continue
            }
            let previous = changes.last.map { TZif.LocalType(offset: $0.to, isDST: $0.isDST, name: $0.name) } ?? current
            if previous.offset == type.offset && previous.isDST == type.isDST && previous.name == type.name { continue }
            changes.append(Change(time: time, from: previous.offset, to: type.offset, isDST: type.isDST, name: type.name))
        }
        var observances: [ICalComponent] = []
        // The explicit changes the footer's rule explains, from the end back: written as RRULEs.
        let rule = data.footer.flatMap(PosixRule.init)
        var ruled = changes.count
        if let rule, let dst = rule.dst {
            while ruled > 0,
                rule.transition(atOrAfter: changes[ruled - 1].time - 1).map({ $0.time == changes[ruled - 1].time && $0.to == changes[ruled - 1].to })
                    == true
            {
                ruled -= 1
            }
            // The first onset a rule explains must also start from the rule's other offset.
            if ruled < changes.count, changes[ruled].from != (changes[ruled].isDST ? rule.std.offset : dst.offset) { ruled += 1 }
            let after = ruled < changes.count ? changes[ruled].time - 1 : max(changes.last?.time ?? start, start)
            observances += rule.observances(after: after)
        }
        // The initial offset, then the changes no rule explains, grouped by kind.
        let initial = changes.first.map { TZif.LocalType(offset: $0.from, isDST: false, name: "") } ?? current
        let initialName = changes.isEmpty ? (rule.map { $0.std.name } ?? current.name) : current.name
        let initialOffset = changes.isEmpty && rule?.dst == nil ? (rule?.std.offset ?? current.offset) : initial.offset
        var first = ICalComponent(name: current.isDST && !changes.isEmpty ? "DAYLIGHT" : "STANDARD")
        first.properties = [
            ICalProperty(name: "TZOFFSETFROM", value: offsetText(initialOffset)), ICalProperty(name: "TZOFFSETTO", value: offsetText(initialOffset)),
        ]
        if !initialName.isEmpty { first.properties.append(ICalProperty(name: "TZNAME", value: ICalendar.escape(initialName))) }
        first.properties.append(ICalProperty(name: "DTSTART", value: localText(start, offset: initialOffset)))
        first.properties.append(ICalProperty(name: "RDATE", value: localText(start, offset: initialOffset)))
        var groups: [(key: [String], component: ICalComponent, dates: [String])] = []
        for change in changes[..<ruled] {
            let key = [String(change.from), String(change.to), String(change.isDST), change.name]
            let onset = localText(change.time, offset: change.from)
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].dates.append(onset)
                continue
            }
            var component = ICalComponent(name: change.isDST ? "DAYLIGHT" : "STANDARD")
            component.properties = [
                ICalProperty(name: "TZOFFSETFROM", value: offsetText(change.from)), ICalProperty(name: "TZOFFSETTO", value: offsetText(change.to)),
            ]
            if !change.name.isEmpty { component.properties.append(ICalProperty(name: "TZNAME", value: ICalendar.escape(change.name))) }
            component.properties.append(ICalProperty(name: "DTSTART", value: onset))
            groups.append((key, component, [onset]))
        }
        let dated = groups.map { group -> ICalComponent in
            var component = group.component
            if !group.dates.isEmpty { component.properties.append(ICalProperty(name: "RDATE", value: group.dates.joined(separator: ","))) }
            return component
        }
        return ICalComponent(
            name: "VTIMEZONE", properties: [ICalProperty(name: "TZID", value: ICalendar.escape(zone))], components: [first] + dated + observances)
    }

    /// `+0100`, `-0330`, `+054500` (seconds only when there are some).
    static func offsetText(_ seconds: Int32) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let value = abs(Int(seconds))
        let text = (value / 3600).zeroPadded(2) + (value / 60 % 60).zeroPadded(2)
        return sign + text + (value % 60 == 0 ? "" : (value % 60).zeroPadded(2))
    }

    /// The wall-clock time at `time` (UTC seconds) in `offset`, as a local DATE-TIME.
    static func localText(_ time: Int64, offset: Int32) -> String {
        ICalendar.format(Date(timeIntervalSince1970: TimeInterval(time + Int64(offset)))).replacing("Z", with: "")
    }
}

/// A TZif file (RFC 8536): its transitions, local time types and footer.
struct TZif {
    struct LocalType: Equatable {
        var offset: Int32
        var isDST: Bool
        var name: String
    }

    var transitions: [(time: Int64, type: Int)] = []
    var types: [LocalType] = []
    /// The type in force before the first transition.
    var initialType = 0
    /// The POSIX TZ string of versions 2 and later (`CET-1CEST,M3.5.0,M10.5.0/3`).
    var footer: String?

    init?(_ bytes: [UInt8]) {
        func u32(_ at: Int) -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            return Int(UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3]))
        }
        func i64(_ at: Int) -> Int64 {
            var value: UInt64 = 0
            for offset in 0..<8 { value = value << 8 | UInt64(bytes[at + offset]) }
            return Int64(bitPattern: value)
        }
        guard bytes.count >= 44, bytes[0..<4].elementsEqual("TZif".utf8) else { return nil }
        let version = bytes[4]
        func counts(_ at: Int) -> [Int]? {
            let values = (0..<6).compactMap { u32(at + 20 + $0 * 4) }
            return values.count == 6 ? values : nil
        }
        guard var header = counts(0) else { return nil }
        var at = 44
        var timeSize = 4
        if version >= UInt8(ascii: "2") {
            // Past the 32-bit block to the 64-bit one.
            at += header[3] * 4 + header[3] + header[4] * 6 + header[5] + header[2] * 8 + header[1] + header[0]
            guard let second = counts(at) else { return nil }
            header = second
            at += 44
            timeSize = 8
        }
        let (isUT, isStd, leaps, times, typeCount, chars) = (header[0], header[1], header[2], header[3], header[4], header[5])
        let end = at + times * timeSize + times + typeCount * 6 + chars + leaps * (timeSize + 4) + isStd + isUT
        guard typeCount > 0, end <= bytes.count else { return nil }
        let typeStart = at + times * timeSize + times
        let charStart = typeStart + typeCount * 6
        for index in 0..<typeCount {
            let base = typeStart + index * 6
            guard let raw = u32(base) else { return nil }
            let offset = Int32(bitPattern: UInt32(raw))
            let nameAt = Int(bytes[base + 5])
            var nameEnd = charStart + nameAt
            while nameEnd < charStart + chars, bytes[nameEnd] != 0 { nameEnd += 1 }
            let name = nameAt < chars ? String(decoding: bytes[(charStart + nameAt)..<nameEnd], as: UTF8.self) : ""
            types.append(LocalType(offset: offset, isDST: bytes[base + 4] != 0, name: name))
        }
        for index in 0..<times {
            let time = timeSize == 8 ? i64(at + index * 8) : Int64(Int32(bitPattern: UInt32(u32(at + index * 4) ?? 0)))
            let type = Int(bytes[at + times * timeSize + index])
            guard type < typeCount else { return nil }
            transitions.append((time, type))
        }
        if timeSize == 8, end < bytes.count, bytes[end] == 0x0A, let close = bytes[(end + 1)...].firstIndex(of: 0x0A), close > end + 1 {
            footer = String(decoding: bytes[(end + 1)..<close], as: UTF8.self)
        }
    }
}

/// A POSIX TZ string (`std offset [dst [offset] [,start[/time],end[/time]]]`), as a TZif footer
/// has it: the rule a zone follows after its last listed change.
struct PosixRule {
    struct Part {
        var name: String
        /// Seconds east of UTC (the string's sign is the other way).
        var offset: Int32
    }

    /// `Mm.w.d` (month, week 1–5 with 5 the last, weekday from Sunday 0), `Jn` (day of a
    /// 365-day year) or `n` (day from 0), and the time of day in the offset before it (may be
    /// negative or past 24 h).
    enum Day: Equatable {
        case weekday(month: Int, week: Int, day: Int)
        case julian(Int)
        case zeroBased(Int)
    }

    struct Change {
        var day: Day
        var time: Int
    }

    var std: Part
    var dst: Part?
    var toDST: Change?
    var toStd: Change?

    init?(_ text: String) {
        var scanner = Array(text.unicodeScalars)[...]
        func name() -> String? {
            if scanner.first == "<" {
                guard let close = scanner.firstIndex(of: ">") else { return nil }
                let value = String(String.UnicodeScalarView(scanner[scanner.index(after: scanner.startIndex)..<close]))
                scanner = scanner[scanner.index(after: close)...]
                return value
            }
            let letters = scanner.prefix { $0.isLetterOrMark }
            guard letters.count >= 3 else { return nil }
            scanner = scanner.dropFirst(letters.count)
            return String(String.UnicodeScalarView(letters))
        }
        /// `[+-]hh[:mm[:ss]]` in seconds.
        func clock() -> Int? {
            var sign = 1
            if scanner.first == "+" || scanner.first == "-" {
                sign = scanner.first == "-" ? -1 : 1
                scanner = scanner.dropFirst()
            }
            var parts: [Int] = []
            repeat {
                if !parts.isEmpty { scanner = scanner.dropFirst() }
                let digits = scanner.prefix { $0.properties.numericType == .decimal }
                guard !digits.isEmpty, let value = Int(String(String.UnicodeScalarView(digits))) else { return nil }
                parts.append(value)
                scanner = scanner.dropFirst(digits.count)
            } while scanner.first == ":" && parts.count < 3
            let seconds = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
            return sign * seconds
        }
        func change() -> Change? {
            var day: Day
            if scanner.first == "M" {
                scanner = scanner.dropFirst()
                var numbers: [Int] = []
                for index in 0..<3 {
                    if index > 0 {
                        guard scanner.first == "." else { return nil }
                        scanner = scanner.dropFirst()
                    }
                    let digits = scanner.prefix { $0.properties.numericType == .decimal }
                    guard let value = Int(String(String.UnicodeScalarView(digits))) else { return nil }
                    numbers.append(value)
                    scanner = scanner.dropFirst(digits.count)
                }
                guard (1...12).contains(numbers[0]), (1...5).contains(numbers[1]), (0...6).contains(numbers[2]) else { return nil }
                day = .weekday(month: numbers[0], week: numbers[1], day: numbers[2])
            } else {
                let julian = scanner.first == "J"
                if julian { scanner = scanner.dropFirst() }
                let digits = scanner.prefix { $0.properties.numericType == .decimal }
                guard let value = Int(String(String.UnicodeScalarView(digits))) else { return nil }
                scanner = scanner.dropFirst(digits.count)
                day = julian ? .julian(value) : .zeroBased(value)
            }
            var time = 7200
            if scanner.first == "/" {
                scanner = scanner.dropFirst()
                guard let value = clock() else { return nil }
                time = value
            }
            return Change(day: day, time: time)
        }
        guard let stdName = name(), let stdOffset = clock() else { return nil }
        std = Part(name: stdName, offset: Int32(-stdOffset))
        guard !scanner.isEmpty else { return }
        guard let dstName = name() else { return nil }
        var dstOffset = std.offset + 3600
        if let first = scanner.first, first != "," {
            guard let value = clock() else { return nil }
            dstOffset = Int32(-value)
        }
        dst = Part(name: dstName, offset: dstOffset)
        guard scanner.first == ",", case _ = scanner.popFirst(), let start = change(), scanner.popFirst() == ",", let end = change(),
            scanner.isEmpty
        else { return nil }
        toDST = start
        toStd = end
    }

    /// The UTC time of `change` in `year`, its offset before being `from`.
    func time(of change: Change, year: Int, from: Int32) -> Int64? {
        let days: Int
        switch change.day {
        case .weekday(let month, let week, let weekday):
            let first = Timestamp.daysFromCivil(year: year, month: month, day: 1)
            let firstWeekday = DateWords.weekday(ofDay: first)
            var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = Timestamp.daysIn(month: month, year: year)
            while day > length { day -= 7 }
            days = first + day - 1
        case .julian(let number):
            let first = Timestamp.daysFromCivil(year: year, month: 1, day: 1)
            // Jn never counts February 29.
            let leap = Timestamp.daysIn(month: 2, year: year) == 29
            days = first + number - 1 + (leap && number >= 60 ? 1 : 0)
        case .zeroBased(let number):
            days = Timestamp.daysFromCivil(year: year, month: 1, day: 1) + number
        }
        return Int64(days) * 86400 + Int64(change.time) - Int64(from)
    }

    /// The first change the rule makes after `time`.
    func transition(atOrAfter time: Int64) -> (time: Int64, to: Int32)? {
        guard let dst, let toDST, let toStd else { return nil }
        let year = Int(Date(timeIntervalSince1970: TimeInterval(time)).timeIntervalSince1970 / 31_556_952) + 1970
        var best: (Int64, Int32)?
        for candidate in (year - 1)...(year + 1) {
            for (change, from, to) in [(toDST, std.offset, dst.offset), (toStd, dst.offset, std.offset)] {
                guard let at = self.time(of: change, year: candidate, from: from), at > time else { continue }
                if best == nil || at < best!.0 { best = (at, to) }
            }
        }
        return best.map { (time: $0.0, to: $0.1) }
    }

    /// The observances of the rule for its changes after `time`: a yearly RRULE each, or the
    /// dates written out to `VTimezone.lastYear` where an RRULE cannot say the day.
    func observances(after time: Int64) -> [ICalComponent] {
        guard let dst, let toDST, let toStd else { return [] }
        var result: [ICalComponent] = []
        for (change, from, to, isDST) in [(toDST, std, dst, true), (toStd, dst, std, false)] {
            // The first onset after `time`.
            var year = Int(Double(time) / 31_556_952) + 1969
            var onset: Int64?
            while onset == nil, year <= VTimezone.lastYear {
                if let at = self.time(of: change, year: year, from: from.offset), at > time { onset = at } else { year += 1 }
            }
            guard let onset else { continue }
            var component = ICalComponent(name: isDST ? "DAYLIGHT" : "STANDARD")
            component.properties = [
                ICalProperty(name: "TZOFFSETFROM", value: VTimezone.offsetText(from.offset)),
                ICalProperty(name: "TZOFFSETTO", value: VTimezone.offsetText(to.offset)),
                ICalProperty(name: "TZNAME", value: ICalendar.escape(to.name)),
                ICalProperty(name: "DTSTART", value: VTimezone.localText(onset, offset: from.offset)),
            ]
            if let rrule = Self.rrule(change) {
                component.properties.append(ICalProperty(name: "RRULE", value: rrule))
            } else {
                let dates = ((year + 1)...VTimezone.lastYear).compactMap { self.time(of: change, year: $0, from: from.offset) }
                    .map { VTimezone.localText($0, offset: from.offset) }
                if !dates.isEmpty { component.properties.append(ICalProperty(name: "RDATE", value: dates.joined(separator: ","))) }
            }
            result.append(component)
        }
        return result
    }

    /// `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU` for `M3.5.0`; a time past midnight or before it moves
    /// the day (`BYDAY=FR;BYMONTHDAY=23,…,29` for Friday after the fourth Thursday); nil when
    /// the day leaves the month or the rule counts days of the year.
    static func rrule(_ change: Change) -> String? {
        guard case .weekday(let month, let week, let weekday) = change.day else { return nil }
        let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        let shift = Int((Double(change.time) / 86400).rounded(.down))
        if shift == 0 { return "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(week == 5 ? -1 : week)\(names[weekday])" }
        let days = week == 5 ? Array(-7...(-1)).map { $0 + shift } : Array(((week - 1) * 7 + 1)...(week * 7)).map { $0 + shift }
        // Within the month in every year (February has 28 days in most).
        let shortest = month == 2 ? 28 : Timestamp.daysIn(month: month, year: 2001)
        guard days.allSatisfy({ week == 5 ? ($0 <= -1 && $0 >= -shortest) : ($0 >= 1 && $0 <= shortest) }) else { return nil }
        let day = names[((weekday + shift) % 7 + 7) % 7]
        return "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(day);BYMONTHDAY=\(days.map(String.init).joined(separator: ","))"
    }
}
