import FoundationEssentials
import Glibc

/// The part of a VTODO HotTask does not model, carried (`CarriedFields`) as the whole VTODO's
/// text, preceded by the VTIMEZONEs its TZIDs name, and written back on export with HotTask's
/// fields changed on it (`TodoMapping.write`): RRULE, X- properties and every parameter keep
/// their bytes, and a UID from elsewhere stays that UID. DESCRIPTION and CATEGORIES are the
/// task's note and tags: they are carried without their values (which the task holds), to keep
/// their place and parameters, and get the task's values back on the way out.
enum ICalendarCarry {
    /// What HotTask's own export writes, without parameters: a VTODO of only these (with the
    /// UID HotTask would give its id, PRIORITY 1 or none) has nothing to carry, so importing
    /// HotTask's own export stays as fast as it was.
    static let written: Set<String> = [
        "UID", "SUMMARY", "STATUS", "COMPLETED", "CREATED", "LAST-MODIFIED", "DTSTAMP", "SEQUENCE",
        TodoMapping.clocksProperty, "X-APPLE-SORT-ORDER", "DESCRIPTION", "CATEGORIES", TodoMapping.repeatFromProperty,
    ]

    /// Properties HotTask models that may be carried for their place and parameters: carried
    /// with an empty value, which `filling` gives back from the task.
    static let modelled: Set<String> = ["DESCRIPTION", "CATEGORIES"]

    /// Properties worth naming in the import's report (what a person would miss), by name.
    static func reported(_ todo: ICalComponent) -> [String] {
        var names = Set<String>()
        // A rule HotTask steps is the task's repeat rule, not something it lacks.
        let repeats = !TodoMapping.readRepeat(todo).isNone
        // The parent relation is the task's parent (`TodoMappingParent`), not something it lacks.
        let parent = TodoMapping.parentRelation(of: todo)?.index
        for (index, property) in todo.properties.enumerated() where !written.contains(property.name) && property.name != "PRIORITY" {
            if repeats && property.name == "RRULE" { continue }
            // A due date read is the task's due date: nothing a person misses (every import of
            // an export said "no such field: DUE").
            if property.name == "DUE", DueDate.fromICalendar(property) != nil { continue }
            if index == parent { continue }
            names.insert(property.name)
        }
        if let priority = todo.first("PRIORITY")?.value.trimmingBlanks(), priority != "1", priority != "0" {
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
                    || isOwnParent($0) || isOwnDue($0)
            }
        if plain { return nil }
        var text = ""
        for name in tzids(of: todo) { if let zone = timezones[name] { zone.write(to: &text) } }
        var carried = todo
        for index in carried.properties.indices where modelled.contains(carried.properties[index].name) {
            carried.properties[index].value = ""
        }
        carried.write(to: &text)
        return text
    }

    /// A parent relation as HotTask's own export writes it: `RELATED-TO;RELTYPE=PARENT:<id>`.
    private static func isOwnParent(_ property: ICalProperty) -> Bool {
        property.name == "RELATED-TO" && property.parameters == ";RELTYPE=PARENT"
            && UUID(uuidString: property.value).map(TodoMapping.uid(for:)) == property.value
    }

    /// A due date as HotTask's own export writes it (`DueDate.iCalendarProperty`), a day or a
    /// UTC or floating time: nothing to carry (30,000 of an export's 100,000 to-dos were kept
    /// whole for it). A time in a named zone is carried with its VTIMEZONE, which HotTask does
    /// not compare with its own: another app's definition (a custom TZID) must go back with it.
    private static func isOwnDue(_ property: ICalProperty) -> Bool {
        property.name == "DUE" && ICalendarCarry.tzidValueStart(in: property.parameters) == nil
            && DueDate.fromICalendar(property)?.iCalendarProperty == property
    }

    /// The UID of the VTODO a record carries, for a subtask's RELATED-TO naming it.
    static func uid(ofRecord record: String) -> String? {
        (try? ICalendar.parse(record))?.last?.first("UID")?.text
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

    /// A calendar object of its own for a record (its VTIMEZONEs and VTODO, the task's note and
    /// tags filled in), and the VTODO's UID.
    static func calendar(from record: String, for task: TaskItem) -> (calendar: ICalComponent, uid: String)? {
        guard var parsed = try? ICalendar.parse(record), var todo = parsed.last, todo.name == "VTODO", let uid = todo.first("UID")?.text
        else { return nil }
        filling(&todo, from: task)
        parsed[parsed.count - 1] = todo
        let header = [ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: "-//HotTask//HotTask//EN")]
        return (ICalComponent(name: "VCALENDAR", properties: header, components: parsed), uid)
    }

    /// The carried VTODO with the values `record` left out given back from `task`: a
    /// DESCRIPTION carried empty gets its note (or goes, when it has none), a CATEGORIES its
    /// tags. A record from before HotTask read them holds their values, which stay.
    static func filling(_ todo: inout ICalComponent, from task: TaskItem) {
        var tagsWritten = false
        todo.properties = todo.properties.compactMap { property in
            guard modelled.contains(property.name), property.value.isEmpty else { return property }
            var filled = property
            switch property.name {
            case "DESCRIPTION":
                guard !task.note.isEmpty else { return nil }
                filled.value = ICalendar.escape(task.note)
            default:
                guard !task.tags.isEmpty, !tagsWritten else { return nil }
                tagsWritten = true
                filled.value = task.tags.map(ICalendar.escape).joined(separator: ",")
            }
            return filled
        }
    }

    /// The components to write for `task` from its record: its VTIMEZONEs (the writer writes each
    /// once), and
    /// the VTODO as it came when HotTask's fields read the same on it, else with them written
    /// onto it. nil when the record does not read (the task is then written as HotTask's own).
    static func components(
        for task: TaskItem, record: String, sortOrder: Int, now: Date, parentUID: (UUID) -> String? = { _ in nil }
    ) -> [ICalComponent]? {
        guard let parsed = try? ICalendar.parse(record), var todo = parsed.last, todo.name == "VTODO",
            let uid = todo.first("UID")?.text
        else { return nil }
        filling(&todo, from: task)
        var out: [ICalComponent] = []
        for zone in parsed.dropLast() where zone.name == "VTIMEZONE" {
            out.append(zone)
        }
        let calendar = ICalComponent(name: "VCALENDAR", components: [todo])
        let remote = TodoMapping.read(calendar).todo
        let fields = SharedFields(
            task, sortOrder: todo.first("X-APPLE-SORT-ORDER") == nil ? nil : sortOrder, keepingUnreadFrom: remote?.fields)
        if let remote, remote.fields.same(fields, order: false) { return out + [todo] }
        let written = TodoMapping.write(
            fields, uid: uid, clocks: task.clocks, created: task.createdAt, onto: calendar, now: now, parentUID: parentUID)
        return out + written.components
    }
}
