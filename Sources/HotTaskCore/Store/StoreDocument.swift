import Foundation

/// Why a JSON document is not a HotTask store (or import file).
public enum DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON at all, with the position of the problem.
    case syntax(JSONSyntaxError)
    /// Valid JSON that is not a store of the supported version.
    case unsupportedVersion(String)
    /// Valid JSON whose content is wrong; the text names the task and field.
    case invalid(String)

    public var description: String {
        switch self {
        case .syntax(let error): "not valid JSON: \(error)"
        case .unsupportedVersion(let found):
            "unknown store version \(found); this HotTask reads version \(StoreDocument.version)"
        case .invalid(let message): message
        }
    }
}

/// A snapshot's identity and summary, written before its tasks so that a command that only
/// adds can read it from the first few hundred bytes.
public struct SnapshotHeader: Equatable, Sendable {
    /// A random name for this snapshot: log records name the snapshot they follow, so a record
    /// is never replayed on a snapshot that already holds it.
    var generation: Generation
    /// The latest stamp of any change the snapshot holds.
    var clock: Clock
    var count: Int
    /// The first key of each section (nil when empty): where a new task on top goes.
    var top: [Section: OrderKey]
    /// The log this snapshot folded; nil for a snapshot written before snapshots said so.
    var folds: FoldedLog?

    init(generation: Generation, clock: Clock, count: Int, top: [Section: OrderKey], folds: FoldedLog? = nil) {
        self.generation = generation
        self.clock = clock
        self.count = count
        self.top = top
        self.folds = folds
    }

    /// The header for a snapshot of `list`.
    init(generation: Generation, clock: Clock, list: TaskList, folds: FoldedLog? = nil) {
        var top: [Section: OrderKey] = [:]
        for section in Section.allCases { top[section] = list.tasks(in: section).first?.order }
        self.init(generation: generation, clock: clock, count: list.count, top: top, folds: folds)
    }
}

/// What a snapshot holds of the log it was made from (keys `follows` and `folded`): the log's
/// generation and how many of that generation's records it holds. So a reader can tell the log
/// a crash left before the new log was started (that generation, no more records than that)
/// from a log that lost records or belongs to another snapshot.
struct FoldedLog: Equatable, Sendable {
    /// The generation named by the log's header; nil when there was no such log (a version 1
    /// journal, or a log without a readable header).
    var generation: Generation?
    /// How many records of that generation the snapshot holds.
    var records: Int
}

/// Sixteen hex digits naming one snapshot.
struct Generation: Hashable, Sendable, CustomStringConvertible {
    let text: String

    init?(_ text: String) {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.text = text
    }

    static func random() -> Generation {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return Generation(String(repeating: "0", count: 16 - hex.count) + hex) ?? Generation.random()
    }

    var description: String { text }
}

/// A store file read back: its tasks, and its header (nil for a version 1 store or an export).
struct StoreSnapshot: Equatable, Sendable {
    var header: SnapshotHeader?
    var list: TaskList
}

/// The store file's format: `{"version": 2, "generation": ..., "tasks": [...], "deleted": [...]}`,
/// tasks in display order. Version 1 stores (no order keys, clocks or tombstones) are read.
public enum StoreDocument {
    static let version = 2

    // MARK: Writing

