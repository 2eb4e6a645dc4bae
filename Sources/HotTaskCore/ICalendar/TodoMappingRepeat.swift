import FoundationEssentials
import Glibc

/// A VTODO's repeat: RRULE ↔ `RepeatRule`, and DTSTART kept on the series' start as DUE moves.
extension TodoMapping {
    /// The repeat rule HotTask reads from a VTODO's RRULE: one it can step exactly, alone (no
    /// RDATE, EXDATE or a second RRULE); `.none` for any other, which is then never written over
    /// unless a rule is set here.
    /// `X-HOTTASK-REPEAT-FROM:DONE` beside it says the rule counts from the day the task is done.
    static func readRepeat(_ todo: ICalComponent) -> RepeatRule {
        let rules = todo.properties.filter { $0.name == "RRULE" }
        guard rules.count == 1, todo.first("RDATE") == nil, todo.first("EXDATE") == nil, todo.first("EXRULE") == nil else { return .none }
        let afterDone = todo.first(repeatFromProperty)?.value.uppercased() == "DONE"
        let rrule = RuleUntil.read(rules[0].value, start: todo.first("DTSTART") ?? todo.first("DUE"))
        return RepeatRule(rrule: rrule)?.counting(afterDone: afterDone) ?? .none
    }

    /// Says, beside the RRULE, that HotTask counts the rule from the day the task is done (a
    /// calendar has no such rule: it steps the RRULE from DUE). An X- property, as RFC 5545
    /// allows; the RRULE itself stays standard.
    static let repeatFromProperty = "X-HOTTASK-REPEAT-FROM"

    /// RRULE as `rule` (none removes it), and `repeatFromProperty` for a rule counted from the
    /// day it is done. A rule needs a start (RFC 5545 §3.8.5.3): a VTODO without DTSTART gets
    /// its DUE's.
    static func setRepeat(_ rule: RepeatRule, on todo: inout ICalComponent) {
        todo.set(repeatFromProperty, rule.afterDone ? "DONE" : nil)
        guard !rule.isNone else {
            todo.set("RRULE", nil)
            return
        }
        todo.set("RRULE", rule.rrule)
        if todo.first("DTSTART") == nil, let due = todo.first("DUE") {
            todo.properties.append(ICalProperty(name: "DTSTART", parameters: due.parameters, value: due.value))
        }
    }

    /// The next occurrence of a series starts open and not begun.
    static func reopenForNextOccurrence(_ todo: inout ICalComponent) {
        todo.set("STATUS", "NEEDS-ACTION")
        todo.set("COMPLETED", nil)
        if todo.first("PERCENT-COMPLETE") != nil { todo.set("PERCENT-COMPLETE", "0") }
        todo.set(openStatusProperty, nil)
    }

    /// A repeating VTODO's DTSTART moves with its DUE (a completion here advanced it), by the
    /// same wall-clock time, as a phone moves both.
    static func moveStart(from old: DueDate?, to new: DueDate?, on todo: inout ICalComponent) {
        guard let old, let new, old != new, todo.first("RRULE") != nil,
            let index = todo.properties.firstIndex(where: { $0.name == "DTSTART" }),
            let start = Recurrence.WallTime(todo.properties[index].value)
        else { return }
        if old.isDay != new.isDay || old.zone != new.zone {
            // A dated series given a time (or a time's zone changed): DTSTART takes DUE's type
            // (RFC 5545 §3.8.2.3), on its day.
            todo.properties[index] = ICalProperty(name: "DTSTART", parameters: new.iCalendarProperty.parameters, value: new.iCalendarProperty.value)
            return
        }
        todo.properties[index].value = start.moved(by: TimeInterval(new.wallSeconds - old.wallSeconds))
    }

}
