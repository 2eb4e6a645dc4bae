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

/// The store file's format: `{"version": 1, "tasks": [...]}`, tasks in display order.
public enum StoreDocument {
    public static let version = 1

    // MARK: Writing

    /// The document as pretty-printed UTF-8 JSON with a fixed key order and a final newline.
    public static func encode(_ list: TaskList) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + list.count * 240)
        writer.raw("{")
        writer.key("version", indent: 2, first: true)
        writer.raw(String(version))
        writer.key("tasks", indent: 2, first: false)
        writer.raw("[")
        var first = true
        for section in Section.allCases {
            for task in list.tasks(in: section) {
                if !first { writer.raw(",") }
                first = false
                writer.newline(indent: 4)
                write(task, to: &writer)
            }
        }
        if !first { writer.newline(indent: 2) }
        writer.raw("]")
        writer.newline(indent: 0)
        writer.raw("}\n")
        return writer.bytes
    }

    /// A string as a JSON string literal, quotes and escapes included (for other tools' formats).
    public static func jsonString(_ text: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.string(text)
        return writer.bytes
    }

    /// Writes one task object; `compact` puts it on one line (for the journal).
    static func write(_ task: TaskItem, to writer: inout JSONWriter, compact: Bool = false) {
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
        writer.newline(indent: 4)
        writer.raw("}")
    }

    // MARK: Reading

    public static func decode(_ bytes: [UInt8]) throws(DocumentError) -> TaskList {
        if let list = JSONParser.decodeStoreFast(bytes) { return list }
        return try decodeStrictly(bytes)
    }

    /// The strict path alone: a JSON tree, then the document (the source of every error message).
    static func decodeStrictly(_ bytes: [UInt8]) throws(DocumentError) -> TaskList {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .syntax(error)
        }
        return try decode(root)
    }

    public static func decode(_ root: JSONValue) throws(DocumentError) -> TaskList {
        guard case .object(let object) = root else {
            throw .invalid("expected an object with \"version\" and \"tasks\", found \(root.kindName)")
        }
        switch object["version"] {
        case .number(Double(version)): break
        case nil: throw .invalid("the \"version\" field is missing")
        case .number(let other): throw .unsupportedVersion(other.formatted())
        case let other?: throw .unsupportedVersion(other.kindName)
        }
        guard case .array(let items) = object["tasks"] else {
            throw .invalid("\"tasks\" must be an array, found \(object["tasks"]?.kindName ?? "nothing")")
        }
        var list = TaskList()
        var seen = Set<UUID>()
        for (offset, item) in items.enumerated() {
            let task = try decodeTask(item, number: offset + 1)
            guard seen.insert(task.id).inserted else {
                throw .invalid("task \(offset + 1): the id \(task.id.uuidString.lowercased()) is used by an earlier task too")
            }
            list.append(task)
        }
        return list
    }

    /// Reads one task object; `number` (1-based) names it in messages.
    public static func decodeTask(_ value: JSONValue, number: Int) throws(DocumentError) -> TaskItem {
        let fields = try FieldReader(value, what: "task \(number)")
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
        return TaskItem(
            id: id, caption: caption, section: section, completed: completed, createdAt: createdAt,
            completedAt: completedAt ?? (completed ? modifiedAt : nil), modifiedAt: modifiedAt)
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

    func caption(_ key: String) throws(DocumentError) -> String {
        let raw = try string(key)
        do {
            return try CaptionRule.clean(raw)
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

    /// Writes the document for `list` to `path` atomically (used by `--export`).
    public static func export(_ list: TaskList, to path: String) throws(ExportFailure) {
        do {
            try FileSystem.writeAtomically(encode(list), to: path, mode: 0o644)
        } catch {
            throw ExportFailure(reason: error.reason)
        }
    }
}
