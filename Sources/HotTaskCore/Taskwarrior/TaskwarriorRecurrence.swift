import FoundationEssentials
import Glibc

/// Taskwarrior's recurring tasks as HotTask's repeating ones, both ways.
///
/// Taskwarrior keeps a recurrence as a template (`status: recurring`, `recur`, `until`, `mask`)
/// that makes a task per occurrence (`parent` its uuid, `imask` its place in the series). HotTask
/// keeps one task with an RRULE whose due date moves on when it is completed. So:
///
/// - import: a template and its occurrences become one repeating task with the template's
///   uuid (the one that stays: occurrences come and go), due at its earliest pending occurrence
///   and captioned as that one is; with none pending, the template's own, due where Taskwarrior
///   would make the next. Done and later occurrences are not tasks of their own. A `recur`
///   HotTask cannot step exactly (`TaskwarriorRecur`) leaves the occurrences as plain tasks.
/// - export (`writes`): the template again, and the occurrences HotTask moved past written done;
///   the occurrence at the due date carries HotTask's changes (a new one is made when
///   Taskwarrior has none there yet). Occurrences due later are not written: untouched there.
///
/// What the template and the pending occurrences held is carried in the task's record, after
/// the marker `{"hottask:recurrence":`.
enum TaskwarriorRecurrence {
    static let marker = "{\"hottask:recurrence\":"

    // MARK: Import

    /// Folds each recurrence in a decoded export (templates decoded as open tasks whose record
    /// says `"status":"recurring"`, occurrences with a `parent`) into one repeating task at the
    /// template's place. Run only when the decoders saw such tasks (`recurrencePieces`).
    static func fold(tasks: inout [TaskItem], carried: inout [Int: String], losses: inout ImportLosses) {
        var objects: [Int: [String: JSONValue]] = [:]
        var templates: [Int] = []
        var children: [UUID: [Int]] = [:]
        for (position, record) in carried where record.contains("\"parent\":") || record.contains("\"status\":\"recurring\"") {
            guard case .object(let object)? = try? JSONParser.parse(Array(record.utf8)) else { continue }
            if case .string("recurring")? = object["status"] {
                templates.append(position)
                objects[position] = object
            } else if case .string(let parent)? = object["parent"], let id = UUID(uuidString: parent) {
                children[id, default: []].append(position)
                objects[position] = object
            }
        }
        var removed = Set<Int>()
        func remove(_ position: Int) {
            removed.insert(position)
            // Its fields were counted as a task's: it is not one.
            for key in (objects[position] ?? [:]).keys where !TaskwarriorFormat.kept.contains(key) && key != TaskwarriorCarry.annotationEntries {
                losses.droppedFields[key, default: 0] -= 1
                if losses.droppedFields[key] == 0 { losses.droppedFields[key] = nil }
            }
        }
        for position in templates.sorted() {
            let template = tasks[position]
            let object = objects[position] ?? [:]
            let recur: String = if case .string(let text)? = object["recur"] { text } else { "" }
            let until: Date? = if case .string(let text)? = object["until"] { Timestamp.parseTaskwarrior(text) } else { nil }
            let kids = (children.removeValue(forKey: template.id) ?? []).sorted()
            guard template.due != nil, let rule = TaskwarriorRecur.rule(recur: recur, until: until, anchor: template.due) else {
                // Its occurrences stay plain tasks.
                remove(position)
                losses.unrepeatable[template.due == nil ? recur + " with no due date" : recur, default: 0] += 1
                continue
            }
            let pending = kids.filter { !tasks[$0].completed }.sorted { a, b in
                (tasks[a].due?.wallSeconds ?? .max, imask(objects[a]), a) < (tasks[b].due?.wallSeconds ?? .max, imask(objects[b]), b)
            }
            var task: TaskItem
            if let first = pending.first {
                task = tasks[first]
                task.id = template.id
            } else {
                // None pending: due where Taskwarrior makes the next (one per character of the mask made).
                task = template
                let made: Int = if case .string(let mask)? = object["mask"] { mask.count } else { 0 }
                var due = template.due
                var stepping = rule
                for _ in 0..<made {
                    guard let current = due, let next = stepping.next(after: current) else {
                        due = nil
                        break
                    }
                    (due, stepping) = (next.due, next.rule)
                }
                if let due {
                    task.due = due
                } else {
                    task.completed = true
                    task.completedAt = template.modifiedAt
                }
            }
            task.repeatRule = rule
            let inner: JSONValue = .object([
                "template": occurrence(template, object, uuid: false),
                "instances": .array(pending.map { occurrence(tasks[$0], objects[$0] ?? [:], uuid: true) }),
            ])
            var writer = JSONWriter()
            TaskwarriorCarry.write(inner, to: &writer)
            // The template's until is in the rule now.
            if object["until"] != nil {
                losses.droppedFields["until", default: 0] -= 1
                if losses.droppedFields["until"] == 0 { losses.droppedFields["until"] = nil }
            }
            tasks[position] = task
            carried[position] = marker + String(decoding: writer.bytes, as: UTF8.self) + "}"
            for kid in kids { remove(kid) }
            losses.repeating += 1
            losses.occurrences += kids.count
        }
        // Occurrences of a template that is not recurring: deleted there (its own are deleted
        // too), done (a plain task here), or not in the file (they stay plain tasks).
        if !children.isEmpty {
            let deleted = Set(losses.deletedIDs)
            let parents = Set(children.keys)
            var present = Set<UUID>()
            for task in tasks where parents.contains(task.id) { present.insert(task.id) }
            for (parent, kids) in children {
                if deleted.contains(parent) {
                    for kid in kids { remove(kid) }
                    losses.deleted += kids.count
                } else if present.contains(parent) {
                    for kid in kids { remove(kid) }
                    losses.occurrences += kids.count
                } else {
                    losses.withoutTemplate += kids.count
                }
            }
        }
        guard !removed.isEmpty else { return }
        var kept: [TaskItem] = []
        var keptCarried: [Int: String] = [:]
        kept.reserveCapacity(tasks.count - removed.count)
        for (position, task) in tasks.enumerated() where !removed.contains(position) {
            if let record = carried[position] { keptCarried[kept.count] = record }
            kept.append(task)
        }
        tasks = kept
        carried = keptCarried
    }

