import FoundationEssentials
import Glibc

/// Reading a store: the fast reader first (`FastStoreDecoder`), the strict one when it gives up, so
/// every error message comes from the strict one.
extension StoreDocument {
    static func decode(_ bytes: [UInt8]) throws(DocumentError) -> StoreSnapshot {
        if let snapshot = JSONParser.decodeStoreFast(bytes) { return snapshot }
        return try decodeStrictly(bytes)
    }

    /// The strict path alone: a JSON tree, then the document (the source of every error message).
    static func decodeStrictly(_ bytes: [UInt8]) throws(DocumentError) -> StoreSnapshot {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .syntax(error)
        }
        return try decode(root)
    }

    static func decode(_ root: JSONValue) throws(DocumentError) -> StoreSnapshot {
        guard case .object(let object) = root else {
            throw .invalid("expected an object with \"version\" and \"tasks\", found \(root.kindName)")
        }
        let documentVersion: Int
        switch object["version"] {
        case .number(1): documentVersion = 1
        case .number(2): documentVersion = 2
        case nil: throw .invalid("the \"version\" field is missing")
        case .number(let other): throw .unsupportedVersion(other.formatted())
        case let other?: throw .unsupportedVersion(other.kindName)
        }
        guard case .array(let items) = object["tasks"] else {
            throw .invalid("\"tasks\" must be an array, found \(object["tasks"]?.kindName ?? "nothing")")
        }
        var tasks: [TaskItem] = []
        var seen = Set<UUID>()
        var keyed = documentVersion >= 2
        for (offset, item) in items.enumerated() {
            let (task, hasOrder) = try decodeTask(item, number: offset + 1)
            guard seen.insert(task.id).inserted else {
                throw .invalid("task \(offset + 1): the id \(task.id.uuidString.lowercased()) is used by an earlier task too")
            }
            keyed = keyed && hasOrder
            tasks.append(task)
        }
        var tombstones: [Tombstone] = []
        if documentVersion >= 2, let deleted = object["deleted"] {
            guard case .array(let items) = deleted else {
                throw .invalid("\"deleted\" must be an array, found \(deleted.kindName)")
            }
            for (offset, item) in items.enumerated() {
                let what = "deleted task \(offset + 1)"
                let (task, _) = try decodeTask(item, number: offset + 1, what: what)
                let fields = try FieldReader(item, what: what)
                guard let clock = Clock(try fields.string("deletedClock")) else {
                    throw fields.problem("\"deletedClock\" is not a clock like \"1795255200123.0\"")
                }
                guard !seen.contains(task.id) else {
                    throw fields.problem("the id \(task.id.uuidString.lowercased()) is also a task that is not deleted")
                }
                tombstones.append(Tombstone(task: task, clock: clock))
            }
        }
        var list = keyed ? TaskList(keyed: tasks, deleted: tombstones) : TaskList(tasks)
        let header = documentVersion >= 2 ? try decodeHeader(object, list: list) : nil
        if let header { list.lists = header.lists }
        return StoreSnapshot(header: header, list: list, activity: header == nil ? ActivityHistory() : try decodeActivity(object["history"]))
    }

    /// `"history": {"all": "…", "steps": "…", "occurrences": "…", "takenBack": "…"}` (see `ActivityHistory`);
    /// other keys are a later HotTask's.
    private static func decodeActivity(_ value: JSONValue?) throws(DocumentError) -> ActivityHistory {
        guard let value else { return ActivityHistory() }
        var steps: String?
        var occurrences: String?
        var takenBack: String?
        if case .object(let object) = value, case .string(let text)? = object["steps"] { steps = text }
        if case .object(let object) = value, case .string(let text)? = object["occurrences"] { occurrences = text }
        if case .object(let object) = value, case .string(let text)? = object["takenBack"] { takenBack = text }
        guard case .object(let object) = value, case .string(let text)? = object["all"],
            let activity = ActivityHistory(text: text, steps: steps, occurrences: occurrences, takenBack: takenBack)
        else {
            throw .invalid("\"history\" must be {\"all\": \"quarter:added:completed …\"}")
        }
        return activity
    }

    /// The header of a version 2 snapshot, or nil for an export (no generation).
    private static func decodeHeader(_ object: [String: JSONValue], list: TaskList) throws(DocumentError) -> SnapshotHeader? {
        guard object["generation"] != nil else { return nil }
        let fields = try FieldReader(.object(object), what: "the store")
        guard let generation = Generation(try fields.string("generation")) else {
            throw fields.problem("\"generation\" must be 16 lowercase hex digits")
        }
        guard let clock = Clock(try fields.string("clock")) else {
            throw fields.problem("\"clock\" is not a clock like \"1795255200123.0\"")
        }
        var lists = ListNames.initial
        if let value = fields.object["lists"] {
            guard case .array(let items) = value,
                let stored = ListNames(stored: items.compactMap { if case .string(let name) = $0 { name } else { nil } }),
                stored.names.count == items.count
            else { throw fields.problem("\"lists\" must be an array of list names, each once") }
            lists = stored
        }
        var header = SnapshotHeader(generation: generation, clock: clock, list: list, folds: try decodeFolds(fields))
        header.lists = lists
        return header
    }

    /// `follows` and `folded`, both or neither (a snapshot of an older HotTask).
    private static func decodeFolds(_ fields: FieldReader) throws(DocumentError) -> FoldedLog? {
        guard let follows = fields.object["follows"] else {
            guard fields.object["folded"] == nil else { throw fields.problem("\"folded\" needs \"follows\"") }
            return nil
        }
        var generation: Generation?
        switch follows {
        case .null: break
        case .string(let text):
            guard let parsed = Generation(text) else { throw fields.problem("\"follows\" must be 16 lowercase hex digits or null") }
            generation = parsed
        default: throw fields.problem("\"follows\" must be 16 lowercase hex digits or null")
        }
        guard case .number(let records)? = fields.object["folded"], records >= 0, records <= 1e9, records == records.rounded() else {
            throw fields.problem("\"folded\" must be a count of records")
        }
        return FoldedLog(generation: generation, records: Int(records))
    }

    /// Reads one task object; `number` (1-based) names it in messages. Also says whether it had
    /// an order key (version 2).
    static func decodeTask(_ value: JSONValue, number: Int, what: String? = nil) throws(DocumentError) -> (TaskItem, hasOrder: Bool) {
        let fields = try FieldReader(value, what: what ?? "task \(number)")
        let id = try fields.uuid("id")
        // Every field of the table the object has; those written before the dates are required.
        var read = TaskFields()
        for field in TaskField.allCases {
            if let value = try field.read(from: fields) {
                read[field] = value
            } else if field.placement == .beforeDates {
                throw fields.problem("the \"\(field.key)\" field is missing")
            }
        }
        let createdAt = try fields.date("createdAt")
        let completedAt = try fields.optionalDate("completedAt")
        let modifiedAt = try fields.optionalDate("modifiedAt") ?? createdAt
        var clocks = FieldClocks()
        if let clockText = try fields.optionalString("clock") {
            guard let parsed = Self.clocks(from: Substring(clockText)) else {
                throw fields.problem("\"clock\" is not one stamp, or one for each field, like \"1795255200123.0\"")
            }
            clocks = parsed
        }
        var task = TaskItem(id: id, caption: "", createdAt: createdAt, modifiedAt: modifiedAt, clocks: clocks)
        for field in TaskField.allCases {
            if let value = read[field] { field.set(value, on: &task, completedAt: completedAt ?? modifiedAt, now: nil) }
        }
        return (task, read.order != nil)
    }
}

