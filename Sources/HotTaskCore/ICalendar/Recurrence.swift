import FoundationEssentials
import Glibc

/// Completing one occurrence of a repeating VTODO (RRULE, RFC 5545 §3.3.10), as Tasks.org and
/// Apple Reminders do: DTSTART and DUE move on to the next occurrence and the task stays open,
/// instead of the whole series being marked done. Only rules whose next occurrence can be
/// computed exactly are advanced: FREQ DAILY, WEEKLY, MONTHLY or YEARLY with INTERVAL, COUNT,
/// UNTIL and BYDAY (weekdays; with an ordinal such as 2TU or -1FR in a MONTHLY rule). Anything
/// else (BYMONTHDAY, BYSETPOS, EXDATE, RDATE…) is refused, never guessed.
///
/// Dates are stepped as wall-clock values (a TZID'd 09:00 stays 09:00 across a DST change), in
/// the form they were written (DATE, floating, UTC) and with their parameters kept.
enum Recurrence {
    enum Advance: Equatable, Sendable {
        /// No RRULE: completing completes the task.
        case notRepeating
        /// The VTODO moved on to its next occurrence, open.
        case next(ICalComponent)
        /// This was the last occurrence (COUNT or UNTIL): completing completes the series.
        case lastOccurrence
        /// A rule HotTask cannot step exactly; the reason names what.
        case unsupported(String)
    }

    /// The VTODO with this occurrence completed.
    static func advance(_ todo: ICalComponent) -> Advance {
        let rules = todo.properties.filter { $0.name == "RRULE" }
        guard let written = rules.first?.value else { return .notRepeating }
        let ruleText = RuleUntil.forStepping(written, start: todo.first("DTSTART") ?? todo.first("DUE"))
        guard rules.count == 1 else { return .unsupported("more than one RRULE") }
        for name in ["RDATE", "EXDATE", "EXRULE"] where todo.first(name) != nil { return .unsupported("\(name) is set") }
        let rule: Rule
        switch Rule.parse(ruleText) {
        case .success(let parsed): rule = parsed
        case .failure(let reason): return .unsupported(reason.text)
        }
        guard let anchorProperty = todo.first("DTSTART") ?? todo.first("DUE"), let anchor = WallTime(anchorProperty.value) else {
            return .unsupported("no DTSTART or DUE to repeat from")
        }
        if rule.count == 1 { return .lastOccurrence }
        guard let next = rule.occurrence(after: anchor.date) else { return .unsupported("no next occurrence within 100 years") }
        if let until = rule.until, next > until { return .lastOccurrence }
        var advanced = todo
        let shift = next.timeIntervalSince(anchor.date)
        for name in ["DTSTART", "DUE"] {
            guard let index = advanced.properties.firstIndex(where: { $0.name == name }),
                let time = WallTime(advanced.properties[index].value)
            else { continue }
            advanced.properties[index].value = time.moved(by: shift)
        }
        if let count = rule.count, let index = advanced.properties.firstIndex(where: { $0.name == "RRULE" }) {
            advanced.properties[index].value = Rule.replacingCount(in: written, with: count - 1)
        }
        advanced.set("STATUS", "NEEDS-ACTION")
        advanced.set("COMPLETED", nil)
        if advanced.first("PERCENT-COMPLETE") != nil { advanced.set("PERCENT-COMPLETE", "0") }
        advanced.set(TodoMapping.openStatusProperty, nil)
        return .next(advanced)
    }

    /// The VTODO advanced to its next occurrence, or nil when completing it completes it.
    static func nextOccurrence(of todo: ICalComponent) -> ICalComponent? {
        if case .next(let advanced) = advance(todo) { return advanced }
        return nil
    }

