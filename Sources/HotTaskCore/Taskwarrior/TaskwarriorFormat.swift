import FoundationEssentials
import Glibc

/// Taskwarrior's `task export`: `uuid`, `description`, `status`, `entry`/`end`/`modified`
/// (as `YYYYMMDDTHHMMSSZ`), `priority`, `due`, `annotations` (the note, a line each), `tags`
/// and `project` (the tag `project:NAME`). Every other field is carried (`TaskwarriorCarry`)
/// for the export back, and counted in the import's report.
enum TaskwarriorFormat {
    /// Fields HotTask keeps, or that only Taskwarrior's own bookkeeping uses (the export's
    /// `id` and `urgency` are computed; `parent`, `mask`, `imask`, `recur`, `rtype` tie a
    /// recurring task's instances together): not worth a line in the report (the bookkeeping
    /// ones are carried all the same).
    static let kept: Set<String> = [
        "uuid", "description", "status", "entry", "modified", "end", "priority", "wait", "due", "annotations", "tags", "project",
        "id", "urgency", "parent", "mask", "imask", "recur", "rtype", "template", "last", TaskwarriorCarry.repeatField,
    ]

    /// `values` pairs each task with how messages name it ("task 3", "line 7").
    static func batch(from values: [(name: String, value: JSONValue)], now: Date = Timestamp.now()) throws(DocumentError) -> ImportBatch {
        var tasks: [TaskItem] = []
        var losses = ImportLosses()
        var carried: [Int: String] = [:]
        var seen = Set<UUID>()
        for (name, value) in values {
            guard let task = try task(from: value, name: name, now: now, losses: &losses) else { continue }
            guard seen.insert(task.id).inserted else {
                throw .invalid("\(name): the uuid \(task.id.uuidString.lowercased()) appears twice")
            }
            if case .object(let object) = value, let record = TaskwarriorCarry.record(of: object, section: task.section) {
                carried[tasks.count] = record
            }
            tasks.append(task)
        }
        losses.carriedFor = "Taskwarrior"
        if losses.recurrencePieces > 0 { TaskwarriorRecurrence.fold(tasks: &tasks, carried: &carried, losses: &losses) }
        var batch = ImportBatch(format: .taskwarrior, tasks: tasks, skipped: losses.skipped, losses: losses)
        batch.carried = carried
        return batch
    }

    /// The task, or nil for one HotTask skips (deleted). A recurrence template is read as an
    /// open task (its record says `"status":"recurring"`) for `TaskwarriorRecurrence.fold`.
    private static func task(from value: JSONValue, name: String, now: Date, losses: inout ImportLosses) throws(DocumentError) -> TaskItem? {
        let fields = try FieldReader(value, what: name)
        let status = try fields.string("status")
        let completed: Bool
        switch status {
        case "pending", "waiting", "recurring": completed = false
        case "completed": completed = true
        case "deleted":
            losses.deleted += 1
            if let id = try? fields.uuid("uuid") { losses.deletedIDs.append(id) }
            return nil
        default:
            throw fields.problem(
                "unknown \"status\" \"\(status)\" (expected pending, waiting, completed, deleted or recurring)")
        }
        let id = try fields.uuid("uuid")
        if status == "recurring" || fields.object["parent"] != nil { losses.recurrencePieces += 1 }
        let caption = try keptCaption(fields)
        let entry = try fields.optionalDate("entry", parse: Timestamp.parseTaskwarrior)
        let end = try fields.optionalDate("end", parse: Timestamp.parseTaskwarrior)
        let modified = try fields.optionalDate("modified", parse: Timestamp.parseTaskwarrior)
        guard let createdAt = entry ?? modified ?? end else {
            throw fields.problem("the \"entry\" date is missing")
        }
        let priority = try fields.optionalString("priority")
        // Taskwarrior 2 marks a hidden task "waiting"; 3 keeps it "pending" with a future wait.
        let wait = try fields.optionalDate("wait", parse: Timestamp.parseTaskwarrior)
        let waiting = !completed && (status == "waiting" || (wait.map { $0 > now } ?? false))
        if waiting { losses.waitingToBonus += 1 }
        let due = try fields.optionalDate("due", parse: Timestamp.parseTaskwarrior).flatMap { DueDate.fromTaskwarrior($0) }
        for key in fields.object.keys where !kept.contains(key) {
            losses.droppedFields[key, default: 0] += 1
        }
        let (note, tags) = TaskwarriorCarry.noteAndTags(
            annotations: fields.object["annotations"], tags: fields.object["tags"], project: fields.object["project"])
        let repeatRule: RepeatRule =
            if case .string(let rule)? = fields.object[TaskwarriorCarry.repeatField] { RepeatRule(rrule: rule) ?? .none } else { .none }
        return TaskItem(
            id: id, caption: caption, section: priority == "H" && !waiting ? .priority : .bonus, completed: completed,
            createdAt: createdAt, completedAt: completed ? (end ?? modified ?? createdAt) : nil,
            modifiedAt: modified ?? end ?? createdAt, due: due, note: note, tags: tags, repeatRule: repeatRule)
    }

    /// The description kept as it came (`CaptionRule.kept`: any length, its line breaks and
    /// tabs); one with nothing to show is refused.
    private static func keptCaption(_ fields: FieldReader) throws(DocumentError) -> String {
        let caption = CaptionRule.kept(try fields.string("description"))
        guard CaptionRule.hasVisible(caption) else { throw fields.problem("\"description\": \(CaptionError.empty)") }
        return caption
    }

