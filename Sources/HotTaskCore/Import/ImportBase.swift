import Foundation

/// What each task looked like in the last file it was imported from (`tasks.json.imported`):
/// the base of `--import`'s three-way merge. A re-import changes a field only when the file
/// changed it since, so a completion made here survives re-importing an export that was only
/// annotated there, or one whose dates lie in the future.
///
/// A caption is kept as a 64-bit hash (the merge only asks "same or not"), so the file stays
/// about 50 bytes a task. Losing the file costs nothing but the merge's memory: imports then
/// fall back to "the newer modifiedAt wins".
public struct ImportBase: Sendable {
    public struct Entry: Equatable, Sendable {
        var captionHash: UInt64
        var section: Section
        var completed: Bool

        init(_ task: TaskItem) {
            captionHash = ImportBase.hash(task.caption)
            section = task.section
            completed = task.completed
        }

        init(captionHash: UInt64, section: Section, completed: Bool) {
            self.captionHash = captionHash
            self.section = section
            self.completed = completed
        }

        /// True when `task` has exactly these fields.
        func matches(_ task: TaskItem) -> Bool { self == Entry(task) }
    }

    var entries: [UUID: Entry] = [:]

    public init() {}

    public subscript(id: UUID) -> Entry? { entries[id] }

    public static func path(besides store: TaskStore) -> String { store.path + ".imported" }

    /// The base beside the store; empty when there is none or it cannot be read.
    public static func load(besides store: TaskStore) -> ImportBase {
        var base = ImportBase()
        guard let bytes = try? FileSystem.readAll(path(besides: store), limit: TaskStore.maximumFileSize) else { return base }
        for line in bytes.split(separator: 0x0A) {
            let parts = line.split(separator: 0x20)
            guard parts.count == 3, let id = UUID(uuidString: String(decoding: parts[0], as: UTF8.self)),
                let hash = UInt64(String(decoding: parts[1], as: UTF8.self), radix: 16), parts[2].count == 2
            else { continue }
            let flags = Array(parts[2])
            base.entries[id] = Entry(
                captionHash: hash, section: flags[0] == UInt8(ascii: "p") ? .priority : .bonus, completed: flags[1] == UInt8(ascii: "1"))
        }
        return base
    }

    /// What a file said of its tasks, kept until the import is committed and then recorded:
    /// 32 bytes a task, where a second copy of the base's hash table took 8 MB at 100,000.
    public struct Said: Sendable {
        fileprivate var entries: [(id: UUID, entry: Entry)]

        public init(_ tasks: [TaskItem]) {
            entries = tasks.map { ($0.id, Entry($0)) }
        }
    }

    /// Records what a file said, in place.
    public mutating func record(_ said: Said) {
        // Room for the larger of the two, not their sum: a re-import names the same tasks, and
        // room for twice as many would rehash every entry into a table twice the size.
        entries.reserveCapacity(max(entries.count, said.entries.count))
        for (id, entry) in said.entries { entries[id] = entry }
    }

    /// Records the tasks as the file had them.
    public mutating func record<Tasks: Sequence<TaskItem>>(_ tasks: Tasks, count: Int? = nil) {
        entries.reserveCapacity(max(entries.count, count ?? tasks.underestimatedCount))
        for task in tasks { entries[task.id] = Entry(task) }
    }

    public func save(besides store: TaskStore) throws(StoreDocument.ExportFailure) {
        var bytes: [UInt8] = []
        // A line is 57 bytes: id, space, 16 hex digits, space, two flags, line break.
        bytes.reserveCapacity(entries.count * 57)
        for (id, entry) in entries {
            UUIDBytes.append(id, to: &bytes)
            bytes.append(0x20)
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(UUIDBytes.hexDigits[Int(truncatingIfNeeded: entry.captionHash >> UInt64(shift)) & 0xF])
            }
            bytes.append(0x20)
            bytes.append(entry.section == .priority ? UInt8(ascii: "p") : UInt8(ascii: "b"))
            bytes.append(entry.completed ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            bytes.append(0x0A)
        }
        do {
            try FileSystem.writeAtomically(bytes, to: Self.path(besides: store))
        } catch {
            throw StoreDocument.ExportFailure(reason: error.reason)
        }
    }

    static func hash(_ text: String) -> UInt64 { FNV1a.hash(text.utf8) }
}