    /// The snapshot as pretty-printed UTF-8 JSON with a fixed key order and a final newline.
    /// Without a header it is an export: the tasks only.
    public static func encode(_ list: TaskList, header: SnapshotHeader? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        _ = write(list, header: header) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// An export (no header) in pieces of about `pieceSize` bytes, each given to `emit` as soon
    /// as it is full: `--export -` never holds the whole document (30 MB at 100,000 tasks).
    /// The pieces together are exactly `encode(list)`.
    public static func encode(_ list: TaskList, pieceSize: Int = 1 << 18, emit: ([UInt8]) -> Void) {
        _ = write(list, header: nil, pieceSize: pieceSize, emit: emit)
    }

    /// Whether `write` encodes on two threads unless told: a list large enough to pay for it.
    static func twoThreads(for list: TaskList) -> Bool {
        list.count >= 20_000 && ProcessInfo.processInfo.activeProcessorCount > 1
    }

    /// The document in pieces of about `pieceSize` bytes, given to `emit` in order, and where
    /// each task's object lies in it (a snapshot's index; empty for an export). A compaction
    /// streams the pieces to disk, so the 36 MB of a 100,000-task snapshot are never held.
    ///
    /// The tasks are written in runs of about a piece each. On two threads, runs are written two
    /// at a time, one on each, and go out in order: every object is exactly as one thread
    /// writes it, and at most two runs are held.
    static func write(
        _ list: TaskList, header: SnapshotHeader?, pieceSize: Int = 1 << 20, twoThreads: Bool? = nil,
        emit: ([UInt8]) -> Void
    ) -> [SnapshotIndex.Entry] {
        var entries: [SnapshotIndex.Entry] = []
        if header != nil { entries.reserveCapacity(list.count) }
        var head = JSONWriter(capacity: 512)
        head.raw("{")
        head.key("version", indent: 2, first: true)
        head.raw(String(version))
        if let header {
            head.key("generation", indent: 2, first: false)
            head.string(header.generation.text)
            head.key("clock", indent: 2, first: false)
            head.string(header.clock.description)
            head.key("count", indent: 2, first: false)
            head.raw(String(header.count))
            head.key("top", indent: 2, first: false)
            head.raw("{")
            for section in Section.allCases {
                if section != .priority { head.raw(", ") }
                head.string(section.rawValue)
                head.raw(": ")
                if let key = header.top[section] { head.string(key.text) } else { head.raw("null") }
            }
            head.raw("}")
            if let folds = header.folds {
                head.key("follows", indent: 2, first: false)
                if let generation = folds.generation { head.string(generation.text) } else { head.raw("null") }
                head.key("folded", indent: 2, first: false)
                head.raw(String(folds.records))
            }
        }
        head.key("tasks", indent: 2, first: false)
        head.raw("[")
        var written = head.bytes.count
        emit(head.bytes)

        let runs = [TaskRun(capacity: pieceSize, stamped: header != nil), TaskRun(capacity: pieceSize, stamped: header != nil)]
        let used = (twoThreads ?? Self.twoThreads(for: list)) ? 2 : 1
        // Tasks per run: a piece's worth at about 380 bytes a task in a snapshot, 280 in an export.
        let runLength = max(1, pieceSize / (header == nil ? 280 : 380))
        var start = 0
        while start < list.count {
            let ranges = (0..<used).map { run in
                min(start + run * runLength, list.count)..<min(start + (run + 1) * runLength, list.count)
            }
            if ranges[1...].allSatisfy(\.isEmpty) {
                runs[0].write(list, ranges[0])
            } else {
                DispatchQueue.concurrentPerform(iterations: used) { run in runs[run].write(list, ranges[run]) }
            }
            for run in runs.prefix(used) where !run.writer.bytes.isEmpty {
                for entry in run.entries {
                    entries.append(SnapshotIndex.Entry(id: entry.id, offset: written + entry.offset, length: entry.length))
                }
                written += run.writer.bytes.count
                emit(run.writer.bytes)
                run.clear()
            }
            start = ranges.last!.upperBound
        }

        var tail = JSONWriter(capacity: 512)
        if !list.isEmpty { tail.newline(indent: 2) }
        tail.raw("]")
        if header != nil {
            tail.key("deleted", indent: 2, first: false)
            // By id as its text sorts, compared as numbers (no String per comparison).
            let tombstones = list.deleted.values.sorted { UUIDBytes.sortKey($0.task.id) < UUIDBytes.sortKey($1.task.id) }
            writeArray(tombstones, to: &tail) { write($0.task, to: &$1, deletedAt: $0.clock) }
        }
        tail.newline(indent: 0)
        tail.raw("}\n")
        emit(tail.bytes)
        return entries
    }

    /// One run of consecutive tasks, each after its "," (but the first task's) and line break,
    /// as `writeArray` writes them; offsets in `entries` are from the run's start. A class: the
    /// two threads each fill their own.
    // Unchecked: each run is written by one thread of `concurrentPerform` (its own index) and read
    // only after `concurrentPerform` returns, which orders the writes before the reads.
    private final class TaskRun: @unchecked Sendable {
        var writer: JSONWriter
        var entries: [SnapshotIndex.Entry] = []
        let stamped: Bool

        init(capacity: Int, stamped: Bool) {
            writer = JSONWriter(capacity: capacity + 16 << 10)
            self.stamped = stamped
        }

        func write(_ list: TaskList, _ positions: Range<Int>) {
            for position in positions {
                if position > 0 { writer.raw(",") }
                writer.newline(indent: 4)
                let task = list[position]
                let offset = writer.bytes.count
                StoreDocument.write(task, to: &writer, stamped: stamped)
                if stamped { entries.append(SnapshotIndex.Entry(id: task.id, offset: offset, length: writer.bytes.count - offset)) }
            }
        }

        /// Empty again, keeping its room: the next run reuses it.
        func clear() {
            writer.clear()
            entries.removeAll(keepingCapacity: true)
        }
    }

    private static func writeArray<Items: Sequence>(_ items: Items, to writer: inout JSONWriter, _ body: (Items.Element, inout JSONWriter) -> Void) {
        writer.raw("[")
        var empty = true
        for item in items {
            if !empty { writer.raw(",") }
            empty = false
            writer.newline(indent: 4)
            body(item, &writer)
        }
        if !empty { writer.newline(indent: 2) }
        writer.raw("]")
    }

    /// A string as a JSON string literal, quotes and escapes included (for other tools' formats).
    public static func jsonString(_ text: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.string(text)
        return writer.bytes
    }

    /// Writes one task object; `compact` puts it on one line (for the change log). Exports leave
    /// out the order key and stamps (`stamped` false): their order is the array's, and stamps
    /// mean something only in the store that made them.
    static func write(_ task: TaskItem, to writer: inout JSONWriter, compact: Bool = false, stamped: Bool = true, deletedAt: Clock? = nil) {
        writer.compact = compact
        writer.raw("{")
        writer.key("id", indent: 6, first: true)
        writer.uuid(task.id)
        writer.key("caption", indent: 6, first: false)
        writer.string(task.caption)
        writer.key("section", indent: 6, first: false)
        writer.string(task.section.rawValue)
        writer.key("completed", indent: 6, first: false)
        writer.raw(task.completed ? "true" : "false")
        writer.key("createdAt", indent: 6, first: false)
        writer.date(task.createdAt)
        writer.key("completedAt", indent: 6, first: false)
        if let completedAt = task.completedAt {
            writer.date(completedAt)
        } else {
            writer.raw("null")
        }
        writer.key("modifiedAt", indent: 6, first: false)
        writer.date(task.modifiedAt)
        // Only when set: a store without due dates is byte for byte what it was before them.
        if let due = task.due {
            writer.key("due", indent: 6, first: false)
            writer.string(due.text())
            if let zone = due.zoneName {
                writer.key("dueZone", indent: 6, first: false)
                writer.string(zone)
            }
        }
        if stamped {
            writer.key("order", indent: 6, first: false)
            writer.string(task.order.text)
            writer.key("clock", indent: 6, first: false)
            writer.string(clockText(task.clocks))
        }
        if let deletedAt {
            writer.key("deletedClock", indent: 6, first: false)
            writer.string(deletedAt.description)
        }
        writer.newline(indent: 4)
        writer.raw("}")
        writer.compact = false
    }

    /// One stamp when all fields share it, else four (caption, section, completed, order) when
    /// the due date's is the earliest of those (as in every store from before due dates), else
    /// five (then due). A task whose due date was never set is written as before.
    static func clockText(_ clocks: FieldClocks) -> String {
        if clocks.areUniform { return clocks.caption.description }
        let four = "\(clocks.caption) \(clocks.section) \(clocks.completed) \(clocks.order)"
        return clocks.dueIsImplied ? four : four + " \(clocks.due)"
    }

    static func clocks(from text: Substring) -> FieldClocks? {
        var text = text
        return text.withUTF8 { clocks(utf8: $0) }
    }

    /// `clocks(from:)` on UTF-8 bytes: one stamp, or four or five separated by single spaces.
    static func clocks(utf8 bytes: UnsafeBufferPointer<UInt8>) -> FieldClocks? {
        // Without an array: one was made and freed for every task read.
        var parts: (Clock, Clock, Clock, Clock, Clock) = (.zero, .zero, .zero, .zero, .zero)
        var count = 0
        var start = 0
        for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: " ") {
            guard count < 5, let clock = Clock(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return nil }
            switch count {
            case 0: parts.0 = clock
            case 1: parts.1 = clock
            case 2: parts.2 = clock
            case 3: parts.3 = clock
            default: parts.4 = clock
            }
            count += 1
            start = end + 1
        }
        switch count {
        case 1: return FieldClocks(parts.0)
        case 4: return FieldClocks(caption: parts.0, section: parts.1, completed: parts.2, order: parts.3)
        case 5: return FieldClocks(caption: parts.0, section: parts.1, completed: parts.2, order: parts.3, due: parts.4)
        default: return nil
        }
    }

