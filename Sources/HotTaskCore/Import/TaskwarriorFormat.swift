import Foundation

/// Taskwarrior's `task export`: `uuid`, `description`, `status`, `entry`/`end`/`modified`
/// (as `YYYYMMDDTHHMMSSZ`) and `priority`. Other fields are ignored.
enum TaskwarriorFormat {
    /// `values` pairs each task with how messages name it ("task 3", "line 7").
    static func batch(from values: [(name: String, value: JSONValue)]) throws(DocumentError) -> ImportBatch {
        var tasks: [TaskItem] = []
        var skipped = 0
        var seen = Set<UUID>()
        for (name, value) in values {
            guard let task = try task(from: value, name: name) else {
                skipped += 1
                continue
            }
            guard seen.insert(task.id).inserted else {
                throw .invalid("\(name): the uuid \(task.id.uuidString.lowercased()) appears twice")
            }
            tasks.append(task)
        }
        return ImportBatch(format: .taskwarrior, tasks: tasks, skipped: skipped)
    }

    /// The task, or nil for one HotTask skips (deleted, or a recurrence template).
    private static func task(from value: JSONValue, name: String) throws(DocumentError) -> TaskItem? {
        let fields = try FieldReader(value, what: name)
        let status = try fields.string("status")
        let completed: Bool
        switch status {
        case "pending", "waiting": completed = false
        case "completed": completed = true
        case "deleted", "recurring": return nil
        default:
            throw fields.problem(
                "unknown \"status\" \"\(status)\" (expected pending, waiting, completed, deleted or recurring)")
        }
        let id = try fields.uuid("uuid")
        let caption = try fields.caption("description")
        let entry = try fields.optionalDate("entry", parse: Timestamp.parseTaskwarrior)
        let end = try fields.optionalDate("end", parse: Timestamp.parseTaskwarrior)
        let modified = try fields.optionalDate("modified", parse: Timestamp.parseTaskwarrior)
        guard let createdAt = entry ?? modified ?? end else {
            throw fields.problem("the \"entry\" date is missing")
        }
        let priority = try fields.optionalString("priority")
        return TaskItem(
            id: id, caption: caption, section: priority == "H" ? .priority : .bonus, completed: completed,
            createdAt: createdAt, completedAt: completed ? (end ?? modified ?? createdAt) : nil,
            modifiedAt: modified ?? end ?? createdAt)
    }
}
