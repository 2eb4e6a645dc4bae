import FoundationEssentials
import Glibc

/// Taskwarrior's `recur` (with its `until`) as a `RepeatRule`, and back, for the rules where
/// both step to the same dates (as Taskwarrior 2.6's `getNextRecurrence` steps them):
///
/// - calendar words: `monthly`, `bimonthly`, `quarterly`, `semiannual`, `Nm`, `Nq`, `PnM`
///   step calendar months; `yearly`, `annual`, `biannual`, `biyearly`, `P1Y`, `P2Y` calendar
///   years. Taskwarrior moves a day the month lacks to the month's last day (31 Jan, 28 Feb,
///   28 Mar…) where an RRULE skips that month: exact only for a due date on the 1st to 28th
///   (and not 29 Feb for years).
/// - `weekdays`: Monday to Friday.
/// - everything else is a fixed duration: `daily`, `Nd`, `weekly`, `biweekly`, `fortnight`,
///   `Nw`, `PnD`, `PnW` are days or weeks; `Nmo`/`Nmonths` are 30 days each and `Ny`/`Nyears`
///   365 days each (so `recur:2mo` is "every 60 days", as Taskwarrior steps it).
///
/// Hours, minutes and seconds, and any word not listed, have no exact RRULE: nil.
enum TaskwarriorRecur {
    private enum Step: Equatable {
        case days(Int)
        case weeks(Int)
        case months(Int)
        case years(Int)
        case weekdays
    }

    /// The rule `recur` (until `until`) steps, from a first due date `anchor`; nil when
    /// HotTask cannot step it exactly.
    static func rule(recur: String, until: Date?, anchor: DueDate?) -> RepeatRule? {
        guard let step = step(recur) else { return nil }
        var text: String
        switch step {
        case .days(let n): text = "FREQ=DAILY;INTERVAL=\(n)"
        case .weeks(let n): text = "FREQ=WEEKLY;INTERVAL=\(n)"
        case .months(let n):
            guard calendarExact(anchor, years: false) else { return nil }
            text = "FREQ=MONTHLY;INTERVAL=\(n)"
        case .years(let n):
            guard calendarExact(anchor, years: true) else { return nil }
            text = "FREQ=YEARLY;INTERVAL=\(n)"
        case .weekdays: text = "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"
        }
        if let until {
            // A day's local midnight (how a dated task's due is written) is that whole day.
            switch DueDate.fromTaskwarrior(until) {
            case let day? where day.isDay: text += ";UNTIL=" + day.dayText.replacing("-", with: "")
            default: text += ";UNTIL=" + Timestamp.formatCompact(until)
            }
        }
        return RepeatRule(rrule: text)
    }

