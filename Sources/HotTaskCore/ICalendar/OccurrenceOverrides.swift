import FoundationEssentials
import Glibc

/// Occurrences a phone changed on their own (RFC 5545 §3.8.4.4): a second VTODO with the series'
/// UID and a RECURRENCE-ID naming the occurrence's original start. Thunderbird and Nextcloud write
/// one when a single occurrence is moved, renamed or completed.
///
/// HotTask shows a series as one task: the first occurrence, from the master's start on, that no
/// override completed or cancelled, with the override's own text, date and fields when it has one.
/// Occurrences a phone completed are settled into the master when HotTask writes the object (the
/// master moves past them, as completing here moves it), and an edit here to an occurrence that
/// has an override goes to that override, so that the next occurrence has the series' own text.
enum OccurrenceOverrides {
    /// Properties of an override that say which occurrence it is, or belong to the series, or to
    /// the object's place in the list: never laid over the occurrence HotTask shows.
    static let seriesProperties: Set<String> = [
        "UID", "RECURRENCE-ID", "RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTAMP", "SEQUENCE", "CREATED", "LAST-MODIFIED",
        "X-APPLE-SORT-ORDER", TodoMapping.clocksProperty,
    ]

    /// The VTODO HotTask reads for this calendar object: the master moved on past the occurrences
    /// overrides completed or cancelled, with the override of the occurrence it lands on laid
    /// over it. The master itself when there are no overrides.
    static func shown(_ master: ICalComponent, in calendar: ICalComponent) -> ICalComponent {
        var overrides = calendar.components.filter { $0.name == "VTODO" && $0.first("RECURRENCE-ID") != nil }
        guard !overrides.isEmpty, master.first("RRULE") != nil else { return master }
        var current = master
        while let found = overrides.firstIndex(where: { isOverride($0, ofStartOf: current) }) {
            let occurrence = overrides.remove(at: found)
            guard isClosed(occurrence) else { return laid(occurrence, over: current) }
            switch Recurrence.advance(current) {
            case .next(let next):
                current = next
            case .lastOccurrence:
                // The series' last occurrence was completed there: the task is done.
                var done = current
                TodoMapping.setCompleted(true, at: occurrence.first("COMPLETED").flatMap { ICalendar.date($0.value) } ?? Date(), on: &done)
                return done
            case .notRepeating, .unsupported:
                return current
            }
        }
        return current
    }

    /// Settles the object before HotTask writes onto it: the master moves past the occurrences
    /// overrides completed or cancelled (those overrides go: they name occurrences that are no
    /// longer in the series). Returns the index of the open override of the occurrence the master
    /// now starts at, if there is one.
    static func settle(_ calendar: inout ICalComponent, master: inout Int) -> Int? {
        guard calendar.components[master].first("RRULE") != nil else { return nil }
        while let found = calendar.components.indices.first(where: { index in
            index != master && calendar.components[index].name == "VTODO"
                && isOverride(calendar.components[index], ofStartOf: calendar.components[master])
        }) {
            guard isClosed(calendar.components[found]) else { return found }
            guard let next = Recurrence.nextOccurrence(of: calendar.components[master]) else { return nil }
            calendar.components[master] = next
            calendar.components.remove(at: found)
            if found < master { master -= 1 }
        }
        return nil
    }

    /// Whether `candidate` overrides the occurrence `series` starts at.
    static func isOverride(_ candidate: ICalComponent, ofStartOf series: ICalComponent) -> Bool {
        guard let recurrence = candidate.first("RECURRENCE-ID"), let start = series.first("DTSTART") ?? series.first("DUE"),
            let named = instant(recurrence), let starts = instant(start)
        else { return false }
        return named == starts
    }

    /// The occurrence as the override has it: the series' fields, with the override's own.
    static func laid(_ occurrence: ICalComponent, over series: ICalComponent) -> ICalComponent {
        var shown = series
        let names = Set(occurrence.properties.map(\.name)).subtracting(seriesProperties)
        shown.properties.removeAll { names.contains($0.name) }
        shown.properties += occurrence.properties.filter { names.contains($0.name) }
        // Changed there after the series was: its fields' clocks no longer tell what changed when.
        if let changed = occurrence.first("LAST-MODIFIED"), let date = ICalendar.date(changed.value),
            shown.first("LAST-MODIFIED").flatMap({ ICalendar.date($0.value) }).map({ date > $0 }) ?? true
        {
            shown.set("LAST-MODIFIED", changed.value)
            shown.set(TodoMapping.clocksProperty, nil)
        }
        return shown
    }

    /// Completed or cancelled there: the series goes on without it.
    private static func isClosed(_ occurrence: ICalComponent) -> Bool {
        let status = occurrence.first("STATUS")?.value.uppercased()
        return status == "COMPLETED" || status == "CANCELLED"
    }

    /// A DATE or DATE-TIME as one instant, so that a RECURRENCE-ID in UTC names a start written
    /// in a zone (DATE and floating values as their wall clock).
    private static func instant(_ property: ICalProperty) -> Date? {
        guard let wall = Recurrence.WallTime(property.value) else { return nil }
        guard !wall.isDateOnly, !wall.isUTC, let zone = DueDate.parameter("TZID", in: property.parameters),
            let timeZone = ZoneInfo(identifier: zone)
        else { return wall.date }
        // The offset in force at that wall time (looked up near it: close enough to tell one
        // occurrence from the next).
        return wall.date - TimeInterval(timeZone.secondsFromGMT(for: wall.date - TimeInterval(timeZone.secondsFromGMT(for: wall.date))))
    }
}
