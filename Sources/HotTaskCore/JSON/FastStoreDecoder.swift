import Dispatch
import FoundationEssentials
import Glibc

/// Reads a store document straight into tasks, without building a JSON tree: at 100,000
/// tasks the tree (a dictionary per task) cost most of the load time and memory.
///
/// It only has to be right when it succeeds. On anything unusual — a syntax error, an
/// unknown key, a number other than `1` for the version, a bad field — it gives up and
/// returns nil, and `StoreDocument.decode` runs the strict parser, which finds the problem
/// and describes it. So every error message still comes from one place.
extension JSONParser {
    /// `givingKeys` false: a document without order keys (an export) leaves its tasks without
    /// them, in the array's order, for a caller that only takes them out (an import's batch,
    /// whose new tasks get the store's keys): making 100,000 keys was a tenth of an import.
    static func decodeStoreFast(_ bytes: [UInt8], givingKeys: Bool = true) -> StoreSnapshot? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            return try? parser.storeDocument(givingKeys: givingKeys)
        }
    }

    /// The store document in `file`, read through a window of about 1 MB for each thread rather
    /// than whole: at 100,000 tasks the file is 36 MB, and it was held until every task was made.
    /// `limit`: a file that grows past it while being read gives up (the strict path refuses it).
    /// `windowSize`: each thread's window to start with (tests make it smaller than a task).
    static func decodeStoreFast(_ file: FileSystem.OpenFile, limit: Int, windowSize: Int = 1 << 20, givingKeys: Bool = true) -> StoreSnapshot? {
        guard file.size > 0, file.size <= limit else { return nil }
        var parser = JSONParser(FileWindow(file, at: 0, capacity: windowSize, limit: limit))
        return try? parser.storeDocument(givingKeys: givingKeys)
    }

    /// The next task object of an array, the window slid on before it and after it (so that
    /// the `,` or `]` that follows is in the window too).
    mutating func nextTaskObject() throws -> (TaskItem, hasOrder: Bool, deletedClock: Clock?) {
        refillIfLow()
        let object = try element { try $0.taskObject() }
        refillIfLow()
        return object
    }

    private mutating func storeDocument(givingKeys: Bool) throws -> StoreSnapshot {
        var tasks: TaskSections?
        var expected = 0
        var tombstones: [Tombstone]?
        var version: UInt8?
        var generation: Generation?
        var clock: Clock?
        var sawCount = false
        var sawTop = false
        var follows: Generation??
        var folded: Int?
        var lists: ListNames?
        var activity: ActivityHistory?
        try forEachKey { parser, key in
            switch key {
            case "version" where version == nil:
                // Exactly `1` or `2`: anything else is for the strict path to judge.
                let bytes = parser.bytes
                let at = parser.index
                guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "1") || bytes[at] == UInt8(ascii: "2"),
                    !(0x30...0x39).contains(bytes[at + 1]), bytes[at + 1] != UInt8(ascii: "."),
                    bytes[at + 1] != UInt8(ascii: "e"), bytes[at + 1] != UInt8(ascii: "E")
                else { throw GiveUp() }
                version = bytes[at] - 0x30
                parser.index += 1
            case "generation" where generation == nil:
                generation = try required(Generation(String(decoding: try parser.plainString(), as: UTF8.self)))
            case "clock" where clock == nil: clock = try required(Clock(utf8: try parser.plainString()))
            case "count" where !sawCount:
                // Recounted from the tasks; only its form is checked here.
                sawCount = true
                let start = parser.index
                guard parser.skipDigits() else { throw GiveUp() }
                // Only room is made from it (at most the most a store may hold).
                for byte in parser.bytes[start..<parser.index] where (0x30...0x39).contains(byte) && expected <= StoreLimits.tasks {
                    expected = expected * 10 + Int(byte - 0x30)
                }
            case "top" where !sawTop:
                sawTop = true
                try parser.forEachKey { parser, _ in
                    if !parser.takeNull() { _ = try required(OrderKey(utf8: try parser.plainString())) }
                }
            case "follows" where follows == nil:
                follows = parser.takeNull() ? .some(nil) : try required(Generation(String(decoding: try parser.plainString(), as: UTF8.self)))
            case "folded" where folded == nil:
                let start = parser.index
                guard parser.skipDigits() else { throw GiveUp() }
                // At most nine digits (skipDigits); whitespace before them is passed over.
                folded = parser.bytes[start..<parser.index].reduce(0) { (0x30...0x39).contains($1) ? $0 * 10 + Int($1 - 0x30) : $0 }
            case "lists" where lists == nil: lists = try required(ListNames(stored: try parser.stringArray()))
            case "tasks" where tasks == nil: tasks = try parser.taskArray(expected: sawCount ? expected : nil)
            case "deleted" where tombstones == nil: tombstones = try parser.tombstoneArray()
            case "history" where activity == nil: activity = try parser.element { try $0.activityHistory() }
            default:
                throw GiveUp()
            }
        }
        guard atEndOfInput(), let version, var tasks else { throw GiveUp() }
        // Version 1 has the tasks only.
        if version == 1, generation != nil || clock != nil || sawCount || sawTop || tombstones != nil || activity != nil { throw GiveUp() }
        guard (generation == nil) == (clock == nil), (follows == nil) == (folded == nil), generation != nil || follows == nil else {
            throw GiveUp()
        }
        // A snapshot keys every task; version 1 and exports carry no keys (their order is the array's).
        let keyed = version == 2 && tasks.allKeyed
        guard keyed || generation == nil else { throw GiveUp() }
        // An import's batch joins the sections (`TaskList.takeAll`): room for both, made once.
        let (priority, bonus) = tasks.take(roomForAll: !givingKeys)
        guard lists == nil || generation != nil else { throw GiveUp() }
        // The ids must be unique across tasks and tombstones: checked on the other thread while
        // this one makes the list, when the list neither keys nor sorts its tasks (changing a
        // shared array would copy it; a sort happens only to a store written out of order).
        let beside = (keyed || !givingKeys) && StoreDocument.twoThreads(count: priority.count + bonus.count)
        // No closure holding the arrays outlives the check: the list keys them below (a copy).
        let checked = beside ? MadeOnOwnThread { [priority, bonus, tombstones] in Self.idsAreDistinct(priority, bonus, tombstones ?? []) } : nil
        if !beside, !Self.idsAreDistinct(priority, bonus, tombstones ?? []) { throw GiveUp() }
        var list = TaskList(priority: priority, bonus: bonus, keyed: keyed, givingKeys: givingKeys, deleted: keyed ? tombstones ?? [] : [])
        if let checked, !checked.value { throw GiveUp() }
        list.lists = lists ?? .initial
        let folds = follows.map { FoldedLog(generation: $0, records: folded ?? 0) }
        let header = generation.flatMap { generation in clock.map { SnapshotHeader(generation: generation, clock: $0, list: list, folds: folds) } }
        return StoreSnapshot(header: header, list: list, activity: activity ?? ActivityHistory())
    }

    private static func idsAreDistinct(_ priority: [TaskItem], _ bonus: [TaskItem], _ tombstones: [Tombstone]) -> Bool {
        IDTable(distinct: priority.count + bonus.count + tombstones.count) { add in
            // By index: `for task in` copies each task out, a retain and release of its caption.
            for index in priority.indices { add(priority[index].id) }
            for index in bonus.indices { add(bonus[index].id) }
            for tombstone in tombstones { add(tombstone.task.id) }
        } != nil
    }

    /// `{"all": "…", "steps": "…", "occurrences": "…", "takenBack": "…"}`: the lasting history (see `ActivityHistory`).
    private mutating func activityHistory() throws -> ActivityHistory {
        var texts: [String: String] = [:]
        try forEachKey { parser, key in
            let name = String(decoding: key, as: UTF8.self)
            guard ["all", "steps", "occurrences", "takenBack"].contains(name), texts[name] == nil else { throw GiveUp() }
            texts[name] = String(decoding: try parser.plainString(), as: UTF8.self)
        }
        return try required(
            ActivityHistory(text: try required(texts["all"]), steps: texts["steps"], occurrences: texts["occurrences"], takenBack: texts["takenBack"])
        )
    }

    private mutating func skipDigits() -> Bool {
        skipWhitespace()
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index > start && index - start < 10
    }

    /// The tasks of the array, split by section as they are read (each in the array's order).
    struct TaskSections {
        private(set) var priority: ReadTasks
        private(set) var bonus: ReadTasks
        /// Every task had an order key.
        private(set) var allKeyed = true

        /// `room`: for the first segment, room for the whole array in each section (none for the others).
        init(room: Int?) {
            priority = room.map { ReadTasks(room: $0) } ?? ReadTasks()
            bonus = room.map { ReadTasks(room: $0) } ?? ReadTasks()
        }

        mutating func append(_ task: consuming TaskItem, hasOrder: Bool) {
            allKeyed = allKeyed && hasOrder
            if task.section == .priority { priority.append(task) } else { bonus.append(task) }
        }

        /// Moves the tasks of `later` (a later segment's) onto the end of these.
        mutating func append(moving later: consuming TaskSections) {
            allKeyed = allKeyed && later.allKeyed
            priority.append(moving: later.priority)
            bonus.append(moving: later.bonus)
        }

        /// Both sections, handed over rather than shared: keying a shared one would copy it.
        /// `roomForAll`: the priority array has room for the bonus tasks too, for a caller that
        /// joins them (an import's batch).
        mutating func take(roomForAll: Bool = false) -> (priority: [TaskItem], bonus: [TaskItem]) {
            var first = priority.takeArray()
            if roomForAll { first.reserveCapacity(first.count + bonus.count) }
            return (first, bonus.takeArray())
        }
    }

    /// The tasks of the array, read in segments on two threads (`segmentedArray`). `expected`:
    /// how many there are, if the document says, to make room once.
    private mutating func taskArray(expected: Int?) throws -> TaskSections {
        // Without a count (an export), room for tasks of 160 bytes, about the smallest an export writes.
        let room = min(expected ?? ((window?.file.size ?? bytes.count) - position) / 160, StoreLimits.tasks)
        try expect(UInt8(ascii: "["))
        if take(UInt8(ascii: "]")) { return TaskSections(room: 0) }
        return try segmentedArray(
            first: TaskSections(room: room), { TaskSections(room: nil) },
            element: { parser, piece in
                let (task, hasOrder, deletedClock) = try parser.nextTaskObject()
                guard deletedClock == nil else { throw GiveUp() }
                piece.append(task, hasOrder: hasOrder)
            },
            absorb: { tasks, later in tasks.append(moving: later) })
    }

    private mutating func tombstoneArray() throws -> [Tombstone] {
        var tombstones: [Tombstone] = []
        try expect(UInt8(ascii: "["))
        if take(UInt8(ascii: "]")) { return tombstones }
        repeat {
            let (task, hasOrder, deletedClock) = try nextTaskObject()
            guard hasOrder, let deletedClock else { throw GiveUp() }
            tombstones.append(Tombstone(task: task, clock: deletedClock))
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        return tombstones
    }

    fileprivate mutating func taskObject() throws -> (TaskItem, hasOrder: Bool, deletedClock: Clock?) {
        var id: UUID?
        var createdAt: Date?
        // Its text: most tasks were never changed, and their modifiedAt is the same text.
        var createdText: UnsafeBufferPointer<UInt8>?
        var completedAt: Date?
        var completedAtSeen = false
        var modifiedAt: Date?
        var clocks: FieldClocks?
        // The table's fields, each read once, straight into their own types.
        var fields = StoredFields()
        var deletedClock: Clock?
        try forEachKey { parser, key in
            switch key {
            // A value that does not parse gives up at once: leaving the field nil would let a
            // duplicate key through, or default a field the strict path would refuse.
            case "id" where id == nil: id = try required(UUIDBytes.parse(try parser.plainString()))
            case "createdAt" where createdAt == nil:
                let text = try parser.plainString()
                createdAt = try required(Timestamp.parse(utf8: text))
                createdText = text
            case "modifiedAt" where modifiedAt == nil:
                let text = try parser.plainString()
                if let createdText, let createdAt, sameBytes(text, createdText) {
                    modifiedAt = createdAt
                } else {
                    modifiedAt = try required(Timestamp.parse(utf8: text))
                }
            case "completedAt" where !completedAtSeen:
                completedAtSeen = true
                if !parser.takeNull() { completedAt = try required(Timestamp.parse(utf8: try parser.plainString())) }
            case "clock" where clocks == nil: clocks = try required(StoreDocument.clocks(utf8: try parser.plainString()))
            default:
                // The table's fields before the rarer keys: four of a task's keys are fields.
                if let field = TaskField(utf8: key) {
                    try fields.read(field, from: &parser)
                    return
                }
                switch key {
                case "dueZone" where fields.dueZone == nil: fields.dueZone = String(decoding: try parser.plainString(), as: UTF8.self)
                case "deletedClock" where deletedClock == nil: deletedClock = try required(Clock(utf8: try parser.plainString()))
                default: throw GiveUp()
                }
            }
        }
        // Every field written before the dates is required.
        guard let id, let createdAt, let caption = fields.caption, let section = fields.section, let completed = fields.completed
        else { throw GiveUp() }
        let due = try fields.dueDate()
        let modified = modifiedAt ?? createdAt
        let task = TaskItem(
            id: id, caption: caption, section: section, completed: completed, createdAt: createdAt,
            completedAt: completedAt ?? modified, modifiedAt: modified, order: fields.order ?? .middle, due: due,
            note: fields.note ?? "", tags: fields.tags ?? [], repeatRule: fields.repeatRule ?? .none, list: fields.list ?? "",
            parent: fields.parent, clocks: clocks ?? FieldClocks())
        return (task, fields.order != nil, deletedClock)
    }

    /// The table's fields of a stored task as they are read, each in its own type: a task is
    /// made from them once, all fields at a time (a `FieldValue` per field, set one by one,
    /// was a fifth of a whole store's read). `read` switches over every field of the table, so a
    /// field added there does not compile until it is read here; `TaskFieldTests` checks that
    /// each reaches the task.
    fileprivate struct StoredFields {
        var caption: String?
        var section: Section?
        var completed: Bool?
        var order: OrderKey?
        // Copied: the zone may come after it, and a file window may have moved on by then.
        var dueText: [UInt8]?
        var dueZone: String?
        var note: String?
        var tags: [String]?
        var repeatRule: RepeatRule?
        var list: String?
        var parent: UUID?
        var parentSeen = false

        /// Reads `field`'s value where `parser` is; gives up on a second one.
        mutating func read(_ field: TaskField, from parser: inout JSONParser) throws {
            switch field {
            case .caption where caption == nil: caption = try parser.storedCaption()
            case .section where section == nil: section = try required(Section(utf8: try parser.plainString()))
            case .completed where completed == nil: completed = try parser.boolean()
            case .order where order == nil: order = try required(OrderKey(utf8: try parser.plainString()))
            case .due where dueText == nil: dueText = Array(try parser.plainString())
            case .note where note == nil:
                let text = try parser.quotedString()
                note = NoteRule.isAlreadyClean(text) ? text : try NoteRule.cleanStored(text)
            case .tags where tags == nil: tags = try parser.storedTags()
            case .repeatRule where repeatRule == nil:
                let text = try parser.quotedString()
                repeatRule = text.isEmpty ? RepeatRule.none : try required(RepeatRule(stored: text))
            case .list where list == nil:
                let text = try parser.quotedString()
                if !text.isEmpty, ListNameRule.check(text) != nil { throw GiveUp() }
                list = text
            case .parent where !parentSeen:
                parentSeen = true
                let text = try parser.plainString()
                parent = try required(parser.lastParent.parse(text))
            case .caption, .section, .completed, .order, .due, .note, .tags, .repeatRule, .list, .parent: throw GiveUp()
            }
        }

        /// The due date, read with its zone (which may come after it); none without either.
        func dueDate() throws -> DueDate? {
            guard let dueText else {
                if dueZone != nil { throw GiveUp() }
                return nil
            }
            return try required(dueText.withUnsafeBufferPointer { DueDate.parse(utf8: $0, zone: dueZone) })
        }
    }

    fileprivate mutating func storedTags() throws -> [String] {
        try TagRule.cleanStored(try stringArray())
    }

    /// A caption as `CaptionRule.kept` leaves it. One with nothing the rule drops becomes a
    /// String straight from its bytes; any other takes the String path and the full rule.
    fileprivate mutating func storedCaption() throws -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
        let start = index + 1
        var end = firstNotPlain(from: start)
        // Printable ASCII to the quote: kept as it is, and valid UTF-8.
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        // A raw control byte is not JSON: the strict path says so.
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if CaptionRule.keepsAsItIs(text), let caption = String(validating: text, as: UTF8.self) {
                index = end + 1
                return caption
            }
        }
        return CaptionRule.kept(try quotedString())
    }
}

extension Section {
    /// The section named by these bytes (`priority` or `bonus`), as `init(rawValue:)`.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        switch bytes {
        case "priority": self = .priority
        case "bonus": self = .bonus
        default: return nil
        }
    }
}
