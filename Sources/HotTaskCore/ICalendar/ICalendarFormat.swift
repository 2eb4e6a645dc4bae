import FoundationEssentials
import Glibc

/// `.ics` files of VTODOs: `--export-format ics`, and `--import` of one (or of several
/// concatenated, as `cat ~/.calendars/tasks/*.ics` gives from a vdirsyncer or todoman folder).
/// The mapping is the sync's (`TodoMapping`); the manual order travels as X-APPLE-SORT-ORDER.
enum ICalendarFormat {
    /// True when the text starts (after whitespace or a byte-order mark) with BEGIN:VCALENDAR.
    static func looksLikeICalendar(_ bytes: [UInt8]) -> Bool {
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = String(decoding: bytes[start..<min(start + 15, bytes.endIndex)], as: UTF8.self)
        return head.uppercased() == "BEGIN:VCALENDAR"
    }

    /// One VCALENDAR holding a VTODO per task, in list order.
    static func text(for list: TaskList, now: Date = Date()) -> String {
        var bytes: [UInt8] = []
        write(list, now: now) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text(for:)` in pieces of about `pieceSize` bytes, each given to `emit` when full: each
    /// to-do is written as it is made, so the calendar is never held whole.
    ///
    /// A task imported from iCalendar is written from what its import carried (`ICalendarCarry`):
    /// its UID, its other properties and the VTIMEZONEs its times name. X-APPLE-SORT-ORDER runs
    /// on from Top Priority into Bonus, so that apps sorting by it keep the sections apart.
    /// A task's DTSTAMP is its last change, not the export's time: exporting an unchanged list
    /// twice gives the same bytes (`now` only for a task that has no time at all).
    /// `calendarName`, the one list exported, is the calendar's X-WR-CALNAME (the name Apple's,
    /// Google's and Thunderbird's calendars read and write).
    static func write(
        _ list: TaskList, carried: CarriedFields = CarriedFields(), calendarName: String? = nil, now: Date = Date(), pieceSize: Int = 1 << 18,
        emit: ([UInt8]) -> Void
    ) {
        var calendar = ICalComponent(
            name: "VCALENDAR",
            properties: [ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: "-//HotTask//HotTask//EN")])
        if let calendarName { calendar.set("X-WR-CALNAME", ICalendar.escape(calendarName)) }
        var text = ""
        var zonesWritten = Set<String>()
        var rank = 0
        calendar.write(to: &text) { text in
            for section in Section.allCases {
                for task in list.tasks(in: section) {
                    rank += 1
                    let stamp = Self.stamp(task, now: now)
                    // Each VTIMEZONE once, before the first to-do that names it (a made one too:
                    // every TZID written has its VTIMEZONE in the file).
                    func write(_ components: [ICalComponent]) {
                        for component in components {
                            if component.name == "VTIMEZONE" {
                                guard let name = component.first("TZID")?.text, zonesWritten.insert(name).inserted else { continue }
                            } else {
                                for name in ICalendarCarry.tzids(of: component) where !zonesWritten.contains(name) {
                                    guard let zone = VTimezone.component(for: name) else { continue }
                                    zonesWritten.insert(name)
                                    zone.write(to: &text)
                                }
                            }
                            component.write(to: &text)
                        }
                    }
                    // A parent from elsewhere is named by the UID it came with.
                    let parentUID = { (id: UUID) in carried.isEmpty ? nil : carried[id, .iCalendar].flatMap(ICalendarCarry.uid(ofRecord:)) }
                    if !carried.isEmpty, let record = carried[task.id, .iCalendar],
                        let components = ICalendarCarry.components(for: task, record: record, sortOrder: rank, now: stamp, parentUID: parentUID)
                    {
                        write(components)
                    } else {
                        let fields = SharedFields(task, sortOrder: rank)
                        var one = TodoMapping.write(
                            fields, uid: TodoMapping.uid(for: task.id), clocks: task.clocks, created: task.createdAt, onto: nil, now: stamp,
                            parentUID: parentUID)
                        // A task imported without any date has none to give: no made-up CREATED.
                        if task.createdAt.timeIntervalSince1970 <= 0 {
                            for index in one.components.indices { one.components[index].set("CREATED", nil) }
                        }
                        write(one.components)
                    }
                    if text.utf8.count >= pieceSize {
                        emit(Array(text.utf8))
                        text = ""
                    }
                }
            }
        }
        emit(Array(text.utf8))
    }

    /// When a task last changed, as an export stamps it.
    static func stamp(_ task: TaskItem, now: Date) -> Date {
        let last = max(task.modifiedAt, task.clocks.latest.date)
        return last.timeIntervalSince1970 > 0 ? last : now
    }

    /// The VTODOs of an iCalendar text as tasks (UIDs that are not UUIDs get the id the sync
    /// gives them); cancelled ones and other components are skipped.
    static func batch(from bytes: [UInt8]) throws(DocumentError) -> ImportBatch {
        // Each to-do becomes a task as soon as its END is read: the calendar is never held as
        // a tree (300 MB for 100,000 to-dos).
        var tasks: [TaskItem] = []
        // Each task's sort order, beside it: the tasks are copied only when it is not the file's order.
        var sortOrders: [Int] = []
        // Room made once, from the to-dos' first lines: grown by doubling, the array held a
        // third more than the tasks, and twice as much while it moved.
        let expected = min(ByteSearch.count(of: Array("BEGIN:VTODO".utf8), in: bytes), StoreLimits.tasks)
        tasks.reserveCapacity(expected)
        sortOrders.reserveCapacity(expected)
        var skipped = 0
        // What each to-do holds that HotTask does not model, by position, and the time zones
        // its times name (a VTIMEZONE comes before the to-dos that use it, as RFC 5545 has it).
        var carried: [Int: String] = [:]
        var timezones: [String: ICalComponent] = [:]
        var losses = ImportLosses()
        losses.carriedFor = "iCalendar"
        var roots: [ICalComponent] = []
        do throws(ICalendar.ParseError) {
            roots = try bytes.withUnsafeBufferPointer { buffer throws(ICalendar.ParseError) in
                try ICalendar.parse(buffer) { parent, component in
                    if parent == "VCALENDAR", component.name == "VTIMEZONE", let name = component.first("TZID")?.text {
                        timezones[name] = component
                    }
                    guard parent == "VCALENDAR", component.name == "VTODO" else { return }
                    guard case .todo(let todo) = TodoMapping.read(ICalComponent(name: "VCALENDAR", components: [component])) else {
                        if component.first("RECURRENCE-ID") == nil { skipped += 1 }
                        return
                    }
                    let dtstamp = component.first("DTSTAMP").flatMap { ICalendar.date($0.value) }
                    let stamp = todo.lastModified ?? todo.created ?? dtstamp ?? Date(timeIntervalSince1970: 0)
                    if let record = ICalendarCarry.record(of: component, id: TodoMapping.id(forUID: todo.uid), timezones: timezones) {
                        carried[tasks.count] = record
                        for name in ICalendarCarry.reported(component) { losses.droppedFields[name, default: 0] += 1 }
                    }
                    let task = todo.task(id: TodoMapping.id(forUID: todo.uid), createdAt: todo.created ?? stamp, modifiedAt: stamp)
                    tasks.append(task)
                    sortOrders.append(todo.fields.sortOrder ?? Int.max)
                }
            }
        } catch  where error.reason == ICalendar.notUTF8 {
            throw .invalid("the iCalendar file is not UTF-8 text")
        } catch {
            throw .invalid("not a readable iCalendar file (\(error))")
        }
        // Stable: equal sort orders keep the file's order. Positions are sorted, not copies.
        if zip(sortOrders, sortOrders.dropFirst()).contains(where: { $0 > $1 }) {
            var order = Array(tasks.indices)
            order.sort { (sortOrders[$0], $0) < (sortOrders[$1], $1) }
            tasks.rearrange(takingFrom: order)
            if !carried.isEmpty {
                var moved: [Int: String] = [:]
                for (position, from) in order.enumerated() { if let record = carried[from] { moved[position] = record } }
                carried = moved
            }
        }
        var batch = ImportBatch(format: .iCalendar, tasks: tasks, skipped: skipped, losses: losses)
        batch.carried = carried
        // The calendar's name is a list's: its new tasks go there when this store has it.
        if let name = roots.first?.first("X-WR-CALNAME")?.text.trimmingBlanksAndNewlines(),
            ListNameRule.check(name) == nil
        {
            for index in batch.tasks.indices { batch.tasks[index].list = name }
            batch.namedLists = ImportBatch.NamedLists(names: [name], makesMissing: false)
        }
        return batch
    }
}
