import Foundation

/// Tasks read from an import file, validated in full before anything is written.
public struct ImportBatch: Equatable, Sendable {
    public enum Format: String, Sendable {
        case hottask = "HotTask"
        case taskwarrior = "Taskwarrior"
        case todoTxt = "todo.txt"
    }

    public let format: Format
    public let tasks: [TaskItem]
    /// Tasks the source holds that HotTask does not take (Taskwarrior's deleted tasks and
    /// recurrence templates).
    public let skipped: Int

    /// Why an import file could not be read.
    public struct ReadFailure: Error, Sendable {
        public let reason: String
    }

    /// Reads an import file (or `/dev/stdin`), refusing one larger than a store may be.
    public static func readFile(_ path: String) throws(ReadFailure) -> [UInt8] {
        do throws(FileSystem.Failure) {
            if try FileSystem.kind(of: path) == .directory { throw FileSystem.Failure(reason: "it is a folder, not a file") }
            return try FileSystem.readAll(path, limit: TaskStore.maximumFileSize)
        } catch {
            throw ReadFailure(reason: error.reason)
        }
    }

    /// Reads a HotTask store document, Taskwarrior's `task export` (an array or one object
    /// per line) or a todo.txt file; which one is told from the content (JSON starts with `{`
    /// or `[`; other text that is not JSON at all is todo.txt).
    public static func parse(_ bytes: [UInt8]) throws(DocumentError) -> ImportBatch {
        guard let first = bytes.first(where: { !isJSONWhitespace($0) }) else {
            throw .invalid("the input is empty")
        }
        if let list = JSONParser.decodeStoreFast(bytes) {
            return ImportBatch(format: .hottask, tasks: list.all, skipped: 0)
        }
        if first != UInt8(ascii: "{") && first != UInt8(ascii: "["), (try? JSONParser.parse(bytes)) == nil {
            return try TodoTxtFormat.batch(from: bytes)
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch let wholeError {
            // Taskwarrior writes one object per line; a HotTask document never has that shape.
            guard let lines = try jsonLines(bytes) else { throw .syntax(wholeError) }
            return try TaskwarriorFormat.batch(from: lines.map { ("line \($0.line)", $0.value) })
        }
        switch root {
        case .object(let object) where object["tasks"] != nil || object["version"] != nil:
            let list = try StoreDocument.decode(root)
            return ImportBatch(format: .hottask, tasks: list.all, skipped: 0)
        case .object(let object) where object["uuid"] != nil:
            return try TaskwarriorFormat.batch(from: [("task 1", root)])
        case .array(let items):
            return try TaskwarriorFormat.batch(from: items.enumerated().map { ("task \($0.offset + 1)", $0.element) })
        default:
            throw .invalid(
                "expected a HotTask store ({\"version\": 1, \"tasks\": [...]}) or a Taskwarrior export (an array of tasks), found \(root.kindName)"
            )
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The values of a JSON Lines text, or nil when the text does not look like one (its
    /// first line is not a complete object on its own).
    private static func jsonLines(_ bytes: [UInt8]) throws(DocumentError) -> [(line: Int, value: JSONValue)]? {
        let start = bytes.firstIndex(where: { !isJSONWhitespace($0) }) ?? 0
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        guard case .object? = try? JSONParser.parse(Array(bytes[start..<end])), end < bytes.count else {
            return nil
        }
        do {
            return try JSONParser.parseLines(bytes)
        } catch {
            throw .syntax(error)
        }
    }
}

/// What an import did, for the line the CLI prints.
public struct ImportCounts: Equatable, Sendable, CustomStringConvertible {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    public var skipped = 0

    public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
    }

    public var description: String {
        "added \(added), updated \(updated), unchanged \(unchanged), skipped \(skipped)"
    }
}

extension TaskList {
    /// Merges by id: new ids are added at the end of their section in the order given; a known
    /// id is replaced when the incoming `modifiedAt` is newer (in place, or at the end of its new
    /// section if it moved); nothing is deleted.
    public mutating func merge(_ batch: ImportBatch) -> ImportCounts {
        var counts = ImportCounts(skipped: batch.skipped)
        var existing: [UUID: TaskItem] = [:]
        existing.reserveCapacity(count)
        for task in all { existing[task.id] = task }
        var updates: [UUID: TaskItem] = [:]
        var added: [TaskItem] = []
        for task in batch.tasks {
            if let current = existing[task.id] {
                if task.modifiedAt > current.modifiedAt {
                    updates[task.id] = task
                    counts.updated += 1
                } else {
                    counts.unchanged += 1
                }
            } else {
                added.append(task)
                counts.added += 1
            }
        }
        guard counts.added + counts.updated > 0 else { return counts }
        var kept: [TaskItem] = []
        var moved: [TaskItem] = []
        for task in all {
            if let update = updates[task.id] {
                if update.section == task.section { kept.append(update) } else { moved.append(update) }
            } else {
                kept.append(task)
            }
        }
        self = TaskList(kept + moved + added)
        return counts
    }
}