    private static func imask(_ object: [String: JSONValue]?) -> Int {
        place(object?["imask"]) ?? .max
    }

    /// An occurrence's `imask`: a number, or its text as records keep it.
    static func place(_ value: JSONValue?) -> Int? {
        switch value {
        case .number(let number)? where number.rounded() == number && abs(number) < 1e9: Int(number)
        case .string(let text)?: Int(text)
        default: nil
        }
    }

    /// What the export needs of a template or an occurrence to write it again: its own
    /// fields HotTask models (as Taskwarrior wrote them), and its record.
    private static func occurrence(_ task: TaskItem, _ record: [String: JSONValue], uuid: Bool) -> JSONValue {
        var info: [String: JSONValue] = [
            "description": .string(task.caption),
            "entry": .string(Timestamp.formatCompact(task.createdAt)),
            "modified": .string(Timestamp.formatCompact(task.modifiedAt)),
            "record": .object(record),
        ]
        if uuid { info["uuid"] = .string(task.id.uuidString.lowercased()) }
        if let due = task.due { info["due"] = .string(due.taskwarriorText()) }
        return .object(info)
    }

    // MARK: Export

    /// One object of the export: `task` written with this status and record (and ended when
    /// deleted).
    struct Write {
        var task: TaskItem
        var status: String
        var record: String?
        var deletedAt: Date?
    }

    /// True when `task` is written by `writes` rather than as a plain task: it came from a
    /// recurrence, or repeats here.
    @inline(__always)
    static func involved(_ task: TaskItem, record: String?) -> Bool {
        (record?.hasPrefix(marker) ?? false) || (!task.repeatRule.isNone && !task.completed)
    }

