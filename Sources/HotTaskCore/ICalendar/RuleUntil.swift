import FoundationEssentials
import Glibc

/// RRULE's UNTIL in the value type its series' start has (RFC 5545 §3.3.10): a DATE for a
/// dated series, a local time for a floating one, a UTC time for one in UTC or in a named
/// zone. HotTask's rules hold UNTIL as the last day of the series (or the instant Taskwarrior
/// gave); a calendar object gets it in the type its DTSTART (else DUE) asks for, and a reader
/// takes back the day it was written from. A value that is not one HotTask would write (a
/// phone's) is read as it came.
enum RuleUntil {
    /// `todo`'s RRULE with UNTIL in its start's type; unchanged when it already is.
    static func match(_ todo: inout ICalComponent) {
        guard let start = todo.first("DTSTART") ?? todo.first("DUE"),
            let index = todo.properties.firstIndex(where: { $0.name == "RRULE" }),
            let matched = matched(todo.properties[index].value, start: start)
        else { return }
        todo.properties[index].value = matched
    }

    /// The RRULE value with UNTIL written as `start`'s type asks; nil when it needs no change.
    static func matched(_ rrule: String, start: ICalProperty) -> String? {
        guard let until = untilValue(rrule), let startDate = DueDate.fromICalendar(start) else { return nil }
        let written = value(until, for: startDate)
        guard let written, written != until else { return nil }
        return replacingUntil(in: rrule, with: written)
    }

    /// The RRULE value as HotTask holds it: an UNTIL a writer of `value(_:for:)` gave from a day
    /// read back as that day; any other as it came.
    static func read(_ rrule: String, start: ICalProperty?) -> String {
        guard let until = untilValue(rrule), until.count > 8, let start, let startDate = DueDate.fromICalendar(start) else { return rrule }
        let day = String(until.prefix(8))
        for candidate in [day, shifted(day, by: -1), shifted(day, by: 1)].compactMap({ $0 }) where value(candidate, for: startDate) == until {
            return replacingUntil(in: rrule, with: candidate)
        }
        return rrule
    }

    /// The RRULE value as `Recurrence` steps it, on wall clocks: a UTC UNTIL of a series in a
    /// named zone as that zone's clocks read it.
    static func forStepping(_ rrule: String, start: ICalProperty?) -> String {
        let held = read(rrule, start: start)
        guard let until = untilValue(held), until.hasSuffix("Z"), let start, let startDate = DueDate.fromICalendar(start),
            case .named(let name)? = startDate.zone, let wall = Recurrence.WallTime(until)
        else { return held }
        let instant = Int64(wall.date.timeIntervalSince1970)
        let offset = (ZoneInfo(identifier: name) ?? DueDate.utc).secondsFromGMT(for: wall.date)
        let local = Timestamp.formatCompact(Date(timeIntervalSince1970: TimeInterval(instant + Int64(offset))))
        return replacingUntil(in: held, with: local.replacing("Z", with: ""))
    }

    /// UNTIL (`YYYYMMDD`, `YYYYMMDDTHHMMSS` or with `Z`) in the type `start` asks for: the
    /// last second of a day in the start's zone, a time's day for a dated series.
    static func value(_ until: String, for start: DueDate) -> String? {
        guard let wall = Recurrence.WallTime(until) else { return nil }
        guard let zone = start.zone else { return String(until.prefix(8)) }
        // The wall-clock reading UNTIL gives: a day ends at 23:59:59.
        let wallSeconds = Int64(wall.date.timeIntervalSince1970) + (wall.isDateOnly ? 86_399 : 0)
        let text: (Int64) -> String = { seconds in
            Timestamp.formatCompact(Date(timeIntervalSince1970: TimeInterval(seconds))).replacing("Z", with: "")
        }
        switch zone {
        case .floating:
            return text(wallSeconds)
        case .utc:
            return text(wallSeconds) + "Z"
        case .named(let name):
            if !wall.isDateOnly && wall.isUTC { return until }
            let timeZone = ZoneInfo(identifier: name) ?? DueDate.utc
            return text(DueDate.instant(wall: wallSeconds, in: timeZone)) + "Z"
        }
    }

    private static func untilValue(_ rrule: String) -> String? {
        for part in rrule.split(separator: ";") where part.uppercased().hasPrefix("UNTIL=") {
            return String(part.dropFirst(6)).uppercased()
        }
        return nil
    }

    private static func replacingUntil(in rrule: String, with until: String) -> String {
        rrule.split(separator: ";").map { $0.uppercased().hasPrefix("UNTIL=") ? "UNTIL=" + until : String($0) }.joined(separator: ";")
    }

    private static func shifted(_ day: String, by days: Int) -> String? {
        guard let wall = Recurrence.WallTime(day) else { return nil }
        return wall.moved(by: TimeInterval(days * 86_400))
    }
}