    /// `recur` and `until` (as Taskwarrior writes dates; nil for none) for `rule` stepping from
    /// `anchor`; nil when Taskwarrior has no `recur` that steps the same dates (several days
    /// of the week, a weekday of the month, every 3 years, a monthly on the 29th to 31st).
    /// A COUNT becomes the `until` of its last occurrence.
    static func recur(for rule: RepeatRule, anchor: DueDate?) -> (recur: String, until: String?)? {
        guard !rule.isNone, let anchor else { return nil }
        var parts: [String: String] = [:]
        for part in rule.rrule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { parts[pair[0]] = pair[1] }
        }
        let interval = parts["INTERVAL"].flatMap(Int.init) ?? 1
        let recur: String
        switch (parts["FREQ"], parts["BYDAY"]) {
        case ("DAILY", nil): recur = interval == 1 ? "daily" : "\(interval)d"
        case ("DAILY", "MO,TU,WE,TH,FR"?) where interval == 1, ("WEEKLY", "MO,TU,WE,TH,FR"?) where interval == 1:
            recur = "weekdays"
        case ("WEEKLY", let day) where day == nil || day == weekdayCode(of: anchor):
            recur = interval == 1 ? "weekly" : "\(interval)w"
        case ("MONTHLY", nil) where calendarExact(anchor, years: false):
            recur = [1: "monthly", 2: "bimonthly", 3: "quarterly", 6: "semiannual"][interval] ?? "\(interval)m"
        case ("YEARLY", nil) where calendarExact(anchor, years: true) && interval <= 2:
            recur = interval == 1 ? "yearly" : "biannual"
        default: return nil
        }
        var until: String?
        if let count = parts["COUNT"].flatMap(Int.init) {
            var last = anchor
            var rest = rule
            for _ in 1..<max(count, 1) {
                guard let next = rest.next(after: last) else { break }
                (last, rest) = next
            }
            until = last.taskwarriorText()
        } else if let text = parts["UNTIL"] {
            until = untilText(text)
        }
        return (recur, until)
    }

    /// An RRULE UNTIL as Taskwarrior writes it: a date as that day's local midnight, a time
    /// as it is (HotTask steps on the wall clock: a floating one as UTC).
    private static func untilText(_ text: String) -> String? {
        let digits = text.prefix(8)
        guard digits.count == 8, digits.allSatisfy(\.isNumber) else { return nil }
        if text.count == 8 {
            let day = "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))"
            return DueDate(text: day)?.taskwarriorText()
        }
        return text.hasSuffix("Z") ? text : text + "Z"
    }

    private static func weekdayCode(of due: DueDate) -> String {
        ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][DateWords.weekday(ofDay: due.days)]
    }

    /// A monthly step lands on the same day of the month only for the 1st to the 28th; a
    /// yearly one on any day but 29 February. No anchor: nothing to step from, taken as exact.
    private static func calendarExact(_ anchor: DueDate?, years: Bool) -> Bool {
        guard let anchor else { return true }
        let (_, month, day) = anchor.civilDay
        return years ? !(month == 2 && day == 29) : day <= 28
    }

    // MARK: Reading recur

    private static let dayUnits: Set<String> = ["d", "day", "days"]
    private static let weekUnits: Set<String> = ["w", "wk", "wks", "week", "weeks"]
    private static let monthDurationUnits: Set<String> = ["mo", "mos", "mth", "mths", "mnths", "month", "months"]
    private static let yearDurationUnits: Set<String> = ["y", "yr", "yrs", "year", "years"]

    private static func step(_ recur: String) -> Step? {
        let text = recur.trimmingBlanks().lowercased()
        switch text {
        case "daily", "day": return .days(1)
        case "weekly", "week", "wk": return .weeks(1)
        case "biweekly", "fortnight": return .weeks(2)
        case "weekdays": return .weekdays
        case "monthly": return .months(1)
        case "bimonthly": return .months(2)
        case "quarterly": return .months(3)
        case "semiannual": return .months(6)
        case "yearly", "annual": return .years(1)
        case "biannual", "biyearly": return .years(2)
        default: break
        }
        if text.hasPrefix("p") {
            // ISO 8601: PnD, PnW, PnM (calendar months), P1Y and P2Y (calendar years).
            let body = text.dropFirst()
            guard let unit = body.last, let n = Int(body.dropLast()), n >= 1 else { return nil }
            switch unit {
            case "d": return checked(.days(n))
            case "w": return checked(.weeks(n))
            case "m": return checked(.months(n))
            case "y" where n <= 2: return .years(n)
            default: return nil
            }
        }
        let digits = text.prefix(while: \.isNumber)
        guard !digits.isEmpty, let n = Int(digits), n >= 1 else { return nil }
        let unit = text.dropFirst(digits.count).trimmingBlanks()
        // Taskwarrior's own cases first: a number ending in m is calendar months, in q quarters.
        if unit == "m" { return checked(.months(n)) }
        if unit == "q" { return checked(.months(3 * n)) }
        if dayUnits.contains(unit) { return checked(.days(n)) }
        if weekUnits.contains(unit) { return checked(.weeks(n)) }
        if monthDurationUnits.contains(unit) { return checked(.days(30 * n)) }
        if yearDurationUnits.contains(unit) { return checked(.days(365 * n)) }
        return nil
    }

    /// Within the INTERVAL an RRULE here may have.
    private static func checked(_ step: Step) -> Step? {
        switch step {
        case .days(let n), .weeks(let n), .months(let n), .years(let n): (1...1000).contains(n) ? step : nil
        case .weekdays: step
        }
    }
}
