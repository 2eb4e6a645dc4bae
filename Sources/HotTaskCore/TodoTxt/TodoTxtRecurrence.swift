import FoundationEssentials
import Glibc

/// todo.txt's repeat tag, as Simpletask writes it (`rec:` then an optional `+`, a number and
/// one of `d`, `w`, `m`, `y`, `b`): `rec:1w` counts a week from the day the task is done,
/// `rec:+1w` a week from its due date. `b` is a business day; HotTask steps only `1b` (the
/// next weekday: the rule `weekdays` makes), since RRULE cannot skip N weekdays at a time.
///
/// A `rec:` word that says no rule HotTask steps (`rec:0d`, `rec:2b`, `rec:often`) is not one:
/// it stays in the caption, so nothing of the line is lost. A rule that `rec:` cannot say
/// (`every mon,thu`, COUNT, UNTIL) is written as no `rec:` at all, and kept here by an import
/// of a line without one (see `TaskList.importing`).
enum TodoTxtRecurrence {
    /// The most steps one `rec:` takes: RRULE's INTERVAL as `Recurrence` reads it.
    private static let largest = 1_000
    private static let weekdays = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"

    /// The rule a `rec:` word says; nil when it is not a `rec:` word HotTask steps.
    static func rule(from word: Substring) -> RepeatRule? {
        let utf8 = word.utf8
        guard utf8.count >= 6, utf8.starts(with: "rec:".utf8) else { return nil }
        var value = word.dropFirst(4)
        let strict = value.first == "+"
        if strict { value = value.dropFirst() }
        guard let unit = value.last, value.count >= 2, value.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int(value.dropLast()), (1...largest).contains(count), value.dropLast().first != "0"
        else { return nil }
        let rrule: String
        if unit == "b" {
            guard count == 1 else { return nil }
            rrule = weekdays
        } else {
            guard let frequency = units.first(where: { $0.unit == unit })?.frequency else { return nil }
            rrule = "FREQ=" + frequency
        }
        let interval = unit == "b" || count == 1 ? "" : ";INTERVAL=\(count)"
        return RepeatRule(rrule: rrule + interval)?.counting(afterDone: !strict)
    }

    /// todo.txt's units and the RRULE frequencies they are, both ways.
    private static let units: [(unit: Character, frequency: Substring)] = [
        ("d", "DAILY"), ("w", "WEEKLY"), ("m", "MONTHLY"), ("y", "YEARLY"),
    ]

    /// The `rec:` word for `rule`, the one way `rule(from:)` reads it back; nil when `rec:`
    /// cannot say it (days of the week, COUNT, UNTIL) or there is none.
    static func word(for rule: RepeatRule) -> String? {
        guard !rule.isNone else { return nil }
        let sign = rule.afterDone ? "" : "+"
        if rule.rrule == weekdays { return "rec:" + sign + "1b" }
        var frequency: Substring = ""
        var interval: Substring = "1"
        for part in rule.rrule.split(separator: ";") {
            if part.hasPrefix("FREQ=") {
                frequency = part.dropFirst(5)
            } else if part.hasPrefix("INTERVAL=") {
                interval = part.dropFirst(9)
            } else {
                return nil
            }
        }
        guard let unit = units.first(where: { $0.frequency == frequency })?.unit else { return nil }
        return "rec:" + sign + interval + String(unit)
    }

    /// True when `rec:` can say the rule (or there is none).
    static func says(_ rule: RepeatRule) -> Bool { rule.isNone || word(for: rule) != nil }
}
