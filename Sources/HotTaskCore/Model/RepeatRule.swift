import FoundationEssentials
import Glibc

/// How a task repeats: an iCalendar RRULE (RFC 5545 §3.3.10) in the subset HotTask can step
/// exactly (FREQ DAILY, WEEKLY, MONTHLY or YEARLY; INTERVAL, BYDAY, COUNT, UNTIL), kept as its
/// text so that it goes out to a calendar as it came in. Completing a repeating task moves its
/// due date to the next occurrence (`next(after:)`): it stays the same task, as Tasks.org and
/// Apple Reminders keep it.
///
/// A rule may count from the day the task is done instead (`afterDone`: todo.txt's `rec:1w`,
/// "every week after done"): completing it then moves the due date one step on from that day.
/// iCalendar has no such rule: a calendar gets the plain RRULE (`rrule`), and the flag goes
/// beside it in an X- property of the VTODO, never in the RRULE itself.
public struct RepeatRule: Hashable, Sendable {
    /// The RRULE value, parts in the order FREQ, INTERVAL, BYDAY, COUNT, UNTIL (WKST=MO
    /// dropped); empty for none. Always a standard RRULE: what a calendar gets.
    public let rrule: String
    /// Counts from the day the task is done, not from its due date.
    public let afterDone: Bool

    /// No repeat: what a task has unless given one.
    public static let none = RepeatRule(checked: "")

    public var isNone: Bool { rrule.isEmpty }

    private init(checked rrule: String, afterDone: Bool = false) {
        self.rrule = rrule
        self.afterDone = afterDone && !rrule.isEmpty
    }

    /// The same rule counting from the day it is done (`true`) or from its due date.
    public func counting(afterDone: Bool) -> RepeatRule { RepeatRule(checked: rrule, afterDone: afterDone) }

    /// The part the store's `"repeat"` adds after the RRULE of a rule that counts from the day
    /// it is done. Only the store, its log and bases hold it; a calendar never does.
    static let afterDonePart = ";X-HOTTASK-FROM=DONE"

    /// The rule as the store, its log and its bases hold it (`"repeat"`): the RRULE, and for
    /// a rule counted from the day it is done, `afterDonePart` after it. A store without such
    /// rules is what it was before them.
    public var stored: String { afterDone ? rrule + Self.afterDonePart : rrule }

    /// A rule as `stored` wrote it; nil for text that is not one.
    public init?(stored text: String) {
        let afterDone = text.hasSuffix(Self.afterDonePart)
        guard let rule = RepeatRule(rrule: afterDone ? String(text.dropLast(Self.afterDonePart.count)) : text) else { return nil }
        self = rule.counting(afterDone: afterDone)
    }

