import FoundationEssentials
import Glibc

/// The fields HotTask and a calendar app share, as one side holds them: what a three-way merge
/// compares. `sortOrder` is `X-APPLE-SORT-ORDER` (lower first); nil when the task has none.
struct SharedFields: Equatable, Hashable, Sendable {
    /// The values, held as a task holds them (its id, dates, order and clocks unused), so that
    /// the field table reads and writes them as it does a task's.
    private var values: TaskItem
    var sortOrder: Int?

    init(caption: String, section: Section, completed: Bool, completedAt: Date? = nil, sortOrder: Int? = nil, due: DueDate? = nil) {
        values = TaskItem(
            id: Self.noID, caption: caption, section: section, completed: completed, createdAt: Self.noDate,
            modifiedAt: Self.noDate, due: due)
        values.completedAt = completed ? completedAt : nil
        self.sortOrder = sortOrder
    }

    /// A task's shared fields.
    init(_ task: TaskItem, sortOrder: Int? = nil) {
        self.init(caption: task.caption, section: task.section, completed: task.completed, completedAt: task.completedAt, sortOrder: sortOrder)
        for field in TaskField.shared { self[field] = field.value(of: task) }
    }

    /// `task`'s fields, but a field HotTask did not read before (`TaskField.oldBasesMean`: a
    /// note, tags) that the task was never given here keeps what `there` holds: a task imported
    /// or synced by an older HotTask has it empty, not cleared, and a file or server that holds
    /// one (a DESCRIPTION, CATEGORIES) keeps it.
    init(_ task: TaskItem, sortOrder: Int? = nil, keepingUnreadFrom there: SharedFields?) {
        self.init(task, sortOrder: sortOrder)
        guard let there else { return }
        for field in TaskField.shared where field.neverGiven(in: task) { self[field] = there[field] }
    }

    private static let noID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    private static let noDate = Date(timeIntervalSince1970: 0)

    var caption: String {
        get { values.caption }
        set { values.caption = newValue }
    }
    var section: Section {
        get { values.section }
        set { values.section = newValue }
    }
    var completed: Bool {
        get { values.completed }
        set { TaskField.completed.set(.completed(newValue), on: &values, now: nil) }
    }
    /// When it was done; nil while open (and when a calendar said done without when).
    var completedAt: Date? {
        get { values.completedAt }
        set { values.completedAt = newValue }
    }
    /// DUE.
    var due: DueDate? {
        get { values.due }
        set { values.due = newValue }
    }

    /// The value of a shared field (the field table's); nil for the order key, which a
    /// calendar holds as `sortOrder`.
    subscript(field: TaskField) -> FieldValue? {
        get { field.merge == .placement ? nil : field.value(of: values) }
        set {
            guard let newValue, field.merge != .placement else { return }
            field.set(newValue, on: &values, now: nil)
        }
    }

    /// True when both hold the same value of every shared field (and the same sort order when
    /// `order`), `completedAt` aside: the base does not keep it, and a server may give one
    /// where HotTask had none.
    func same(_ other: SharedFields, order: Bool) -> Bool {
        TaskField.shared.allSatisfy { self[$0] == other[$0] } && (!order || sortOrder == other.sortOrder)
    }
}

/// One VTODO as HotTask reads it from a calendar object.
struct RemoteTodo: Equatable, Sendable {
    var uid: String
    var fields: SharedFields
    var created: Date?
    var lastModified: Date?
    /// When HotTask last wrote each field (`X-HOTTASK-CLOCKS`), trusted only while the object's
    /// LAST-MODIFIED is the one HotTask wrote with them (a phone's edit leaves them stale).
    var clocks: FieldClocks?
    /// The whole calendar object, for writing it back with HotTask's fields changed.
    var calendar: ICalComponent

    /// A task with these fields (a to-do new here).
    func task(id: UUID, createdAt: Date, modifiedAt: Date) -> TaskItem {
        var task = TaskItem(id: id, caption: fields.caption, createdAt: createdAt, modifiedAt: modifiedAt)
        for field in TaskField.shared {
            if let value = fields[field] { field.set(value, on: &task, completedAt: fields.completedAt, now: createdAt) }
        }
        return task
    }

    /// When the other side changed each field, for "changed on both sides: the later wins".
    var fieldTimes: FieldClocks {
        if let clocks { return clocks }
        let stamp = Clock(milliseconds: Int64((lastModified ?? created ?? .distantPast).timeIntervalSince1970 * 1000))
        return FieldClocks(stamp)
    }
}

