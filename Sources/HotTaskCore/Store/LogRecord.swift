import FoundationEssentials
import Glibc

/// One committed change: what one command or one key did, stamped and named by the snapshot
/// it follows.
public struct LogRecord: Equatable, Sendable {
    /// What a sync's merge is called in the log: "sync with URL". The UI offers such a record
    /// from another process (hottask-sync) for undo, as if a key had made it.
    static let syncMergePrefix = "sync with "
    public var isSyncMerge: Bool { what.hasPrefix(Self.syncMergePrefix) && undoes == nil }
    /// Changed no task and undid nothing (what a sync only learned of the server): undo has
    /// nothing in it to take back.
    var changesNothing: Bool { changes.isEmpty && undoes == nil && !changesLetGo && lists == nil }
    /// Its changes were let go before it was folded into a snapshot (too large to keep for
    /// undo): it changed tasks, so undo must not pass over it. Never written to the log.
    var changesLetGo = false
    /// What its let-go changes added to the history (`letChangesGo`). Never written to the log.
    var activityLetGo: ActivityHistory? = nil
    /// The snapshot this record extends; it is replayed only on that snapshot.
    var generation: Generation
    public var clock: Clock
    /// What a person would call it: "Completed “Buy milk”".
    var what: String
    /// The record this one takes back (an undo), if any.
    var undoes: Clock?
    public var changes: [TaskChange]
    /// Its place among its generation's records (1, 2, 3…), given when it is appended: a
    /// record missing from the middle of the log leaves a gap a reader sees. Nil in records of
    /// an older HotTask, which count by their place.
    var sequence: Int?
    /// Who committed it, when a UI asked (`HOTTASK_ORIGIN`): the UI offers for undo only the
    /// syncs it ran itself.
    public var by: String? = nil
    /// What a sync agreed with the server, committed with the changes it belongs to (see
    /// `SyncDelta`); nil in every other record.
    var sync: SyncDelta? = nil
    /// The store's lists after this record and before it, when it changed them (a list made,
    /// renamed or deleted; see `ListNames`); nil in every other record.
    var lists: ListNamesChange? = nil
    /// The import's side files written ahead under this token, which this record commits
    /// (`ExchangeFiles`); nil in every other record.
    var exchange: Generation? = nil

    init(
        generation: Generation, clock: Clock, what: String, undoes: Clock? = nil, changes: [TaskChange], sequence: Int? = nil,
        by: String? = nil, sync: SyncDelta? = nil
    ) {
        self.generation = generation
        self.clock = clock
        self.what = what
        self.undoes = undoes
        self.changes = changes
        self.sequence = sequence
        self.by = by
        self.sync = sync
    }
}

/// One record as one line of the log (compact JSON, its checksum, a newline), and read back:
/// a line that does not read is a `LineProblem`, named by the log as damage.
extension ChangeLog {
    // MARK: Decoding

    struct LineProblem: Error {
        let reason: String
    }

