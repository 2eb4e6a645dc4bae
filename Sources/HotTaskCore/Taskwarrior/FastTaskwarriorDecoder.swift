import Dispatch
import FoundationEssentials
import Glibc

/// Reads a Taskwarrior export (`[{...}, {...}]`, as `task export` writes it) straight into
/// tasks, without a JSON tree: the tree (a dictionary per task) cost most of the time and
/// three quarters of the memory of a 100,000-task import.
///
/// Like the store's fast reader it only has to be right when it succeeds: it takes exactly
/// what `TaskwarriorFormat.batch` takes, the same way, and on anything else (a syntax error, a
/// duplicate key or uuid, a field of the wrong type, a date or uuid it cannot read, a caption
/// the rule would change or refuse, JSON Lines) it gives up, and the strict path reads the file
/// and names the problem. Values of fields HotTask does not keep are parsed by the strict
/// parser's own `parseValue` (so they are checked as strictly) and only counted.
extension JSONParser {
    static func decodeTaskwarriorFast(_ bytes: [UInt8], now: Date = Timestamp.now()) -> ImportBatch? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            return try? parser.taskwarriorArray(now: now)
        }
    }

    /// The Taskwarrior export in `file`, read through a window of about 1 MB for each thread
    /// rather than whole (a 100,000-task export is 21 MB, which was held until every task was
    /// made); nil for anything unusual, which the strict path then reads whole and judges.
    /// Throws `TooManyTasks` as soon as the export holds more tasks than a store keeps, without
    /// reading the rest (a million-task export was read whole before it was refused).
    static func decodeTaskwarriorFast(
        _ file: FileSystem.OpenFile, limit: Int, windowSize: Int = 1 << 20, now: Date = Timestamp.now()
    ) throws(TooManyTasks) -> ImportBatch? {
        guard file.size > 0, file.size <= limit else { return nil }
        var parser = JSONParser(FileWindow(file, at: 0, capacity: windowSize, limit: limit))
        do {
            return try parser.taskwarriorArray(now: now)
        } catch let error as TooManyTasks {
            throw error
        } catch {
            return nil
        }
    }

    /// An export holding more tasks than a store keeps (`StoreLimits.tasks`).
    struct TooManyTasks: Error {}

    /// The next task of the array and what it carries or loses, the window slid on before it
    /// and after it; a task read again from a larger window is counted once.
    fileprivate mutating func nextTaskwarriorTask(now: Date, losses: inout ImportLosses) throws -> (TaskItem, String?)? {
        refillIfLow()
        let (task, lost) = try element { parser -> ((TaskItem, String?)?, ImportLosses) in
            var lost = ImportLosses()
            return (try parser.taskwarriorTask(now: now, losses: &lost), lost)
        }
        losses.add(lost)
        refillIfLow()
        return task
    }

    /// A large export is read in segments on two threads, as the store is (`segmentedArray`).
    private mutating func taskwarriorArray(now: Date) throws -> ImportBatch {
        var tasks: [TaskItem] = []
        var losses = ImportLosses()
        var carried: [Int: String] = [:]
        try expect(UInt8(ascii: "["))
        if !take(UInt8(ascii: "]")) {
            // Room made once for the first segment's array (a task takes at least about 150
            // bytes of `task export`; untouched room costs no memory).
            let room = min((window?.file.size ?? bytes.count) / 150, StoreLimits.tasks + 1)
            var first = try segmentedArray(
                first: TaskwarriorPiece(room: room), { TaskwarriorPiece(room: nil) },
                element: { parser, piece in
                    guard let (task, record) = try parser.nextTaskwarriorTask(now: now, losses: &piece.losses) else { return }
                    if let record { piece.carried[piece.tasks.count] = record }
                    piece.tasks.append(task)
                    if piece.tasks.count > StoreLimits.tasks { throw TooManyTasks() }
                },
                absorb: { first, piece in
                    if first.tasks.count + piece.tasks.count > StoreLimits.tasks { throw TooManyTasks() }
                    for (position, record) in piece.carried { first.carried[first.tasks.count + position] = record }
                    first.losses.add(piece.losses)
                    first.tasks.append(moving: piece.tasks)
                })
            (losses, carried) = (first.losses, first.carried)
            tasks = first.tasks.takeArray()
        }
        guard atEndOfInput() else { throw GiveUp() }
        // An id given twice is for the strict path to judge.
        guard IDTable(distinct: tasks.count, { add in for index in tasks.indices { add(tasks[index].id) } }) != nil else { throw GiveUp() }
        losses.carriedFor = "Taskwarrior"
        if losses.recurrencePieces > 0 { TaskwarriorRecurrence.fold(tasks: &tasks, carried: &carried, losses: &losses) }
        var batch = ImportBatch(format: .taskwarrior, tasks: tasks, skipped: losses.skipped, losses: losses)
        batch.carried = carried
        return batch
    }

    /// The tasks of one segment of an export, with what they lose and what each carries (by
    /// its position in the segment).
    private struct TaskwarriorPiece {
        var tasks: ReadTasks
        var losses = ImportLosses()
        var carried: [Int: String] = [:]

        /// `room`: for the first segment, room for the whole export (none for the others).
        init(room: Int?) {
            tasks = room.map { ReadTasks(room: $0) } ?? ReadTasks()
        }
    }

    /// One task and what it carries (`TaskwarriorCarry`), or nil for one HotTask skips
    /// (deleted), as `TaskwarriorFormat.task(from:)` decides (a recurrence template too).
    fileprivate mutating func taskwarriorTask(now: Date, losses: inout ImportLosses) throws -> (TaskItem, String?)? {
        enum Status { case pending, waiting, completed, deleted, recurring }
        var status: Status?
        var id: UUID?
        var description: String?
        var entry: Date?
        var end: Date?
        var modified: Date?
        var wait: Date?
        var due: Date?
        var priorityHigh = false
        var hasParent = false
        var repeatRule = RepeatRule.none
        // Keys seen, so that a repeated one gives up (the strict parser refuses it).
        var known: UInt16 = 0
        var others: [String] = []
        // The members carried for the export back, as the strict path reads them.
        var carriedMembers: [String: JSONValue] = [:]
        func once(_ bit: UInt16) throws {
            guard known & bit == 0 else { throw GiveUp() }
            known |= bit
        }
        /// A date field: a string Taskwarrior's way, or null (as absent).
        func date(_ parser: inout JSONParser) throws -> Date? {
            if parser.takeNull() { return nil }
            return try required(Timestamp.parseTaskwarrior(utf8: try parser.plainString()))
        }
        try forEachKey { parser, key in
            switch key {
            case "status":
                try once(1)
                status =
                    switch try parser.plainString() {
                    case "pending": .pending
                    case "waiting": .waiting
                    case "completed": .completed
                    case "deleted": .deleted
                    case "recurring": .recurring
                    default: throw GiveUp()
                    }
            case "uuid":
                try once(2)
                id = try required(UUIDBytes.parse(try parser.plainString()))
            case "description":
                try once(4)
                description = try parser.quotedString()
            case "entry":
                try once(8)
                entry = try date(&parser)
            case "end":
                try once(16)
                end = try date(&parser)
            case "modified":
                try once(32)
                modified = try date(&parser)
            case "wait":
                try once(64)
                let value = try parser.parseValue(depth: 2)
                carriedMembers["wait"] = value
                switch value {
                case .null: break
                case .string(let text): wait = try required(Timestamp.parseTaskwarrior(text))
                default: throw GiveUp()
                }
            case "due":
                try once(256)
                due = try date(&parser)
            case "priority":
                try once(128)
                if !parser.takeNull() {
                    let value = try parser.plainString()
                    priorityHigh = "H" ~= value
                    if !priorityHigh { carriedMembers["priority"] = .string(String(decoding: value, as: UTF8.self)) }
                }
            default:
                // Any other field: checked as strictly as the strict parser does (it is that
                // parser), counted when HotTask does not keep it.
                let name = String(decoding: key, as: UTF8.self)
                guard !others.contains(name) else { throw GiveUp() }
                others.append(name)
                if name == "parent" { hasParent = true }
                if name == TaskwarriorCarry.repeatField {
                    guard case .string(let rule) = try parser.parseValue(depth: 2) else { throw GiveUp() }
                    repeatRule = RepeatRule(rrule: rule) ?? .none
                    return
                }
                let value = try parser.parseValue(depth: 2)
                // `id` and `urgency` (on every task) are Taskwarrior's to compute again: not carried.
                if !TaskwarriorCarry.computed.contains(name) { carriedMembers[name] = value }
            }
        }
        guard let status else { throw GiveUp() }
        switch status {
        case .deleted:
            losses.deleted += 1
            if let id { losses.deletedIDs.append(id) }
            return nil
        case .recurring, .pending, .waiting, .completed: break
        }
        // The description kept as it came; one with nothing to show is the strict path's to refuse.
        guard let id, let description, case let caption = CaptionRule.kept(description), CaptionRule.hasVisible(caption),
            let createdAt = entry ?? modified ?? end
        else { throw GiveUp() }
        let completed = status == .completed
        let waiting = !completed && (status == .waiting || (wait.map { $0 > now } ?? false))
        if waiting { losses.waitingToBonus += 1 }
        for name in others where !TaskwarriorFormat.kept.contains(name) {
            losses.droppedFields[name, default: 0] += 1
        }
        // The note and tags are HotTask's (`record(of:)` carries the annotations' entry times only).
        let (note, tags) = TaskwarriorCarry.noteAndTags(
            annotations: carriedMembers["annotations"], tags: carriedMembers["tags"], project: carriedMembers["project"])
        if status == .waiting { carriedMembers["status"] = .string("waiting") }
        // A recurrence's template or occurrence: folded into one repeating task once all are read.
        if status == .recurring || hasParent {
            losses.recurrencePieces += 1
            if status == .recurring { carriedMembers["status"] = .string("recurring") }
        }
        // H is carried only for a task it did not put in Top Priority (a waiting one).
        if priorityHigh && waiting { carriedMembers["priority"] = .string("H") }
        let task = TaskItem(
            id: id, caption: caption, section: priorityHigh && !waiting ? .priority : .bonus, completed: completed,
            createdAt: createdAt, completedAt: completed ? (end ?? modified ?? createdAt) : nil,
            modifiedAt: modified ?? end ?? createdAt, due: due.flatMap { DueDate.fromTaskwarrior($0) }, note: note, tags: tags,
            repeatRule: repeatRule)
        return (task, carriedMembers.isEmpty ? nil : TaskwarriorCarry.record(of: carriedMembers, section: task.section))
    }
}
