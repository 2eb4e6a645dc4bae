import Foundation

/// The part of a VTODO HotTask does not model, carried (`CarriedFields`) as the whole VTODO's
/// text, preceded by the VTIMEZONEs its TZIDs name, and written back on export with HotTask's
/// fields changed on it (`TodoMapping.write`): DESCRIPTION, CATEGORIES, RRULE, X- properties
/// and every parameter keep their bytes, and a UID from elsewhere stays that UID.
enum ICalendarCarry {
    /// What HotTask's own export writes, without parameters: a VTODO of only these (with the
    /// UID HotTask would give its id, PRIORITY 1 or none) has nothing to carry, so importing
    /// HotTask's own export stays as fast as it was.
    static let written: Set<String> = [
        "UID", "SUMMARY", "STATUS", "COMPLETED", "CREATED", "LAST-MODIFIED", "DTSTAMP", "SEQUENCE",
        TodoMapping.clocksProperty, "X-APPLE-SORT-ORDER",
    ]

    /// Properties worth naming in the import's report (what a person would miss), by name.
    static func reported(_ todo: ICalComponent) -> [String] {
        var names = Set<String>()
        for property in todo.properties where !written.contains(property.name) && property.name != "PRIORITY" {
            names.insert(property.name)
        }
        if let priority = todo.first("PRIORITY")?.value.trimmingCharacters(in: .whitespaces), priority != "1", priority != "0" {
            names.insert("PRIORITY")
        }
        for component in todo.components { names.insert(component.name) }
        return names.sorted()
    }

    /// The record to carry for `todo`, or nil when HotTask's own export would write it the same.
    static func record(of todo: ICalComponent, id: UUID, timezones: [String: ICalComponent]) -> String? {
        let plain =
            todo.components.isEmpty && todo.first("UID")?.text == TodoMapping.uid(for: id)
            && todo.properties.allSatisfy {
                ($0.parameters.isEmpty && written.contains($0.name) && plainValue($0)) || ($0.name == "PRIORITY" && $0.value == "1")
            }
        if plain { return nil }
        var text = ""
        for name in tzids(of: todo) { if let zone = timezones[name] { zone.write(to: &text) } }
        todo.write(to: &text)
        return text
    }

    /// A value HotTask's own export would write: an open or done STATUS, SEQUENCE 0.
    private static func plainValue(_ property: ICalProperty) -> Bool {
        switch property.name {
        case "STATUS": property.value == "NEEDS-ACTION" || property.value == "COMPLETED"
        case "SEQUENCE": property.value == "0"
        default: true
        }
    }

    /// The TZIDs a component's properties (and those of the components inside it) name.
    static func tzids(of component: ICalComponent) -> [String] {
        var names: [String] = []
        for property in component.properties where !property.parameters.isEmpty {
            guard let start = tzidValueStart(in: property.parameters) else { continue }
            var name = property.parameters[start...].prefix { $0 != ";" && $0 != ":" }
            if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = name.dropFirst().dropLast() }
            if !names.contains(String(name)) { names.append(String(name)) }
        }
        for inner in component.components { names += tzids(of: inner).filter { !names.contains($0) } }
        return names
    }

    /// Where the value of a `;TZID=` parameter (in any case) starts, found in the bytes: every
    /// to-do an export writes is asked, and Foundation's case-insensitive search was a fifth
    /// of an iCalendar export.
    static func tzidValueStart(in parameters: String) -> String.Index? {
        let pattern = Array(";TZID=".utf8)
        let utf8 = parameters.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            var probe = index
            var matched = 0
            while matched < pattern.count, probe != utf8.endIndex {
                let byte = utf8[probe]
                guard (0x61...0x7A).contains(byte) ? byte - 0x20 == pattern[matched] : byte == pattern[matched] else { break }
                matched += 1
                probe = utf8.index(after: probe)
            }
            if matched == pattern.count { return probe }
            index = utf8.index(after: index)
        }
        return nil
    }

    /// A calendar object of its own for a record (its VTIMEZONEs and VTODO), and the VTODO's UID.
    static func calendar(from record: String) -> (calendar: ICalComponent, uid: String)? {
        guard let parsed = try? ICalendar.parse(record), let todo = parsed.last, todo.name == "VTODO", let uid = todo.first("UID")?.text
        else { return nil }
        let header = [ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: "-//HotTask//HotTask//EN")]
        return (ICalComponent(name: "VCALENDAR", properties: header, components: parsed), uid)
    }

    /// The components to write for `task` from its record: its VTIMEZONEs (the writer writes each
    /// once), and
    /// the VTODO as it came when HotTask's fields read the same on it, else with them written
    /// onto it. nil when the record does not read (the task is then written as HotTask's own).
    static func components(
        for task: TaskItem, record: String, sortOrder: Int, now: Date
    ) -> [ICalComponent]? {
        guard let parsed = try? ICalendar.parse(record), let todo = parsed.last, todo.name == "VTODO",
            let uid = todo.first("UID")?.text
        else { return nil }
        var out: [ICalComponent] = []
        for zone in parsed.dropLast() where zone.name == "VTIMEZONE" {
            out.append(zone)
        }
        let calendar = ICalComponent(name: "VCALENDAR", components: [todo])
        if case .todo(let remote) = TodoMapping.read(calendar), remote.fields.caption == task.caption,
            remote.fields.section == task.section, remote.fields.completed == task.completed, remote.fields.due == task.due
        {
            return out + [todo]
        }
        let fields = SharedFields(
            caption: task.caption, section: task.section, completed: task.completed, completedAt: task.completedAt,
            sortOrder: todo.first("X-APPLE-SORT-ORDER") == nil ? nil : sortOrder, due: task.due)
        let written = TodoMapping.write(fields, uid: uid, clocks: task.clocks, created: task.createdAt, onto: calendar, now: now)
        return out + written.components
    }
}