    // MARK: Writing

    /// A JSON array `task import` accepts: uuid, description, status, entry, modified, end,
    /// priority H for Top Priority, and every field a task's import carried; a repeating task
    /// as a recurrence (`TaskwarriorRecurrence`).
    static func text(for list: TaskList, carried: CarriedFields = CarriedFields()) -> [UInt8] {
        var bytes: [UInt8] = []
        write(list, carried: carried) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The export in pieces of about `pieceSize` bytes, each given to `emit` when full. A task
    /// deleted here that Taskwarrior has (an import brought it: `CarriedFields.has`) is written
    /// `deleted`, with the time of the delete as its `end`, so that `task import` deletes it
    /// there too; once an import says it is deleted there, it is no longer written.
    static func write(_ list: TaskList, carried: CarriedFields = CarriedFields(), pieceSize: Int = 1 << 18, emit: ([UInt8]) -> Void) {
        var writer = JSONWriter(capacity: pieceSize + 4096)
        writer.raw("[")
        var first = true
        let deleted =
            carried.isEmpty || list.deleted.isEmpty
            ? []
            : list.deleted.values.filter { carried.has($0.task.id, .taskwarrior) }.sorted {
                UUIDBytes.sortKey($0.task.id) < UUIDBytes.sortKey($1.task.id)
            }
        func write(_ task: TaskItem, deletedAt: Date?, status given: String? = nil, record: String?) {
            let section = task.section
            do {
                writer.raw(first ? "\n" : ",\n")
                first = false
                writer.raw("{\"uuid\":")
                writer.uuid(task.id)
                writer.raw(",\"description\":")
                writer.string(task.caption)
                let status =
                    given
                    ?? (deletedAt != nil
                        ? "deleted" : record == nil ? (task.completed ? "completed" : "pending") : TaskwarriorCarry.status(for: task, record: record))
                writer.raw(",\"status\":\"\(status)\"")
                // A deleted task: deleted and ended when it was deleted here, as `task delete` has it.
                let modified = deletedAt.map { max($0, task.modifiedAt) } ?? task.modifiedAt
                writer.raw(",\"entry\":\"\(Timestamp.formatCompact(task.createdAt))\",\"modified\":\"\(Timestamp.formatCompact(modified))\"")
                if let deletedAt {
                    writer.raw(",\"end\":\"\(Timestamp.formatCompact(deletedAt))\"")
                } else if task.completed {
                    writer.raw(",\"end\":\"\(Timestamp.formatCompact(task.completedAt ?? task.modifiedAt))\"")
                }
                if section == .priority { writer.raw(",\"priority\":\"H\"") }
                if let due = task.due { writer.raw(",\"due\":\"\(due.taskwarriorText())\"") }
                if !task.repeatRule.isNone {
                    writer.raw(",\"\(TaskwarriorCarry.repeatField)\":")
                    writer.string(task.repeatRule.rrule)
                }
                if !task.tags.isEmpty || !task.note.isEmpty || record != nil {
                    for member in TaskwarriorCarry.noteAndTagMembers(for: task, record: record) {
                        writer.raw(",")
                        writer.string(member.key)
                        writer.raw(":")
                        TaskwarriorCarry.write(member.value, to: &writer)
                    }
                }
                if let record {
                    if let inner = TaskwarriorCarry.plainMembers(of: record) {
                        // Nothing in it HotTask's fields override: written as it was carried.
                        writer.raw(",")
                        writer.raw(String(inner))
                    } else {
                        for member in TaskwarriorCarry.members(of: record, section: section) {
                            writer.raw(",")
                            writer.string(member.key)
                            writer.raw(":")
                            TaskwarriorCarry.write(member.value, to: &writer)
                        }
                    }
                }
                writer.raw("}")
                if writer.count >= pieceSize {
                    writer.withText(emit)
                    writer.clear()
                }
            }
        }
        // A task that repeats, or came from a Taskwarrior recurrence, is its template and occurrences.
        func write(_ task: TaskItem, deletedAt: Date?) {
            let record = carried.isEmpty ? nil : carried[task.id, .taskwarrior]
            guard TaskwarriorRecurrence.involved(task, record: record) else { return write(task, deletedAt: deletedAt, record: record) }
            for piece in TaskwarriorRecurrence.writes(for: task, record: record, deletedAt: deletedAt) {
                write(piece.task, deletedAt: piece.deletedAt, status: piece.status, record: piece.record)
            }
        }
        for section in Section.allCases {
            for task in list.tasks(in: section) { write(task, deletedAt: nil) }
        }
        for tombstone in deleted { write(tombstone.task, deletedAt: tombstone.clock.date) }
        writer.raw("\n]\n")
        emit(writer.bytes)
    }

}

extension TaskList {
    /// The list as Taskwarrior's `task import` reads it (`--export-format taskwarrior`).
    var taskwarriorExport: [UInt8] { TaskwarriorFormat.text(for: self) }

    /// `taskwarriorExport` in pieces, each given to `emit` as it is made, with the fields
    /// `carried` holds for its tasks merged in.
    func writeTaskwarriorExport(carried: CarriedFields = CarriedFields(), _ emit: ([UInt8]) -> Void) {
        TaskwarriorFormat.write(self, carried: carried, emit: emit)
    }
}