/// VTODO (RFC 5545) ↔ HotTask: UID ↔ id, SUMMARY ↔ caption, STATUS/COMPLETED ↔ completed,
/// PRIORITY 1–4 ↔ Top Priority (anything else Bonus), X-APPLE-SORT-ORDER ↔ manual order,
/// DUE ↔ due date, DESCRIPTION ↔ note, CATEGORIES ↔ tags, RELATED-TO;RELTYPE=PARENT ↔ parent
/// (`TodoMappingParent`). Every other property and component
/// is kept as it came.
public enum TodoMapping {
    static let clocksProperty = "X-HOTTASK-CLOCKS"

    enum Reading: Equatable, Sendable {
        case todo(RemoteTodo)
        /// Not a task HotTask takes (no VTODO, a CANCELLED one): left alone on the server.
        case ignored(String)
        /// Not readable (not iCalendar): neither taken nor taken as a delete; the reason is the
        /// parser's.
        case unreadable(String)

        /// The to-do, when it is one HotTask takes.
        var todo: RemoteTodo? {
            if case .todo(let todo) = self { return todo }
            return nil
        }
    }

    /// Reads one calendar object (the body of one `.ics` resource).
    static func read(_ text: String) -> Reading {
        let roots: [ICalComponent]
        do {
            roots = try ICalendar.parse(text)
        } catch {
            return .unreadable("\(error)")
        }
        guard let calendar = roots.first(where: { $0.name == "VCALENDAR" }) else { return .ignored("no VCALENDAR") }
        return read(calendar)
    }

    /// Reads the task a VCALENDAR holds: its master VTODO (the one without RECURRENCE-ID), at the
    /// occurrence HotTask shows (`OccurrenceOverrides`).
    static func read(_ calendar: ICalComponent) -> Reading {
        guard let todo = shownTodo(calendar) else { return .ignored("no VTODO") }
        guard let uid = todo.first("UID")?.text, !uid.isEmpty else { return .ignored("a VTODO without UID") }
        let status = todo.first("STATUS")?.value.uppercased()
        if status == "CANCELLED" { return .ignored("cancelled") }
        // Kept as it came, at any length; none, or an empty or blank one, is a to-do without a
        // title (Tasks.org and Reminders make them), shown as such.
        let caption = readCaption(todo)
        let completedAt = todo.first("COMPLETED").flatMap { ICalendar.date($0.value) }
        let completed = status == "COMPLETED" || (status == nil && completedAt != nil)
        let lastModified = todo.first("LAST-MODIFIED").flatMap { ICalendar.date($0.value) }
        var fields = SharedFields(
            caption: caption, section: section(priority: todo.first("PRIORITY")?.value), completed: completed,
            completedAt: completed ? (completedAt ?? lastModified) : nil,
            sortOrder: sortOrder(of: todo), due: todo.first("DUE").flatMap(DueDate.fromICalendar))
        fields[.note] = .note(readNote(todo))
        fields[.tags] = .tags(readTags(todo))
        fields[.repeatRule] = .repeatRule(readRepeat(todo))
        fields[.parent] = .parent(readParent(todo))
        var clocks: FieldClocks?
        if let written = todo.first(clocksProperty).flatMap({ StoreDocument.clocks(from: Substring($0.value)) }), let lastModified,
            Int64(lastModified.timeIntervalSince1970) == written.latest.milliseconds / 1000
        {
            clocks = written
        }
        return .todo(
            RemoteTodo(
                uid: uid, fields: fields, created: todo.first("CREATED").flatMap { ICalendar.date($0.value) },
                lastModified: lastModified, clocks: clocks, calendar: calendar))
    }

    /// The master VTODO at the occurrence HotTask shows: moved past the occurrences a phone
    /// completed, with the fields a phone gave that occurrence alone.
    static func shownTodo(_ calendar: ICalComponent) -> ICalComponent? {
        guard let master = calendar.components.first(where: { $0.name == "VTODO" && $0.first("RECURRENCE-ID") == nil }) else { return nil }
        return OccurrenceOverrides.shown(master, in: calendar)
    }

