import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// The tasks a command names by id, found without reading the whole snapshot: the id is
/// searched for in the snapshot's bytes, only that task's object is parsed, and the log's
/// records for it are replayed on it. So `--done <id>` costs about what `--add` does, at any
/// size. Used only while the snapshot is exactly the one the log was started for (then it was
/// written by HotTask, in its own layout); otherwise the caller reads everything.
struct PointLookup: Sendable {
    /// The named tasks as they are now, by the handle that named them.
    var tasks: [String: TaskItem]
    /// A key each section's tasks all come after: a task given a key before it goes on top.
    var top: [Section: OrderKey?]
    /// The latest stamp in the store.
    var clock: Clock
    var generation: Generation
    /// When asked for: every subtask in the store and the named tasks' parents, so that a
    /// change its subtasks follow finds them without reading every task (`FamilyLookup`).
    var family: [TaskItem] = []

    /// Whether a handle can be looked up this way: an id prefix, not a list number.
    static func isIDHandle(_ handle: String) -> Bool {
        TaskList.isIDPrefix(handle) && handle == handle.trimmingWhitespace()
    }
}

/// Why a handle names no single task.
struct PointLookupRefusal: Error, Sendable {
    let handle: String
    let reason: ReferenceError
}

extension TaskStore {
    /// The tasks the handles name, found by id without reading every task; nil when the
    /// snapshot's layout or the log do not allow it. Throws `PointLookupRefusal`.
    func pointLookup(_ handles: [String], view quick: StoreTransaction.LogView, withFamily: Bool = false) throws -> PointLookup? {
        // The snapshot's bytes, read only when its index cannot answer. Read, not mapped: a file
        // truncated by another program while mapped would end the process with SIGBUS.
        var bytes: [UInt8]?
        let noSubtasksInSnapshot =
            withFamily
            && SnapshotIndex.saysNoSubtasks(
                at: indexPath, generation: quick.generation, snapshotSize: quick.snapshotSize, count: quick.snapshotCount)
        if withFamily && !noSubtasksInSnapshot { bytes = try? FileSystem.readAll(path, limit: StoreLimits.readBytes) }
        var found: [String: TaskItem] = [:]
        for handle in handles {
            let prefix = handle.lowercased()
            var candidates: [UUID: TaskItem] = [:]
            var inSnapshot = indexedTasks(withIDPrefix: prefix, quick: quick)
            if inSnapshot == nil {
                if bytes == nil { bytes = try? FileSystem.readAll(path, limit: StoreLimits.readBytes) }
                inSnapshot = bytes?.withUnsafeBufferPointer { Self.tasks(withIDPrefix: prefix, in: $0) } ?? nil
            }
            guard let inSnapshot else { return nil }
            for task in inSnapshot { candidates[task.id] = task }
            // The log's records on top, in order: adds bring tasks in, deletes take them out.
            var deleted = Set<UUID>()
            for record in quick.records {
                for change in record.changes where change.id.uuidString.lowercased().hasPrefix(prefix) {
                    var list = TaskList(keyed: candidates[change.id].map { [$0] } ?? [])
                    if deleted.contains(change.id), case .set = change { return nil }  // would need the tombstone
                    list.apply(change, clock: record.clock)
                    if let task = list.task(withID: change.id) {
                        candidates[change.id] = task
                        deleted.remove(change.id)
                    } else {
                        candidates[change.id] = nil
                        deleted.insert(change.id)
                    }
                }
            }
            guard candidates.count == 1, let task = candidates.first?.value else {
                throw PointLookupRefusal(
                    handle: handle, reason: TaskList.prefixProblem(prefix, matching: candidates.values.sorted { $0.id.uuidString < $1.id.uuidString })
                )
            }
            found[handle] = task
        }
        var lookup = PointLookup(tasks: found, top: quick.top.keys, clock: quick.clock, generation: quick.generation)
        if withFamily {
            let members =
                noSubtasksInSnapshot
                ? familyWithoutSubtasksInSnapshot(of: found.values, view: quick) : bytes.flatMap { family(of: found.values, in: $0, view: quick) }
            guard let members else { return nil }
            lookup.family = members
        }
        return lookup
    }

    /// The live tasks whose id starts with `prefix`, found through the snapshot's index: each
    /// object is read from the snapshot and must hold the id the index gave it. nil when the
    /// index cannot be used.
    func indexedTasks(withIDPrefix prefix: String, quick: StoreTransaction.LogView) -> [TaskItem]? {
        guard
            let entries = SnapshotIndex.entries(
                withIDPrefix: prefix, at: indexPath, generation: quick.generation, snapshotSize: quick.snapshotSize,
                count: quick.snapshotCount)
        else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var tasks: [TaskItem] = []
        for entry in entries {
            guard let object = FileSystem.readExactly(fd, at: entry.offset, count: entry.length),
                let value = try? JSONParser.parse(object), let (task, hasOrder) = try? StoreDocument.decodeTask(value, number: 1),
                hasOrder, task.id == entry.id
            else { return nil }
            tasks.append(task)
        }
        return tasks
    }

    /// The live tasks (not tombstones) whose id starts with `prefix`, found in the snapshot's
    /// bytes as HotTask lays them out; nil when the layout is not HotTask's.
    static func tasks(withIDPrefix prefix: String, in buffer: UnsafeBufferPointer<UInt8>) -> [TaskItem]? {
        tasks(containing: Array("\n      \"id\": \"\(prefix)".utf8), in: buffer)
    }

    /// The live tasks whose object holds `needle` (a field's line as HotTask writes it); nil
    /// when the layout is not HotTask's.
    /// `accept`: given the offset just past a hit, whether its object is wanted (one scan that
    /// parses only the objects it accepts).
    static func tasks(
        containing needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, accept: (Int) -> Bool = { _ in true }
    ) -> [TaskItem]? {
        let objectStart = Array("\n    {".utf8)
        let objectEnd = Array("\n    }".utf8)
        let deletedMarker = Array("\n  \"deleted\": [".utf8)
        guard let base = buffer.baseAddress else { return nil }
        let end = find(deletedMarker, in: buffer, from: 0) ?? buffer.count
        var tasks: [TaskItem] = []
        var from = 0
        while let hit = find(needle, in: buffer, from: from), hit < end {
            from = hit + needle.count
            guard accept(from) else { continue }
            guard let start = findBackward(objectStart, in: buffer, before: hit),
                let close = find(objectEnd, in: buffer, from: hit)
            else { return nil }
            let object = Array(UnsafeBufferPointer(start: base + start + 1, count: close + objectEnd.count - start - 1))
            guard let value = try? JSONParser.parse(object), let (task, hasOrder) = try? StoreDocument.decodeTask(value, number: 1),
                hasOrder
            else { return nil }
            tasks.append(task)
        }
        return tasks
    }

    private static func find(_ needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        needle.withUnsafeBufferPointer { ByteSearch.firstIndex(of: $0, in: buffer, from: from) }
    }

    private static func findBackward(_ needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, before: Int) -> Int? {
        var index = before - needle.count
        while index >= 0 {
            if buffer[index] == needle[0], Array(buffer[index..<(index + needle.count)]) == needle { return index }
            index -= 1
        }
        return nil
    }
}