    /// The objects that give Taskwarrior `task` as it is here (see the type's notes). A rule
    /// Taskwarrior has no `recur` for is written as a plain task (it repeats here only).
    static func writes(for task: TaskItem, record: String?, deletedAt: Date?) -> [Write] {
        let recurrence = Carried(record)
        let mapped = task.completed || deletedAt != nil ? nil : TaskwarriorRecur.recur(for: task.repeatRule, anchor: task.due)
        let when = task.completedAt ?? task.modifiedAt
        guard let recurrence else {
            guard let mapped, let due = task.due else {
                return [Write(task: task, status: TaskwarriorCarry.status(for: task, record: record), record: record, deletedAt: deletedAt)]
            }
            // Made repeating here: the task becomes the template, with its first occurrence.
            let own = object(record)
            return fresh(task, due: due, mapped: mapped, templateRecord: own, entry: task.createdAt, instanceRecord: own)
        }
        let template = recurrence.template
        // The rule is the template's recur, not a field of its own (`TaskwarriorCarry.repeatField`).
        var plain = task
        plain.repeatRule = .none
        var templateTask = plain
        templateTask.createdAt = template.entry
        templateTask.modifiedAt = template.modified
        templateTask.due = template.due
        var templateRecord = template.record
        var writes: [Write] = []
        // Occurrences `done` says are written done; the rest deleted (`deleteRest`) or left alone.
        func settle(done: (DueDate) -> Bool, deleteRest: Bool, mask: inout [Character]) {
            for occurrence in recurrence.instances {
                var written = plain
                written.id = occurrence.id
                written.caption = occurrence.caption
                written.createdAt = occurrence.entry
                written.due = occurrence.due
                if let due = occurrence.due, done(due) {
                    written.completed = true
                    written.completedAt = when
                    written.modifiedAt = max(when, occurrence.modified)
                    if let index = occurrence.imask, index < mask.count { mask[index] = "+" }
                    writes.append(Write(task: written, status: "completed", record: text(occurrence.record), deletedAt: nil))
                } else if deleteRest {
                    written.modifiedAt = occurrence.modified
                    if let index = occurrence.imask, index < mask.count { mask[index] = "X" }
                    writes.append(Write(task: written, status: "deleted", record: text(occurrence.record), deletedAt: when))
                }
            }
        }
        var mask = Array(template.mask)
        if let deletedAt {
            settle(done: { _ in false }, deleteRest: true, mask: &mask)
            templateRecord["mask"] = .string(String(mask))
            writes.insert(Write(task: templateTask, status: "deleted", record: text(templateRecord), deletedAt: deletedAt), at: 0)
            return writes
        }
        if task.completed {
            // The last occurrence done: the template is done too.
            let last = task.due?.wallSeconds ?? .max
            settle(done: { $0.wallSeconds <= last }, deleteRest: true, mask: &mask)
            templateRecord["mask"] = .string(String(mask))
            templateTask.modifiedAt = max(template.modified, when)
            return [Write(task: templateTask, status: "completed", record: text(templateRecord), deletedAt: nil)] + writes
        }
        guard let mapped, let due = task.due else {
            // No longer repeating (or in a way Taskwarrior cannot): the template's uuid is a plain task.
            let now = task.due?.wallSeconds ?? .min
            settle(done: { $0.wallSeconds < now }, deleteRest: true, mask: &mask)
            for key in ["mask", "recur", "rtype", "until", "status"] { templateRecord[key] = nil }
            templateTask.due = task.due
            templateTask.repeatRule = task.repeatRule
            templateTask.modifiedAt = max(template.modified, task.modifiedAt)
            return [Write(task: templateTask, status: "pending", record: text(templateRecord), deletedAt: nil)] + writes
        }
        // The same series: `due` is its occurrence `index`.
        if let anchor = template.due, TaskwarriorRecur.rule(recur: template.recur, until: template.until, anchor: anchor) == task.repeatRule,
            let index = position(of: due, from: anchor, rule: task.repeatRule)
        {
            settle(done: { $0.wallSeconds < due.wallSeconds }, deleteRest: false, mask: &mask)
            if let current = recurrence.instances.first(where: { $0.imask == index || ($0.imask == nil && $0.due.map(text) == text(due)) }) {
                var written = plain
                written.id = current.id
                written.createdAt = current.entry
                writes.append(
                    Write(
                        task: written, status: TaskwarriorCarry.status(for: written, record: text(current.record)), record: text(current.record),
                        deletedAt: nil))
            } else if index >= mask.count {
                // Taskwarrior has not made it yet: made here, its place in the mask taken. The
                // occurrences before it that Taskwarrior never made were completed here: each is
                // written done, so that `task completed` lists every completion (issue 52).
                writes += doneHere(task, plain: plain, from: anchor, through: index, mask: &mask, mapped: mapped, when: when)
                mask.append("-")
                var written = plain
                written.id = occurrenceID(task.id, anchor: anchor, index: index)
                writes.append(
                    Write(
                        task: written, status: "pending", record: text(instanceRecord(task.id, index: index, mapped: mapped, base: [:])),
                        deletedAt: nil))
            }
            let changed = String(mask) != template.mask || task.caption != template.caption
            templateRecord["mask"] = .string(String(mask))
            if changed { templateTask.modifiedAt = max(template.modified, task.modifiedAt) }
            return [Write(task: templateTask, status: "recurring", record: text(templateRecord), deletedAt: nil)] + writes
        }
        // A new rule, or a due date off the series: the series starts again at `due`.
        settle(done: { $0.wallSeconds < due.wallSeconds }, deleteRest: true, mask: &mask)
        return fresh(task, due: due, mapped: mapped, templateRecord: templateRecord, entry: template.entry, instanceRecord: [:]) + writes
    }