    /// X-APPLE-SORT-ORDER, or what Apple, Nextcloud Tasks and Tasks.org take when it is absent:
    /// the creation time, in seconds since 2001.
    static func sortOrder(of todo: ICalComponent) -> Int? {
        if let written = todo.first("X-APPLE-SORT-ORDER").flatMap({ Int($0.value.trimmingBlanks()) }) {
            // Clamped far inside Int's range: neighbours' values are added and subtracted.
            return min(max(written, -sortOrderLimit), sortOrderLimit)
        }
        let created = (todo.first("CREATED") ?? todo.first("DTSTAMP")).flatMap { ICalendar.date($0.value) }
        return created.map { Int($0.timeIntervalSinceReferenceDate) }
    }

    static let sortOrderLimit = 1 << 40

    /// PRIORITY 1–4 is Top Priority; 0, 5–9, none or anything unreadable is Bonus.
    static func section(priority: String?) -> Section {
        guard let value = priority.flatMap({ Int($0.trimmingBlanks()) }) else { return .bonus }
        return (1...4).contains(value) ? .priority : .bonus
    }

    /// Where a task's open status goes while it is completed here (`STATUS;PERCENT-COMPLETE`
    /// as they were), so that reopening it gives back IN-PROCESS and 40 % rather than 0.
    static let openStatusProperty = "X-HOTTASK-OPEN-STATUS"