    // MARK: Reading

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
        let list = keyed ? TaskList(keyed: tasks, deleted: tombstones) : TaskList(tasks)
        return StoreSnapshot(header: documentVersion >= 2 ? try decodeHeader(object, list: list) : nil, list: list)
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
        return SnapshotHeader(generation: generation, clock: clock, list: list, folds: try decodeFolds(fields))
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
        let caption = try fields.caption("caption")
        let sectionName = try fields.string("section")
        guard let section = Section(rawValue: sectionName) else {
            throw fields.problem("\"section\" must be \"priority\" or \"bonus\", found \"\(sectionName)\"")
        }
        let completed = try fields.bool("completed")
        let createdAt = try fields.date("createdAt")
        let completedAt = try fields.optionalDate("completedAt")
        let modifiedAt = try fields.optionalDate("modifiedAt") ?? createdAt
        var order = OrderKey.middle
        let orderText = try fields.optionalString("order")
        if let orderText {
            guard let key = OrderKey(orderText) else { throw fields.problem("\"order\" is not an order key: \"\(orderText)\"") }
            order = key
        }
        var clocks = FieldClocks()
        if let clockText = try fields.optionalString("clock") {
            guard let parsed = Self.clocks(from: Substring(clockText)) else {
                throw fields.problem("\"clock\" is not one, four or five clocks like \"1795255200123.0\"")
            }
            clocks = parsed
        }
        var due: DueDate?
        if let dueText = try fields.optionalString("due") {
            guard let parsed = DueDate(text: dueText, zone: try fields.optionalString("dueZone")) else {
                throw fields.problem("\"due\" is not a date like \"2026-12-01\" or a time like \"2026-12-01T09:30:00+01:00\": \"\(dueText)\"")
            }
            due = parsed
        } else if fields.object["dueZone"] != nil, fields.object["dueZone"] != .null {
            throw fields.problem("\"dueZone\" needs \"due\"")
        }
        let task = TaskItem(
            id: id, caption: caption, section: section, completed: completed, createdAt: createdAt,
            completedAt: completedAt ?? (completed ? modifiedAt : nil), modifiedAt: modifiedAt, order: order, due: due, clocks: clocks)
        return (task, orderText != nil)
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

    /// A stored caption (see `CaptionRule.cleanStored`); imports check theirs with `clean`.
    func caption(_ key: String) throws(DocumentError) -> String {
        let raw = try string(key)
        do {
            return try CaptionRule.cleanStored(raw)
        } catch {
            throw problem("\"\(key)\": \(error)")
        }
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

extension StoreDocument {
    /// Why an export file could not be written.
    public struct ExportFailure: Error, Sendable {
        public let reason: String
    }
}
