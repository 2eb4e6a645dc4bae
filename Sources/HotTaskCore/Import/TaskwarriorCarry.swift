import Foundation

/// The part of a Taskwarrior task HotTask does not model, carried (`CarriedFields`) as a JSON
/// object of those members, and merged back into the export: `task import` replaces every field
/// of a task it has, so whatever the export leaves out is wiped there.
enum TaskwarriorCarry {
    /// Fields HotTask writes from its own task: never carried, and a record holding one (made
    /// before HotTask modelled it, as the due date was) has it left out on export, so that
    /// HotTask's value wins.
    static let modelled: Set<String> = ["uuid", "description", "status", "entry", "modified", "end", "due"]
    /// `"name":` of each field that may override a carried member: the modelled ones and
    /// priority (status only through `status(for:)`).
    private static let overriding: [[UInt8]] = (modelled.sorted() + ["priority"]).map { Array("\"\($0)\":".utf8) }
    /// Fields Taskwarrior computes on export and ignores on import.
    static let computed: Set<String> = ["id", "urgency"]

    /// The members of `object` to carry, as a JSON object's text; nil when there are none. A
    /// priority other than H is carried (HotTask has only "Top Priority or not"), and so is H
    /// on a task that went to Bonus (a waiting one), and status `waiting` (HotTask's open is
    /// `pending`).
    static func record(of object: [String: JSONValue], section: Section) -> String? {
        var members = object.filter { !modelled.contains($0.key) && !computed.contains($0.key) }
        switch members["priority"] {
        case .string("H")? where section == .priority: members["priority"] = nil
        case .null?: members["priority"] = nil
        default: break
        }
        if case .string("waiting")? = object["status"] { members["status"] = .string("waiting") }
        guard !members.isEmpty else { return nil }
        var writer = JSONWriter()
        write(.object(members), to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The carried members to write after HotTask's own fields (each with its leading comma):
    /// a carried priority only while the task is not Top Priority (HotTask's H wins), status only
    /// through `status(for:)`.
    static func members(of record: String?, section: Section) -> [(key: String, value: JSONValue)] {
        guard let record, case .object(let object)? = try? JSONParser.parse(Array(record.utf8)) else { return [] }
        return object.filter { $0.key != "status" && !(section == .priority && $0.key == "priority") && !modelled.contains($0.key) }
            .sorted { $0.key < $1.key }
    }

    /// The record's members as written (its text without the braces) when none of them is one
    /// HotTask's fields may override (priority, status): most records, written without parsing.
    /// A member name is always quoted, so `"priority":` appears only as a name or inside a string
    /// (then the slow path is merely taken for nothing).
    static func plainMembers(of record: String) -> Substring? {
        guard record.hasPrefix("{"), record.hasSuffix("}"), record.utf8.count > 2, !overriding.contains(where: { has(record, $0) })
        else { return nil }
        return record.dropFirst().dropLast()
    }

    /// Whether `text` holds `part`, byte for byte (Foundation's `contains` was a third of an export).
    private static func has(_ text: String, _ part: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            part.withUnsafeBufferPointer { ByteSearch.firstIndex(of: $0, in: bytes, from: 0) != nil }
        }
    }

    /// The status to write: `waiting` for an open task Taskwarrior had waiting.
    static func status(for task: TaskItem, record: String?) -> String {
        if task.completed { return "completed" }
        if let record, has(record, Array("\"status\":\"waiting\"".utf8)),
            case .object(let object)? = try? JSONParser.parse(Array(record.utf8)), case .string("waiting")? = object["status"]
        {
            return "waiting"
        }
        return "pending"
    }

    /// JSON text of a value, keys sorted; an integral number without a fraction (`"imask":1`).
    static func write(_ value: JSONValue, to writer: inout JSONWriter) {
        switch value {
        case .null: writer.raw("null")
        case .bool(let flag): writer.raw(flag ? "true" : "false")
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                writer.raw(String(Int64(number)))
            } else {
                writer.raw(number.description)
            }
        case .string(let text): writer.string(text)
        case .array(let items):
            writer.raw("[")
            for (offset, item) in items.enumerated() {
                if offset > 0 { writer.raw(",") }
                write(item, to: &writer)
            }
            writer.raw("]")
        case .object(let object):
            writer.raw("{")
            for (offset, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
                if offset > 0 { writer.raw(",") }
                writer.string(member.key)
                writer.raw(":")
                write(member.value, to: &writer)
            }
            writer.raw("}")
        }
    }
}