    /// The calendar object with HotTask's fields written onto its VTODO (a new object when
    /// `base` is nil). Only what changed here is written: a property HotTask does not change
    /// keeps its bytes and parameters (LANGUAGE…), a SUMMARY whose caption reads the same is
    /// not rewritten (its line breaks stay), and an object from elsewhere gets no CREATED or
    /// X-APPLE-SORT-ORDER it did not have unless the task moved here. PRIORITY changes only
    /// when the section does; LAST-MODIFIED, DTSTAMP and SEQUENCE move on whenever anything
    /// does. Completing a repeating task completes this occurrence (`Recurrence`).
    /// `parentUID`: a parent's UID when it came from elsewhere (else the one HotTask gives an id).
    static func write(
        _ fields: SharedFields, uid: String, clocks: FieldClocks, created: Date, onto base: ICalComponent?, now: Date,
        parentUID: (UUID) -> String? = { _ in nil }
    ) -> ICalComponent {
        var calendar =
            base
            ?? ICalComponent(
                name: "VCALENDAR",
                properties: [ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: "-//HotTask//HotTask//EN")])
        var index = calendar.components.firstIndex { $0.name == "VTODO" && $0.first("RECURRENCE-ID") == nil }
        if index == nil {
            calendar.components.append(ICalComponent(name: "VTODO", properties: [ICalProperty(name: "UID", value: ICalendar.escape(uid))]))
            index = calendar.components.count - 1
        }
        if base != nil, let occurrence = OccurrenceOverrides.settle(&calendar, master: &index!) {
            write(fields, clocks: clocks, occurrence: occurrence, series: index!, in: &calendar, now: now, parentUID: parentUID)
            VTimezone.complete(&calendar)
            return calendar
        }
        var todo = calendar.components[index!]
        let before = todo
        let sortOrderBefore = sortOrder(of: todo)
        if readCaption(todo) != fields.caption { todo.setKeepingParameters("SUMMARY", ICalendar.escape(fields.caption)) }
        if section(priority: todo.first("PRIORITY")?.value) != fields.section {
            todo.set("PRIORITY", fields.section == .priority ? "1" : nil)
        }
        let wasCompleted = todo.first("STATUS")?.value.uppercased() == "COMPLETED"
        var advanced = false
        if fields.completed && !wasCompleted, let next = Recurrence.nextOccurrence(of: todo) {
            // This occurrence is done; the series goes on from the next one, open (and due then).
            todo = next
            advanced = true
        } else if wasCompleted != fields.completed || (fields.completed && todo.first("COMPLETED") == nil)
            || (base == nil && todo.first("STATUS") == nil)
        {
            setCompleted(fields.completed, at: fields.completedAt ?? now, on: &todo)
        }
        if !advanced {
            let dueBefore = todo.first("DUE").flatMap(DueDate.fromICalendar)
            // Completed here, the task moved to its next occurrence: the phone sees it open, from
            // the start, as `Recurrence` leaves a series it advanced.
            let nextOccurrence = dueBefore.flatMap { readRepeat(todo).next(after: $0)?.due }
            if let due = fields.due, due == nextOccurrence, !fields.completed, todo.first("DTSTART") != nil,
                let next = Recurrence.nextOccurrence(of: todo)
            {
                // A series with a start steps from it (its DUE may fall on another day than the
                // rule's): as a phone completes it. The sync takes its DUE back here.
                todo = next
            } else {
                if let due = fields.due, due == nextOccurrence, !fields.completed { reopenForNextOccurrence(&todo) }
                setDue(fields.due, on: &todo)
                if case .repeatRule(let rule)? = fields[.repeatRule], readRepeat(todo) != rule { setRepeat(rule, on: &todo) }
                moveStart(from: dueBefore, to: fields.due, on: &todo)
            }
        }
        if case .note(let note)? = fields[.note], readNote(todo) != note {
            if note.isEmpty { todo.set("DESCRIPTION", nil) } else { todo.setKeepingParameters("DESCRIPTION", ICalendar.escape(note)) }
        }
        if case .tags(let tags)? = fields[.tags], readTags(todo) != tags { setTags(tags, on: &todo) }
        if case .parent(let parent)? = fields[.parent] { setParent(parent, uid: parent.flatMap(parentUID), on: &todo) }
        if base == nil && todo.first("CREATED") == nil { todo.set("CREATED", ICalendar.format(created)) }
        if let order = fields.sortOrder, order != sortOrderBefore || (base == nil && todo.first("X-APPLE-SORT-ORDER") == nil) {
            todo.set("X-APPLE-SORT-ORDER", String(order))
        }
        // UNTIL in the type the (maybe newly timed or dated) start has.
        RuleUntil.match(&todo)
        if todo != before || base == nil { stamp(&todo, clocks: clocks, isNew: base == nil, now: now) }
        calendar.components[index!] = todo
        // Every TZID written has its VTIMEZONE in the object (RFC 5545 §3.2.19).
        VTimezone.complete(&calendar)
        return calendar
    }

    /// `write` for a series whose current occurrence a phone changed on its own (an override):
    /// completing it moves the series past it, and the override goes; any other edit goes to
    /// the override, so that the occurrences after it keep the series' own text and date.
    private static func write(
        _ fields: SharedFields, clocks: FieldClocks, occurrence: Int, series: Int, in calendar: inout ICalComponent, now: Date,
        parentUID: (UUID) -> String?
    ) {
        var master = calendar.components[series]
        var todo = calendar.components[occurrence]
        let shown = OccurrenceOverrides.laid(todo, over: master)
        let shownDue = shown.first("DUE").flatMap(DueDate.fromICalendar)
        // Completed here, a repeating task steps on from the date it showed (`ChangeRules.complete`).
        let steppedHere = shownDue.flatMap { readRepeat(master).next(after: $0)?.due }
        if fields.completed || (fields.due != nil && fields.due == steppedHere) {
            if let next = Recurrence.nextOccurrence(of: master) {
                master = next
                stamp(&master, clocks: clocks, isNew: false, now: now)
                calendar.components[series] = master
                calendar.components.remove(at: occurrence)
                return
            }
            // Its last occurrence: the series is done.
            let before = master
            setCompleted(true, at: fields.completedAt ?? now, on: &master)
            if master != before { stamp(&master, clocks: clocks, isNew: false, now: now) }
            calendar.components[series] = master
            calendar.components.remove(at: occurrence)
            return
        }
        let before = todo
        if readCaption(shown) != fields.caption { todo.setKeepingParameters("SUMMARY", ICalendar.escape(fields.caption)) }
        if section(priority: shown.first("PRIORITY")?.value) != fields.section {
            todo.set("PRIORITY", fields.section == .priority ? "1" : "0")
        }
        if shownDue != fields.due {
            if let due = fields.due { setDue(due, on: &todo) } else { todo.set("DUE", nil) }
        }
        if case .note(let note)? = fields[.note], readNote(shown) != note {
            todo.setKeepingParameters("DESCRIPTION", ICalendar.escape(note))
        }
        if case .tags(let tags)? = fields[.tags], readTags(shown) != tags { setTags(tags, on: &todo) }
        if todo != before {
            stamp(&todo, clocks: clocks, isNew: false, now: now)
            // The clocks say when the series' fields changed, not this occurrence's.
            todo.set(clocksProperty, nil)
            calendar.components[occurrence] = todo
        }
        // The parent is the series', not an occurrence's.
        let parentBefore = master
        if case .parent(let parent)? = fields[.parent] { setParent(parent, uid: parent.flatMap(parentUID), on: &master) }
        if master != parentBefore {
            stamp(&master, clocks: clocks, isNew: false, now: now)
            calendar.components[series] = master
        }
        if case .repeatRule(let rule)? = fields[.repeatRule], readRepeat(master) != rule {
            setRepeat(rule, on: &master)
            RuleUntil.match(&master)
            stamp(&master, clocks: clocks, isNew: false, now: now)
            calendar.components[series] = master
        }
    }

    /// LAST-MODIFIED, DTSTAMP, SEQUENCE and HotTask's field clocks for a VTODO written here.
    static func stamp(_ todo: inout ICalComponent, clocks: FieldClocks, isNew: Bool, now: Date) {
        let modified = max(clocks.latest.date, Date(timeIntervalSince1970: 0))
        todo.set("LAST-MODIFIED", ICalendar.format(modified))
        todo.set("DTSTAMP", ICalendar.format(now))
        let sequence = todo.first("SEQUENCE").flatMap { Int($0.value.trimmingBlanks()) } ?? 0
        todo.set("SEQUENCE", String(isNew ? 0 : min(sequence, Int(Int32.max) - 1) + 1))
        todo.set(clocksProperty, StoreDocument.clockText(clocks))
    }

    /// DUE as `due`, rewritten only when it reads differently (its bytes and TZID kept).
    /// Setting one drops a DURATION: RFC 5545 allows a VTODO one or the other.
    static func setDue(_ due: DueDate?, on todo: inout ICalComponent) {
        guard todo.first("DUE").flatMap(DueDate.fromICalendar) != due else { return }
        guard let due else {
            todo.set("DUE", nil)
            return
        }
        let property = due.iCalendarProperty
        if let index = todo.properties.firstIndex(where: { $0.name == "DUE" }) {
            todo.properties[index] = property
        } else {
            todo.properties.append(property)
        }
        todo.set("DURATION", nil)
    }

    /// The note HotTask reads from a VTODO's DESCRIPTION (the rule applied, cut at the limit).
    static func readNote(_ todo: ICalComponent) -> String {
        guard let description = todo.first("DESCRIPTION") else { return "" }
        return NoteRule.cleanCutting(description.text).note
    }

    /// The caption HotTask reads from a VTODO's SUMMARY: its text kept as it came
    /// (`CaptionRule.kept`), empty when there is none.
    static func readCaption(_ todo: ICalComponent) -> String {
        CaptionRule.kept(todo.first("SUMMARY")?.text ?? "")
    }

    /// STATUS, COMPLETED and PERCENT-COMPLETE for done or open. Done keeps the open status it
    /// replaces (when it was more than NEEDS-ACTION at 0 %); open gives it back.
    static func setCompleted(_ completed: Bool, at date: Date, on todo: inout ICalComponent) {
        let status = todo.first("STATUS")?.value.uppercased()
        let percent = todo.first("PERCENT-COMPLETE")?.value.trimmingBlanks()
        if completed {
            let worthKeeping = (status != nil && status != "NEEDS-ACTION" && status != "COMPLETED") || (percent != nil && percent != "0")
            if worthKeeping && status != "COMPLETED" {
                todo.set(openStatusProperty, "\(status ?? "");\(percent ?? "")")
            }
            todo.set("STATUS", "COMPLETED")
            todo.set("COMPLETED", ICalendar.format(date))
            if percent != nil { todo.set("PERCENT-COMPLETE", "100") }
        } else {
            let kept = todo.first(openStatusProperty)?.value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            let keptStatus = kept?.first.flatMap { $0.isEmpty ? nil : $0 }
            let keptPercent = kept.flatMap { $0.count > 1 && !$0[1].isEmpty ? $0[1] : nil }
            todo.set("STATUS", keptStatus ?? "NEEDS-ACTION")
            todo.set("COMPLETED", nil)
            if let keptPercent { todo.set("PERCENT-COMPLETE", keptPercent) } else if percent != nil { todo.set("PERCENT-COMPLETE", "0") }
            todo.set(openStatusProperty, nil)
        }
    }

    /// The local id of a task with this UID: the UID itself when it is a UUID, else a UUID
    /// made from its bytes, the same on every computer.
    public static func id(forUID uid: String) -> UUID {
        UUID(uuidString: uid) ?? UUIDBytes.derived(from: Array(uid.utf8))
    }

    /// The UID a task made in HotTask gets: its id in lowercase.
    static func uid(for id: UUID) -> String { id.uuidString.lowercased() }
}
