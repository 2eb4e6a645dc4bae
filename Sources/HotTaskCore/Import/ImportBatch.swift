import Foundation

/// Tasks read from an import file, validated in full before anything is written.
public struct ImportBatch: Equatable, Sendable {
    public enum Format: String, Sendable {
        case hottask = "HotTask"
        case taskwarrior = "Taskwarrior"
        case todoTxt = "todo.txt"
        case iCalendar = "iCalendar"
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
        if ICalendarFormat.looksLikeICalendar(bytes) { return try ICalendarFormat.batch(from: bytes) }
        if let snapshot = JSONParser.decodeStoreFast(bytes) {
            return ImportBatch(format: .hottask, tasks: snapshot.list.all, skipped: 0)
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
            let snapshot = try StoreDocument.decode(root)
            return ImportBatch(format: .hottask, tasks: snapshot.list.all, skipped: 0)
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
    /// The changes that merge `batch` in, by id: new ids are added at the end of their section
    /// in the order given. A known id merges field by field against `base` (the task as the
    /// last import had it): a field the file did not change since keeps the value here; one
    /// changed only in the file takes the file's; one changed on both takes the later change.
    /// Without a base, the incoming fields win when its `modifiedAt` is newer. A task that
    /// moved goes to the end of its new section. A task deleted here comes back only when the
    /// file changed it since (or, without a base, changed it after the delete); nothing is
    /// deleted.
    public func importing(_ batch: ImportBatch, base: ImportBase = ImportBase()) -> (changes: [TaskChange], counts: ImportCounts) {
        var counts = ImportCounts(skipped: batch.skipped)
        var changes: [TaskChange] = []
        var added: [Section: [TaskItem]] = [:]
        var seen = Set<UUID>()
        var endKeys: [Section: OrderKey] = [:]
        func nextEndKey(_ section: Section) -> OrderKey {
            let key = OrderKey.between(endKeys[section] ?? tasks(in: section).last?.order, nil)
            endKeys[section] = key
            return key
        }
        for task in batch.tasks where seen.insert(task.id).inserted {
            if let current = self.task(withID: task.id) {
                var fields: TaskFields
                if let agreed = base[task.id] {
                    fields = Self.threeWay(incoming: task, current: current, base: agreed)
                } else {
                    guard task.modifiedAt > current.modifiedAt else {
                        counts.unchanged += 1
                        continue
                    }
                    fields = TaskFields(
                        caption: task.caption == current.caption ? nil : task.caption,
                        section: task.section == current.section ? nil : task.section,
                        completed: task.completed == current.completed ? nil : task.completed,
                        completedAt: task.completedAt)
                }
                if fields.section != nil { fields.order = nextEndKey(task.section) }
                if fields.isEmpty {
                    counts.unchanged += 1
                } else {
                    changes.append(.set(task.id, fields, was: fields.values(in: current)))
                    counts.updated += 1
                }
            } else if let tombstone = deleted[task.id],
                base[task.id].map({ $0.matches(task) }) ?? (task.modifiedAt <= tombstone.clock.date)
            {
                counts.skipped += 1  // an older copy of a task deleted here
            } else {
                added[task.section, default: []].append(task)
                counts.added += 1
            }
        }
        for section in Section.allCases {
            for var task in added[section] ?? [] {
                task.order = nextEndKey(section)
                changes.append(.add(task))
            }
        }
        return (changes, counts)
    }

    /// The fields the file changed since `base` and that win here: changed only in the file, or
    /// on both sides with the file's change the later.
    private static func threeWay(incoming: TaskItem, current: TaskItem, base: ImportBase.Entry) -> TaskFields {
        let fileTime = Clock(milliseconds: Int64(incoming.modifiedAt.timeIntervalSince1970 * 1000))
        func fileWins<Value: Equatable>(_ base: Value, _ here: Value, _ file: Value, hereTime: Clock) -> Bool {
            ThreeWay.pick(base: base, local: here, other: file, localTime: hereTime, otherTime: fileTime) == .other
        }
        var fields = TaskFields()
        // Captions are compared by fingerprint: the base keeps only that.
        if fileWins(base.captionHash, ImportBase.hash(current.caption), ImportBase.hash(incoming.caption), hereTime: current.clocks.caption) {
            fields.caption = incoming.caption
        }
        if fileWins(base.section, current.section, incoming.section, hereTime: current.clocks.section) {
            fields.section = incoming.section
        }
        if fileWins(base.completed, current.completed, incoming.completed, hereTime: current.clocks.completed) {
            fields.completed = incoming.completed
            fields.completedAt = incoming.completedAt
        }
        return fields
    }

    /// The changes that make this list exactly `tasks` (in that order): `--import --replace`.
    public func replacing(with tasks: [TaskItem]) -> [TaskChange] {
        let keyed = TaskList(tasks)
        let incoming = Set(keyed.all.map(\.id))
        var changes = all.filter { !incoming.contains($0.id) }.map { TaskChange.delete($0) }
        for task in keyed.all {
            if let current = self.task(withID: task.id) {
                let fields = TaskFields(
                    caption: task.caption, section: task.section, completed: task.completed, completedAt: task.completedAt,
                    order: task.order)
                if !fields.hold(in: current) { changes.append(.set(task.id, fields, was: fields.values(in: current))) }
            } else {
                changes.append(.add(task))
            }
        }
        return changes
    }
}