extension Double {
    fileprivate func formatted() -> String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

/// Reads typed fields out of a JSON object, naming the object and field in every error.
struct FieldReader {
    let object: [String: JSONValue]
    let what: String

    init(_ value: JSONValue, what: String) throws(DocumentError) {
        guard case .object(let object) = value else {
            throw .invalid("\(what): expected an object, found \(value.kindName)")
        }
        self.object = object
        self.what = what
    }

    func problem(_ message: String) -> DocumentError {
        .invalid("\(what): \(message)")
    }

    func optionalString(_ key: String) throws(DocumentError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw problem("\"\(key)\" must be a string, found \(other.kindName)")
        }
    }

    func string(_ key: String) throws(DocumentError) -> String {
        guard let text = try optionalString(key) else { throw problem("the \"\(key)\" field is missing") }
        return text
    }

    func bool(_ key: String) throws(DocumentError) -> Bool {
        switch object[key] {
        case .bool(let value)?: return value
        case nil: throw problem("the \"\(key)\" field is missing")
        case let other?: throw problem("\"\(key)\" must be true or false, found \(other.kindName)")
        }
    }

    func uuid(_ key: String) throws(DocumentError) -> UUID {
        let text = try string(key)
        guard let id = UUID(uuidString: text) else { throw problem("\"\(key)\" is not a UUID: \"\(text)\"") }
        return id
    }

    /// A stored caption, kept as it is (`CaptionRule.kept`).
    func caption(_ key: String) throws(DocumentError) -> String {
        CaptionRule.kept(try string(key))
    }

    func optionalDate(_ key: String, parse: (String) -> Date? = Timestamp.parse) throws(DocumentError) -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard let date = parse(text) else {
            throw problem("\"\(key)\" is not a date like 2026-11-21T10:00:00Z: \"\(text)\"")
        }
        return date
    }

    func date(_ key: String) throws(DocumentError) -> Date {
        guard let date = try optionalDate(key) else { throw problem("the \"\(key)\" field is missing") }
        return date
    }
}