    /// The occurrences of the series from `anchor` past the end of `mask`, up to `index`
    /// (not included), written completed at `when`, each marked `+` in the mask.
    private static func doneHere(
        _ task: TaskItem, plain: TaskItem, from anchor: DueDate, through index: Int, mask: inout [Character],
        mapped: (recur: String, until: String?), when: Date
    ) -> [Write] {
        var writes: [Write] = []
        var current = anchor
        var stepping = task.repeatRule
        for position in 0..<index {
            if position >= mask.count {
                mask.append("+")
                var done = plain
                done.id = occurrenceID(task.id, anchor: anchor, index: position)
                done.due = current
                done.completed = true
                done.completedAt = when
                done.modifiedAt = when
                let record = instanceRecord(task.id, index: position, mapped: mapped, base: [:])
                writes.append(Write(task: done, status: "completed", record: text(record), deletedAt: nil))
            }
            guard let next = stepping.next(after: current) else { break }
            (current, stepping) = next
        }
        return writes
    }

    /// A series starting at `due`: the template (the task's own uuid) and its first occurrence.
    private static func fresh(
        _ task: TaskItem, due: DueDate, mapped: (recur: String, until: String?), templateRecord: [String: JSONValue], entry: Date,
        instanceRecord base: [String: JSONValue]
    ) -> [Write] {
        var record = templateRecord
        record["recur"] = .string(mapped.recur)
        record["rtype"] = .string("periodic")
        record["until"] = mapped.until.map(JSONValue.string)
        record["mask"] = .string("-")
        record["status"] = nil
        var template = task
        template.repeatRule = .none
        template.createdAt = entry
        var first = template
        first.createdAt = task.createdAt
        first.id = occurrenceID(task.id, anchor: due, index: 0)
        return [
            Write(task: template, status: "recurring", record: text(record), deletedAt: nil),
            Write(task: first, status: "pending", record: text(instanceRecord(task.id, index: 0, mapped: mapped, base: base)), deletedAt: nil),
        ]
    }