    /// A rule HotTask can step exactly, written the one way it writes them; nil for any other
    /// (BYMONTHDAY, BYSETPOS, SECONDLY…), which stays with the calendar that has it.
    public init?(rrule text: String) {
        let trimmed = text.trimmingBlanks()
        guard !trimmed.isEmpty, case .success = Recurrence.Rule.parse(trimmed) else { return nil }
        var parts: [String: String] = [:]
        for part in trimmed.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0).uppercased() }
            parts[pair[0]] = pair[1]
        }
        if parts["INTERVAL"] == "1" { parts["INTERVAL"] = nil }
        rrule = ["FREQ", "INTERVAL", "BYDAY", "COUNT", "UNTIL"].compactMap { name in parts[name].map { name + "=" + $0 } }
            .joined(separator: ";")
        afterDone = false
    }

    /// The rule as `Recurrence` steps it (every rule made here parses).
    private var stepping: Recurrence.Rule? {
        guard case .success(let rule) = Recurrence.Rule.parse(rrule) else { return nil }
        return rule
    }

    private var parts: [String: String] {
        var parts: [String: String] = [:]
        for part in rrule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { parts[pair[0]] = pair[1] }
        }
        return parts
    }

    /// The due date after `due`, and the rule from then on (a COUNT one less); nil when `due`
    /// was the last occurrence (COUNT or UNTIL), or there is none. Stepped on the wall clock of
    /// the date's own zone: a 09:00 stays 09:00 across a change of summer time.
    public func next(after due: DueDate) -> (due: DueDate, rule: RepeatRule)? {
        guard let rule = stepping else { return nil }
        if rule.count == 1 { return nil }
        let anchor = Date(timeIntervalSince1970: TimeInterval(due.wallSeconds))
        guard let next = rule.occurrence(after: anchor) else { return nil }
        return stepped(due, to: next, by: rule)
    }

    /// The due date after the task is done on `day` (days since 1970-01-01, local): for a rule
    /// counted from the day it is done, one step on from that day (at the due date's time of
    /// day): N days, weeks, months or years later, a month's end or 29 February falling back
    /// to the last day the month has (done on 31 January, monthly: 28 February), or for a rule
    /// by weekdays the first of them after that day. Any other rule steps from its due date
    /// (`next(after:)`).
    public func next(after due: DueDate, doneOn day: Int) -> (due: DueDate, rule: RepeatRule)? {
        guard afterDone else { return next(after: due) }
        guard let rule = stepping else { return nil }
        if rule.count == 1 { return nil }
        let timeOfDay = due.isDay ? 0 : due.wallSeconds - Int64(due.days) * 86_400
        let anchor = Date(timeIntervalSince1970: TimeInterval(Int64(day) * 86_400 + timeOfDay))
        let next: Date?
        if rule.days.isEmpty {
            let (unit, steps): (Calendar.Component, Int) =
                switch rule.frequency {
                case .daily: (.day, 1)
                case .weekly: (.day, 7)
                case .monthly: (.month, 1)
                case .yearly: (.year, 1)
                }
            // Foundation's adding keeps to the month's last day (31 January + 1 month: 28 February).
            next = Recurrence.calendar.date(byAdding: unit, value: rule.interval * steps, to: anchor, wrappingComponents: false)
        } else {
            next = rule.occurrence(after: anchor)
        }
        guard let next else { return nil }
        return stepped(due, to: next, by: rule)
    }

    /// `due` moved to the wall time `next`, and the rule from then on; nil past UNTIL.
    private func stepped(_ due: DueDate, to next: Date, by rule: Recurrence.Rule) -> (due: DueDate, rule: RepeatRule)? {
        if let until = rule.until, next > until { return nil }
        let wall = Int64(next.timeIntervalSince1970.rounded(.down))
        let stepped: DueDate?
        if due.isDay {
            stepped = DueDate.day(Int(wall / 86_400))
        } else if let zone = due.zone {
            stepped = DueDate.time(wallSeconds: wall, zone: zone)
        } else {
            stepped = nil
        }
        guard let stepped else { return nil }
        guard let count = rule.count else { return (stepped, self) }
        return (stepped, RepeatRule(checked: Recurrence.Rule.replacingCount(in: rrule, with: count - 1), afterDone: afterDone))
    }

    /// The first day on or after `day` (days since 1970-01-01) the rule falls on: the due date
    /// a repeating task takes when it has none (`every sun` given on a Friday: that Sunday).
    public func first(onOrAfter day: Int) -> DueDate? {
        guard let start = DueDate.day(day) else { return nil }
        guard parts["BYDAY"] != nil, let before = DueDate.day(day - 1),
            let rule = stepping, rule.days.allSatisfy({ $0.ordinal == nil })
        else { return start }
        let weekday = DateWords.weekday(ofDay: day) + 1  // as `Calendar` counts: 1 Sunday
        if rule.days.contains(where: { $0.weekday == weekday }) { return start }
        return RepeatRule(checked: rrule.split(separator: ";").filter { !$0.hasPrefix("COUNT=") }.joined(separator: ";"))
            .next(after: before)?.due
    }

    /// `due`, or when the rule's days (BYDAY) do not hold it, the first of them after it, at
    /// its time of day: a series starts on one of its occurrences (RFC 5545 §3.8.5.3), as
    /// dateutil and the calendar apps built on it count COUNT from there. `due` when no day
    /// after it is within the rule (past UNTIL).
    public func onOccurrence(_ due: DueDate) -> DueDate {
        guard parts["BYDAY"] != nil, let rule = stepping else { return due }
        let dayBefore = Date(timeIntervalSince1970: TimeInterval(due.wallSeconds - 86_400))
        guard let first = rule.occurrence(after: dayBefore) else { return due }
        return stepped(due, to: first, by: rule)?.due ?? due
    }

    // MARK: Words

    private static let dayNames = Dictionary(uniqueKeysWithValues: zip(["SU", "MO", "TU", "WE", "TH", "FR", "SA"], DateWords.weekdayNames))
    private static let weekdays = "MO,TU,WE,TH,FR"

    /// The rule as `--list` and the app say it: "daily", "every 2 weeks", "every Mon, Thu",
    /// "weekdays", "monthly, this and 2 more", "weekly until 2027-03-01"; "after done" after a
    /// rule counted from the day the task is done ("every 2 weeks after done").
    public var words: String {
        guard !isNone else { return "" }
        return afterDone ? rruleWords + " after done" : rruleWords
    }

    private var rruleWords: String {
        let parts = parts
        let interval = parts["INTERVAL"].flatMap(Int.init) ?? 1
        let unit: String
        switch parts["FREQ"] {
        case "DAILY": unit = "day"
        case "WEEKLY": unit = "week"
        case "MONTHLY": unit = "month"
        default: unit = "year"
        }
        var text: String
        if let days = parts["BYDAY"] {
            if days == Self.weekdays, interval == 1, unit == "week" || unit == "day" {
                text = "weekdays"
            } else {
                let names = days.split(separator: ",").map { entry in
                    let code = String(entry.suffix(2))
                    let ordinal = entry.dropLast(2)
                    return (ordinal.isEmpty ? "" : (ordinal == "-1" ? "last " : String(ordinal) + ". ")) + (Self.dayNames[code] ?? code)
                }
                text = (interval == 1 ? "every " : "every \(interval) \(unit)s on ") + names.joined(separator: ", ")
                if unit == "month", interval == 1 { text = "monthly on the " + names.joined(separator: ", ") }
            }
        } else if interval == 1 {
            text = ["day": "daily", "week": "weekly", "month": "monthly", "year": "yearly"][unit] ?? unit
        } else {
            text = "every \(interval) \(unit)s"
        }
        if let count = parts["COUNT"].flatMap(Int.init) {
            text += count == 1 ? ", this time only" : ", this and \(count - 1) more"
        }
        if let until = parts["UNTIL"] {
            let digits = until.prefix(8)
            if digits.count == 8 {
                text += " until " + digits.prefix(4) + "-" + digits.dropFirst(4).prefix(2) + "-" + digits.suffix(2)
            }
        }
        return text
    }
}
