import FoundationEssentials
import Glibc

/// What a person types for a repeat rule (`--repeat RULE`, the app's repeat prompt), in the
/// English words of `DateWords` that due dates are said in: `daily`, `weekly`, `monthly`,
/// `yearly`, `weekdays`, `every day|week|month|year`, `every N days|weeks|months|years`,
/// `every mon,thu` (weekdays by three letters or in full, with commas, spaces or `and`), an
/// RRULE HotTask can step (`FREQ=WEEKLY;BYDAY=SU`), or `none` to stop repeating. Any rule may
/// end in `after done`: it then counts from the day the task is done (`every 2 weeks after
/// done`), as todo.txt's `rec:2w` does.
public enum RepeatInput {
    /// Why an entry was refused: the message quotes it and lists the forms.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        let value: String

        public var description: String { "“" + value + "” is not a repeat rule; use " + RepeatInput.forms }
    }

    /// The forms, as messages and help list them.
    public static let forms = "daily, weekly, monthly, yearly, weekdays, every N days|weeks|months|years, every mon,thu, or none"

    public static func parse(_ text: String) -> Result<RepeatRule, Refusal> {
        let trimmed = text.trimmingBlanks()
        let lowered = trimmed.lowercased()
        for ending in [" after done", ";x-hottask-from=done"] where lowered.hasSuffix(ending) {
            let rule = String(trimmed.dropLast(ending.count)).trimmingBlanks()
            guard case .success(let read) = plain(rule), !read.isNone else { return .failure(Refusal(value: text)) }
            return .success(read.counting(afterDone: true))
        }
        return plain(text)
    }

    /// A rule without `after done`.
    private static func plain(_ text: String) -> Result<RepeatRule, Refusal> {
        let refused = Result<RepeatRule, Refusal>.failure(Refusal(value: text))
        let trimmed = text.trimmingBlanks()
        if trimmed.uppercased().hasPrefix("FREQ=") { return RepeatRule(rrule: trimmed).map { .success($0) } ?? refused }
        let words = trimmed.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).filter { $0 != "and" }
        func rule(_ rrule: String) -> Result<RepeatRule, Refusal> { RepeatRule(rrule: rrule).map { .success($0) } ?? refused }
        func frequency(_ unit: DateWords.Unit) -> String {
            switch unit {
            case .day: "DAILY"
            case .week: "WEEKLY"
            case .month: "MONTHLY"
            case .year: "YEARLY"
            }
        }
        switch words.count {
        case 0: return refused
        case 1:
            switch words[0] {
            case "none": return .success(.none)
            case "daily": return rule("FREQ=DAILY")
            case "weekly": return rule("FREQ=WEEKLY")
            case "monthly": return rule("FREQ=MONTHLY")
            case "yearly", "annually": return rule("FREQ=YEARLY")
            case "weekdays": return rule("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
            default: return refused
            }
        default:
            guard words[0] == "every" else { return refused }
            let rest = Array(words.dropFirst())
            if rest == ["weekday"] { return rule("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR") }
            if rest.count == 1, let unit = DateWords.Unit(rest[0]), !rest[0].hasSuffix("s") { return rule("FREQ=" + frequency(unit)) }
            if rest.count == 2, let count = DateWords.count(rest[0]), (1...1000).contains(count), let unit = DateWords.Unit(rest[1]) {
                return rule("FREQ=" + frequency(unit) + (count == 1 ? "" : ";INTERVAL=\(count)"))
            }
            let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
            var days: [Int] = []
            for word in rest {
                guard let weekday = DateWords.weekday(word) ?? DateWords.weekday(word.hasSuffix("s") ? word.dropLast() : word) else {
                    return refused
                }
                if !days.contains(weekday) { days.append(weekday) }
            }
            // Monday first, as a week runs.
            let ordered = days.sorted { ($0 + 6) % 7 < ($1 + 6) % 7 }
            return rule("FREQ=WEEKLY;BYDAY=" + ordered.map { codes[$0] }.joined(separator: ","))
        }
    }
}