    /// Wall-clock arithmetic: Gregorian, weeks from Monday, in UTC so that no zone shifts it.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        calendar.firstWeekday = 2
        return calendar
    }()

    /// A DATE or DATE-TIME value, read as the wall clock it names, and written back in its form.
    struct WallTime {
        var date: Date
        var isDateOnly: Bool
        var isUTC: Bool

        init?(_ value: String) {
            let text = value.trimmingBlanks()
            let digits = text.replacing("T", with: "").replacing("Z", with: "")
            guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count == 8 || digits.count == 14 else { return nil }
            let number = { (from: Int, length: Int) -> Int in
                Int(digits[digits.index(digits.startIndex, offsetBy: from)..<digits.index(digits.startIndex, offsetBy: from + length)]) ?? 0
            }
            var parts = DateComponents(year: number(0, 4), month: number(4, 2), day: number(6, 2))
            isDateOnly = digits.count == 8
            if !isDateOnly {
                parts.hour = number(8, 2)
                parts.minute = number(10, 2)
                parts.second = number(12, 2)
            }
            isUTC = text.hasSuffix("Z")
            guard let made = Recurrence.calendar.date(from: parts),
                Recurrence.calendar.dateComponents([.year, .month, .day], from: made).day == parts.day
            else { return nil }
            date = made
        }

        func moved(by seconds: TimeInterval) -> String {
            let parts = Recurrence.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date + seconds)
            let day = (parts.year ?? 0).zeroPadded(4) + (parts.month ?? 0).zeroPadded(2) + (parts.day ?? 0).zeroPadded(2)
            if isDateOnly { return day }
            return day + "T" + (parts.hour ?? 0).zeroPadded(2) + (parts.minute ?? 0).zeroPadded(2) + (parts.second ?? 0).zeroPadded(2)
                + (isUTC ? "Z" : "")
        }
    }

    struct Reason: Error {
        let text: String
    }

    /// The parts of an RRULE HotTask can step.
    struct Rule {
        enum Frequency: String {
            case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
        }

        /// A BYDAY entry: a weekday (1 Sunday … 7 Saturday, as `Calendar` counts) and, in a
        /// MONTHLY rule, which one of the month (2 = second, -1 = last; nil = every).
        struct Day: Equatable {
            var weekday: Int
            var ordinal: Int?
        }

        var frequency: Frequency
        var interval = 1
        var count: Int?
        var until: Date?
        var days: [Day] = []

        static let weekdays = ["SU": 1, "MO": 2, "TU": 3, "WE": 4, "TH": 5, "FR": 6, "SA": 7]

        static func parse(_ text: String) -> Result<Rule, Reason> {
            var values: [String: String] = [:]
            for part in text.split(separator: ";") {
                let pair = part.split(separator: "=", maxSplits: 1).map { String($0).uppercased() }
                guard pair.count == 2, values[pair[0]] == nil else { return .failure(Reason(text: "RRULE \(text) cannot be read")) }
                values[pair[0]] = pair[1]
            }
            guard let frequency = values["FREQ"].flatMap(Frequency.init(rawValue:)) else {
                return .failure(Reason(text: "FREQ=\(values["FREQ"] ?? "") is not daily, weekly, monthly or yearly"))
            }
            var rule = Rule(frequency: frequency)
            for (name, value) in values {
                switch name {
                case "FREQ": continue
                case "INTERVAL":
                    guard let interval = Int(value), (1...1000).contains(interval) else { return .failure(Reason(text: "INTERVAL=\(value)")) }
                    rule.interval = interval
                case "COUNT":
                    guard let count = Int(value), count >= 1 else { return .failure(Reason(text: "COUNT=\(value)")) }
                    rule.count = count
                case "UNTIL":
                    guard let until = WallTime(value) else { return .failure(Reason(text: "UNTIL=\(value)")) }
                    // A DATE UNTIL includes that whole day.
                    rule.until = until.isDateOnly ? until.date + 86_399 : until.date
                case "BYDAY":
                    for entry in value.split(separator: ",") {
                        let code = String(entry.suffix(2))
                        let ordinalText = entry.dropLast(2)
                        guard let weekday = weekdays[code] else { return .failure(Reason(text: "BYDAY=\(value)")) }
                        let ordinal = ordinalText.isEmpty ? nil : Int(ordinalText.hasPrefix("+") ? ordinalText.dropFirst() : ordinalText)
                        guard ordinalText.isEmpty || (ordinal.map { $0 != 0 && abs($0) <= 5 } ?? false) else {
                            return .failure(Reason(text: "BYDAY=\(value)"))
                        }
                        guard ordinal == nil || frequency == .monthly else {
                            return .failure(Reason(text: "BYDAY=\(value) with FREQ=\(frequency.rawValue)"))
                        }
                        rule.days.append(Day(weekday: weekday, ordinal: ordinal))
                    }
                    if frequency == .yearly { return .failure(Reason(text: "BYDAY in a yearly rule")) }
                case "WKST" where value == "MO": continue
                default: return .failure(Reason(text: "\(name)=\(value)"))
                }
            }
            return .success(rule)
        }

        static func replacingCount(in text: String, with count: Int) -> String {
            text.split(separator: ";").map { part in
                part.uppercased().hasPrefix("COUNT=") ? "COUNT=\(count)" : String(part)
            }.joined(separator: ";")
        }

        /// The first occurrence after `anchor` (itself an occurrence: the series' start).
        func occurrence(after anchor: Date) -> Date? {
            let calendar = Recurrence.calendar
            func add(_ component: Calendar.Component, _ value: Int, to date: Date) -> Date? {
                calendar.date(byAdding: component, value: value, to: date, wrappingComponents: false)
            }
            let anchorDay = calendar.dateComponents([.year, .month, .day], from: anchor)
            switch frequency {
            case .daily:
                for step in 1...36_600 {
                    guard let candidate = add(.day, step * interval, to: anchor) else { return nil }
                    if days.isEmpty || days.contains(where: { $0.weekday == calendar.component(.weekday, from: candidate) }) {
                        return candidate
                    }
                }
            case .weekly:
                let weekdays = days.isEmpty ? [calendar.component(.weekday, from: anchor)] : days.map(\.weekday)
                // Monday of the anchor's week, at the anchor's time of day.
                let sinceMonday = (calendar.component(.weekday, from: anchor) + 5) % 7
                guard let monday = add(.day, -sinceMonday, to: anchor) else { return nil }
                for week in stride(from: 0, through: 5_300 * interval, by: interval) {
                    for offset in 0..<7 {
                        guard let candidate = add(.day, week * 7 + offset, to: monday) else { return nil }
                        if candidate > anchor && weekdays.contains(calendar.component(.weekday, from: candidate)) { return candidate }
                    }
                }
            case .monthly:
                guard let firstOfMonth = calendar.date(from: DateComponents(year: anchorDay.year, month: anchorDay.month, day: 1)) else {
                    return nil
                }
                for step in stride(from: 0, through: 1_200 * interval, by: interval) {
                    guard let month = add(.month, step, to: firstOfMonth) else { return nil }
                    let time = anchor.timeIntervalSince(calendar.startOfDay(for: anchor))
                    let candidates = monthDays(of: month, anchorDay: anchorDay.day ?? 1).map { $0 + time }
                    if let first = candidates.sorted().first(where: { $0 > anchor }) { return first }
                }
            case .yearly:
                for step in 1...400 {
                    var parts = anchorDay
                    parts.year = (anchorDay.year ?? 0) + step * interval
                    guard let day = calendar.date(from: parts), calendar.component(.day, from: day) == anchorDay.day else { continue }
                    return day + anchor.timeIntervalSince(calendar.startOfDay(for: anchor))
                }
            }
            return nil
        }

        /// The days of the month starting at `month` this rule takes: BYDAY's, or the anchor's
        /// day of the month when the month has it.
        private func monthDays(of month: Date, anchorDay: Int) -> [Date] {
            let calendar = Recurrence.calendar
            guard let length = calendar.range(of: .day, in: .month, for: month)?.count else { return [] }
            let all = (0..<length).compactMap { calendar.date(byAdding: .day, value: $0, to: month) }
            if days.isEmpty { return anchorDay <= length ? [all[anchorDay - 1]] : [] }
            var taken: [Date] = []
            for day in days {
                let matching = all.filter { calendar.component(.weekday, from: $0) == day.weekday }
                switch day.ordinal {
                case nil: taken += matching
                case let n? where n > 0 && n <= matching.count: taken.append(matching[n - 1])
                case let n? where n < 0 && -n <= matching.count: taken.append(matching[matching.count + n])
                default: break
                }
            }
            return taken
        }
    }
}