    private static func instanceRecord(_ parent: UUID, index: Int, mapped: (recur: String, until: String?), base: [String: JSONValue])
        -> [String: JSONValue]
    {
        var record = base
        for key in ["mask", "status"] { record[key] = nil }
        record["parent"] = .string(parent.uuidString.lowercased())
        record["imask"] = .string(String(index))
        record["recur"] = .string(mapped.recur)
        record["rtype"] = .string("periodic")
        record["until"] = mapped.until.map(JSONValue.string)
        return record
    }

    /// The uuid of an occurrence HotTask makes: the same each time it is exported, so that a
    /// second export does not make a second one.
    private static func occurrenceID(_ parent: UUID, anchor: DueDate, index: Int) -> UUID {
        UUIDBytes.derived(from: Array("\(parent.uuidString.lowercased())#\(anchor.taskwarriorText())#\(index)".utf8))
    }

    /// Which occurrence of the series from `anchor` `due` is; nil when it is none of them.
    private static func position(of due: DueDate, from anchor: DueDate, rule: RepeatRule) -> Int? {
        var current = anchor
        var stepping = rule
        for index in 0..<10_000 {
            if text(current) == text(due) { return index }
            guard current.wallSeconds < due.wallSeconds, let next = stepping.next(after: current) else { return nil }
            (current, stepping) = next
        }
        return nil
    }

    private static func text(_ due: DueDate) -> String { due.taskwarriorText() }

    private static func text(_ record: [String: JSONValue]) -> String? {
        guard !record.isEmpty else { return nil }
        var writer = JSONWriter()
        TaskwarriorCarry.write(.object(record), to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func object(_ record: String?) -> [String: JSONValue] {
        guard let record, case .object(let object)? = try? JSONParser.parse(Array(record.utf8)) else { return [:] }
        return object
    }

    /// What an import kept of a recurrence (`fold`).
    private struct Carried {
        struct Occurrence {
            var id: UUID
            var caption: String
            var entry: Date
            var modified: Date
            var due: DueDate?
            var record: [String: JSONValue]
            var imask: Int? { TaskwarriorRecurrence.place(record["imask"]) }
            var mask: String {
                if case .string(let mask)? = record["mask"] { return mask }
                return ""
            }
            var recur: String {
                if case .string(let recur)? = record["recur"] { return recur }
                return ""
            }
            var until: Date? {
                if case .string(let until)? = record["until"] { return Timestamp.parseTaskwarrior(until) }
                return nil
            }

            init?(_ value: JSONValue?, id given: UUID? = nil) {
                guard case .object(let info)? = value, case .string(let caption)? = info["description"],
                    case .string(let entry)? = info["entry"], let entryDate = Timestamp.parseTaskwarrior(entry),
                    case .string(let modified)? = info["modified"], let modifiedDate = Timestamp.parseTaskwarrior(modified)
                else { return nil }
                if let given {
                    id = given
                } else if case .string(let text)? = info["uuid"], let parsed = UUID(uuidString: text) {
                    id = parsed
                } else {
                    return nil
                }
                self.caption = caption
                self.entry = entryDate
                self.modified = modifiedDate
                if case .string(let due)? = info["due"] { self.due = Timestamp.parseTaskwarrior(due).flatMap { DueDate.fromTaskwarrior($0) } }
                if case .object(let record)? = info["record"] { self.record = record } else { self.record = [:] }
            }
        }

        var template: Occurrence
        var instances: [Occurrence]

        init?(_ record: String?) {
            guard let record, record.hasPrefix(TaskwarriorRecurrence.marker),
                case .object(let outer)? = try? JSONParser.parse(Array(record.utf8)),
                case .object(let inner)? = outer["hottask:recurrence"],
                let template = Occurrence(inner["template"], id: UUID())
            else { return nil }
            self.template = template
            if case .array(let items)? = inner["instances"] { instances = items.compactMap { Occurrence($0) } } else { instances = [] }
        }
    }
}