    /// The suffix every record line ends with: `, "sum": "<16 hex digits>"}`.
    private static let sumPrefix = Array(#", "sum": ""#.utf8)
    private static let sumLength = sumPrefix.count + 16 + 2

    static func decodeRecord(_ line: [UInt8]) -> Result<LogRecord, LineProblem> {
        guard line.count > sumLength,
            Array(line[(line.count - sumLength)..<(line.count - sumLength + sumPrefix.count)]) == sumPrefix,
            line[line.count - 2] == UInt8(ascii: "\""), line[line.count - 1] == UInt8(ascii: "}")
        else { return .failure(LineProblem(reason: "the line has no checksum (cut short?)")) }
        let body = line[0..<(line.count - sumLength)]
        let sum = String(decoding: line[(line.count - 18)..<(line.count - 2)], as: UTF8.self)
        guard sum == checksum(body) else {
            return .failure(LineProblem(reason: "its checksum does not match its content"))
        }
        do {
            return .success(try record(from: JSONParser.parse(line)))
        } catch let problem as LineProblem {
            return .failure(problem)
        } catch {
            return .failure(LineProblem(reason: "\(error)"))
        }
    }

    private static func record(from value: JSONValue) throws -> LogRecord {
        let fields = try FieldReader(value, what: "the record")
        guard let generation = Generation(try fields.string("g")) else { throw LineProblem(reason: "\"g\" is not a generation") }
        guard let clock = Clock(try fields.string("clock")) else { throw LineProblem(reason: "\"clock\" is not a clock") }
        var undoes: Clock?
        if let text = try fields.optionalString("undoes") {
            guard let clock = Clock(text) else { throw LineProblem(reason: "\"undoes\" is not a clock") }
            undoes = clock
        }
        var sequence: Int?
        switch fields.object["n"] {
        case nil: break
        case .number(let number)? where number >= 1 && number <= 1e9 && number == number.rounded(): sequence = Int(number)
        default: throw LineProblem(reason: "\"n\" is not a record number")
        }
        guard case .array(let items)? = fields.object["changes"] else { throw LineProblem(reason: "\"changes\" is missing") }
        var changes: [TaskChange] = []
        for (offset, item) in items.enumerated() {
            let change = try FieldReader(item, what: "change \(offset + 1)")
            switch try change.string("op") {
            case "add", "delete":
                guard let taskValue = change.object["task"] else { throw change.problem("the task is missing") }
                let (task, hasOrder) = try StoreDocument.decodeTask(taskValue, number: offset + 1)
                guard hasOrder else { throw change.problem("the task has no order key") }
                changes.append(try change.string("op") == "add" ? .add(task) : .delete(task))
            case "set":
                guard let id = UUID(uuidString: try change.string("id")), let set = change.object["set"],
                    let was = change.object["was"]
                else { throw change.problem("a set needs an id, \"set\" and \"was\"") }
                changes.append(.set(id, try fieldsValue(set), was: try fieldsValue(was)))
            case let other:
                throw change.problem("unknown op \"\(other)\"")
            }
        }
        var sync: SyncDelta?
        if let text = try fields.optionalString("sync") {
            guard let delta = SyncDelta(json: text) else { throw LineProblem(reason: "\"sync\" is not sync state") }
            sync = delta
        }
        var record = LogRecord(
            generation: generation, clock: clock, what: try fields.string("what"), undoes: undoes, changes: changes, sequence: sequence,
            by: try fields.optionalString("by"), sync: sync)
        if fields.object["lists"] != nil {
            guard let after = ListNames(stored: try listNames(fields, "lists")),
                let before = ListNames(stored: try listNames(fields, "listsWas"))
            else { throw LineProblem(reason: "\"lists\" is not a list of lists") }
            record.lists = ListNamesChange(after: after, before: before)
        }
        if let text = try fields.optionalString("exchange") {
            guard let token = Generation(text) else { throw LineProblem(reason: "\"exchange\" is not a token") }
            record.exchange = token
        }
        return record
    }

    private static func listNames(_ fields: FieldReader, _ key: String) throws -> [String] {
        guard case .array(let items)? = fields.object[key] else { throw LineProblem(reason: "\"\(key)\" is not an array") }
        return try items.map { item in
            guard case .string(let name) = item else { throw LineProblem(reason: "\"\(key)\" holds a name that is not text") }
            return name
        }
    }

    private static func fieldsValue(_ value: JSONValue) throws -> TaskFields {
        let reader = try FieldReader(value, what: "the fields")
        var fields = TaskFields()
        for field in TaskField.allCases {
            guard let value = try field.read(from: reader) else { continue }
            fields[field] = value
            if field == .completed { fields.completedAt = try reader.optionalDate("completedAt") }
        }
        return fields
    }

    // MARK: Encoding

    /// A record as one line: compact JSON, its checksum, a newline.
    static func encode(_ record: LogRecord) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.compact = true
        writer.raw(#"{"g": "#)
        writer.string(record.generation.text)
        writer.raw(#", "clock": "#)
        writer.string(record.clock.description)
        if let sequence = record.sequence {
            writer.raw(#", "n": "#)
            writer.raw(String(sequence))
        }
        writer.raw(#", "what": "#)
        writer.string(record.what)
        if let undoes = record.undoes {
            writer.raw(#", "undoes": "#)
            writer.string(undoes.description)
        }
        writer.raw(#", "changes": ["#)
        for (offset, change) in record.changes.enumerated() {
            if offset > 0 { writer.raw(", ") }
            switch change {
            case .add(let task), .delete(let task):
                writer.raw(#"{"op": ""#)
                writer.raw(change.isAdd ? "add" : "delete")
                writer.raw(#"", "task": "#)
                StoreDocument.write(task, to: &writer, compact: true)
                writer.compact = true
                writer.raw("}")
            case .set(let id, let fields, let was):
                writer.raw(#"{"op": "set", "id": "#)
                writer.uuid(id)
                writer.raw(#", "set": "#)
                write(fields, to: &writer)
                writer.raw(#", "was": "#)
                write(was, to: &writer)
                writer.raw("}")
            }
        }
        writer.raw("]")
        if let by = record.by {
            writer.raw(#", "by": "#)
            writer.string(by)
        }
        if let sync = record.sync {
            writer.raw(#", "sync": "#)
            writer.string(sync.json)
        }
        if let lists = record.lists {
            writer.raw(#", "lists": "#)
            writer.strings(lists.after.names)
            writer.raw(#", "listsWas": "#)
            writer.strings(lists.before.names)
        }
        if let exchange = record.exchange {
            writer.raw(#", "exchange": "#)
            writer.string(exchange.text)
        }
        var bytes = writer.bytes
        let sum = checksum(bytes[...])
        bytes += sumPrefix + Array(sum.utf8) + Array("\"}\n".utf8)
        return bytes
    }

    private static func write(_ fields: TaskFields, to writer: inout JSONWriter) {
        writer.raw("{")
        var first = true
        for field in TaskField.allCases {
            guard let value = fields[field] else { continue }
            field.write(value, completedAt: fields.completedAt, withCompletedAt: true, to: &writer) { writer, key in
                if !first { writer.raw(", ") }
                first = false
                writer.string(key.description)
                writer.raw(": ")
            }
        }
        writer.raw("}")
    }
}
