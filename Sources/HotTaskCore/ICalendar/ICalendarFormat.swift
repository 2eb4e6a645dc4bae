import Foundation

/// `.ics` files of VTODOs: `--export-format ics`, and `--import` of one (or of several
/// concatenated, as `cat ~/.calendars/tasks/*.ics` gives from a vdirsyncer or todoman folder).
/// The mapping is the sync's (`TodoMapping`); the manual order travels as X-APPLE-SORT-ORDER.
public enum ICalendarFormat {
    /// True when the text starts (after whitespace or a byte-order mark) with BEGIN:VCALENDAR.
    public static func looksLikeICalendar(_ bytes: [UInt8]) -> Bool {
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = String(decoding: bytes[start..<min(start + 15, bytes.endIndex)], as: UTF8.self)
        return head.uppercased() == "BEGIN:VCALENDAR"
    }

    /// One VCALENDAR holding a VTODO per task, in list order.
    public static func text(for list: TaskList, now: Date = Date()) -> String {
        var bytes: [UInt8] = []
        write(list, now: now) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text(for:)` in pieces of about `pieceSize` bytes, each given to `emit` when full: each
    /// to-do is written as it is made, so the calendar is never held whole.
    public static func write(_ list: TaskList, now: Date = Date(), pieceSize: Int = 1 << 18, emit: ([UInt8]) -> Void) {
        let calendar = ICalComponent(
            name: "VCALENDAR",
            properties: [ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: "-//HotTask//HotTask//EN")])
        var text = ""
        calendar.write(to: &text) { text in
            for section in Section.allCases {
                for (rank, task) in list.tasks(in: section).enumerated() {
                    let fields = SharedFields(
                        caption: task.caption, section: task.section, completed: task.completed, completedAt: task.completedAt,
                        sortOrder: rank + 1, due: task.due)
                    let one = TodoMapping.write(
                        fields, uid: TodoMapping.uid(for: task.id), clocks: task.clocks, created: task.createdAt, onto: nil, now: now)
                    for component in one.components { component.write(to: &text) }
                    if text.utf8.count >= pieceSize {
                        emit(Array(text.utf8))
                        text = ""
                    }
                }
            }
        }
        emit(Array(text.utf8))
    }

    /// The VTODOs of an iCalendar text as tasks (UIDs that are not UUIDs get the id the sync
    /// gives them); cancelled ones and other components are skipped.
    public static func batch(from bytes: [UInt8]) throws(DocumentError) -> ImportBatch {
        // Each to-do becomes a task as soon as its END is read: the calendar is never held as
        // a tree (300 MB for 100,000 to-dos).
        var tasks: [TaskItem] = []
        // Each task's sort order, beside it: the tasks are copied only when it is not the file's order.
        var sortOrders: [Int] = []
        // Room made once, from the to-dos' first lines: grown by doubling, the array held a
        // third more than the tasks, and twice as much while it moved.
        let expected = min(ByteSearch.count(of: Array("BEGIN:VTODO".utf8), in: bytes), TaskStore.maximumTaskCount)
        tasks.reserveCapacity(expected)
        sortOrders.reserveCapacity(expected)
        var skipped = 0
        do throws(ICalendar.ParseError) {
            _ = try bytes.withUnsafeBufferPointer { buffer throws(ICalendar.ParseError) in
                try ICalendar.parse(buffer) { parent, component in
                    guard parent == "VCALENDAR", component.name == "VTODO" else { return }
                    guard case .todo(let todo) = TodoMapping.read(ICalComponent(name: "VCALENDAR", components: [component])) else {
                        if component.first("RECURRENCE-ID") == nil { skipped += 1 }
                        return
                    }
                    let stamp = todo.lastModified ?? todo.created ?? Date(timeIntervalSince1970: 0)
                    let task = TaskItem(
                        id: TodoMapping.id(forUID: todo.uid), caption: todo.fields.caption, section: todo.fields.section,
                        completed: todo.fields.completed, createdAt: todo.created ?? stamp, completedAt: todo.fields.completedAt,
                        modifiedAt: stamp, due: todo.fields.due)
                    tasks.append(task)
                    sortOrders.append(todo.fields.sortOrder ?? Int.max)
                }
            }
        } catch where error.reason == ICalendar.notUTF8 {
            throw .invalid("the iCalendar file is not UTF-8 text")
        } catch {
            throw .invalid("not a readable iCalendar file (\(error))")
        }
        // Stable: equal sort orders keep the file's order. Positions are sorted, not copies.
        if zip(sortOrders, sortOrders.dropFirst()).contains(where: { $0 > $1 }) {
            var order = Array(tasks.indices)
            order.sort { (sortOrders[$0], $0) < (sortOrders[$1], $1) }
            tasks.rearrange(takingFrom: order)
        }
        return ImportBatch(format: .iCalendar, tasks: tasks, skipped: skipped)
    }
}
