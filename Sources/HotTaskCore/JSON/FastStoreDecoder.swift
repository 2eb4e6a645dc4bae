import Foundation

/// Reads a store document straight into tasks, without building a JSON tree: at 100,000
/// tasks the tree (a dictionary per task) cost most of the load time and memory.
///
/// It only has to be right when it succeeds. On anything unusual — a syntax error, an
/// unknown key, a number other than `1` for the version, a bad field — it gives up and
/// returns nil, and `StoreDocument.decode` runs the strict parser, which finds the problem
/// and describes it. So every error message still comes from one place.
extension JSONParser {
    static func decodeStoreFast(_ bytes: [UInt8]) -> TaskList? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            return try? parser.storeDocument()
        }
    }


    private mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw GiveUp() }
        index += 1
    }

    /// True and consumed when the next byte is `byte`.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func storeDocument() throws -> TaskList {
        var list: TaskList?
        var sawVersion = false
        try forEachKey { parser, key in
            switch key {
            case "version" where !sawVersion:
                // Exactly `1`: anything else is for the strict path to judge.
                let bytes = parser.bytes
                let at = parser.index
                guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "1"),
                    !(0x30...0x39).contains(bytes[at + 1]), bytes[at + 1] != UInt8(ascii: "."),
                    bytes[at + 1] != UInt8(ascii: "e"), bytes[at + 1] != UInt8(ascii: "E")
                else { throw GiveUp() }
                parser.index += 1
                sawVersion = true
            case "tasks" where list == nil:
                list = try parser.taskArray()
            default:
                throw GiveUp()
            }
        }
        skipWhitespace()
        guard index == bytes.count, sawVersion, let list else { throw GiveUp() }
        return list
    }

    private mutating func taskArray() throws -> TaskList {
        var list = TaskList()
        var ids = Set<UUID>()
        try expect(UInt8(ascii: "["))
        if take(UInt8(ascii: "]")) { return list }
        repeat {
            let task = try taskObject()
            guard ids.insert(task.id).inserted else { throw GiveUp() }
            list.append(task)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        return list
    }

    private mutating func taskObject() throws -> TaskItem {
        var id: UUID?
        var caption: String?
        var section: Section?
        var completed: Bool?
        var createdAt: Date?
        var completedAt: Date?
        var completedAtSeen = false
        var modifiedAt: Date?
        try forEachKey { parser, key in
            switch key {
            // A value that does not parse gives up at once: leaving the field nil would let a
            // duplicate key through, or default a field the strict path would refuse.
            case "id" where id == nil: id = try required(UUIDBytes.parse(try parser.plainString()))
            case "caption" where caption == nil: caption = try CaptionRule.clean(try parser.quotedString())
            case "section" where section == nil: section = try required(Section(rawValue: try parser.quotedString()))
            case "completed" where completed == nil: completed = try parser.boolean()
            case "createdAt" where createdAt == nil: createdAt = try required(Timestamp.parse(utf8: try parser.plainString()))
            case "modifiedAt" where modifiedAt == nil: modifiedAt = try required(Timestamp.parse(utf8: try parser.plainString()))
            case "completedAt" where !completedAtSeen:
                completedAtSeen = true
                if !parser.takeNull() { completedAt = try required(Timestamp.parse(utf8: try parser.plainString())) }
            default:
                throw GiveUp()
            }
        }
        guard let id, let caption, let section, let completed, let createdAt else { throw GiveUp() }
        let modified = modifiedAt ?? createdAt
        return TaskItem(
            id: id, caption: caption, section: section, completed: completed, createdAt: createdAt,
            completedAt: completedAt ?? (completed ? modified : nil), modifiedAt: modified)
    }

    /// Reads an object `{"key": value, ...}`, calling `body` at each value with its key.
    private mutating func forEachKey(_ body: (inout JSONParser, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        repeat {
            skipWhitespace()
            let key = try quotedString()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try body(&self, key)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// A string, which must start here (`parseString` expects its caller to have checked).
    private mutating func quotedString() throws -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
        return try parseString()
    }

    /// The bytes of a string without escapes (ids and dates never have any).
    private mutating func plainString() throws -> UnsafeBufferPointer<UInt8> {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\") else { throw GiveUp() }
            end += 1
        }
        guard end < bytes.count else { throw GiveUp() }
        index = end + 1
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    private mutating func boolean() throws -> Bool {
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw GiveUp()
    }

    private mutating func takeNull() -> Bool {
        matchLiteral("null")
    }

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }
}

/// Why the fast path stopped: the strict parser takes over.
private struct GiveUp: Error {}

/// The value, or give up when it did not parse.
private func required<T>(_ value: T?) throws -> T {
    guard let value else { throw GiveUp() }
    return value
}
