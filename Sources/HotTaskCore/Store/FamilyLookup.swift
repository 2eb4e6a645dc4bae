import FoundationEssentials
import Glibc

/// The subtasks a change by id takes with it (`--done`, `--move`, `--delete`, `--edit --in`),
/// found without decoding every task: the snapshot's bytes are searched a level at a time for
/// the line HotTask writes for a parent, only the objects under the tasks found so far are
/// parsed, and the log is replayed on them. A store without subtasks costs one search of its
/// bytes; one with 80,000 parses only the named tasks' families.
extension TaskStore {
    /// The named tasks' subtasks (and those of tasks the log adds or moves under another) and
    /// the named tasks' parents, as the log left them, from the snapshot's bytes; nil when the
    /// snapshot's layout or the log do not allow it (then the caller reads it whole).
    func family(
        of named: some Sequence<TaskItem>, in bytes: [UInt8], view quick: StoreTransaction.LogView
    ) -> [TaskItem]? {
        bytes.withUnsafeBufferPointer { buffer in
            family(
                of: named, view: quick, byID: { Self.tasks(withIDPrefix: Subtasks.text($0), in: buffer) },
                children: { Self.tasks(under: $0, in: buffer) })
        }
    }

    /// The same when the snapshot's index says no task in it has a parent (most stores): the
    /// tasks wanted by id come through the index, and only the log can hold subtasks. So
    /// `--done` at 100,000 tasks reads a few objects, not the whole snapshot.
    func familyWithoutSubtasksInSnapshot(of named: some Sequence<TaskItem>, view quick: StoreTransaction.LogView) -> [TaskItem]? {
        family(of: named, view: quick, byID: { indexedTasks(withIDPrefix: Subtasks.text($0), quick: quick) }, children: { _ in [] })
    }

    /// `byID`: the snapshot's live task with that id (none or one), nil when it cannot be told.
    /// `children`: the snapshot's live tasks whose parent is one of the ids given as text.
    private func family(
        of named: some Sequence<TaskItem>, view quick: StoreTransaction.LogView, byID: (UUID) -> [TaskItem]?,
        children: (Set<[UInt8]>) -> [TaskItem]?
    ) -> [TaskItem]? {
        // Tasks the snapshot may hold without a parent that matter: those a log record puts
        // under one, and the named tasks' parents.
        var added = Set<UUID>()
        var wanted: [UUID] = []
        for record in quick.records {
            for change in record.changes {
                switch change {
                case .add(let task): added.insert(task.id)
                case .set(let id, let fields, _): if case .some(.some) = fields.parent, !added.contains(id) { wanted.append(id) }
                case .delete: break
                }
            }
        }
        wanted += named.compactMap(\.parent)
        // The named tasks' subtasks at any depth, and those of the tasks the log adds or puts
        // under another: one scan of the parent lines a level, parsing only the objects whose
        // parent is a task of the level above (not every subtask of the store).
        var tasks: [TaskItem] = []
        var held = Set<UUID>()
        for id in wanted where !held.contains(id) {
            guard let found = byID(id) else { return nil }
            for task in found where held.insert(task.id).inserted { tasks.append(task) }
        }
        var level = Set((named.map(\.id) + added + wanted).map { Array(Subtasks.text($0).utf8) })
        while !level.isEmpty {
            guard let found = children(level) else { return nil }
            level = []
            for task in found where held.insert(task.id).inserted {
                tasks.append(task)
                level.insert(Array(Subtasks.text(task.id).utf8))
            }
        }
        // The log on top, in order; a change to a task not held does not touch the family.
        var list = TaskList(keyed: tasks)
        var deleted = Set<UUID>()
        for record in quick.records {
            for change in record.changes {
                let isHeld = list.task(withID: change.id) != nil
                switch change {
                case .add: break
                case .set:
                    if deleted.contains(change.id) { return nil }  // would need the tombstone
                    guard isHeld else { continue }
                case .delete: guard isHeld else { continue }
                }
                list.apply(change, clock: record.clock)
                if list.task(withID: change.id) == nil { deleted.insert(change.id) } else { deleted.remove(change.id) }
            }
        }
        let parents = Set(named.compactMap(\.parent))
        return (list.tasks(in: .priority) + list.tasks(in: .bonus)).filter { $0.parent != nil || parents.contains($0.id) }
    }

    /// The snapshot's live tasks whose parent line names one of `above` (ids as text).
    private static func tasks(under above: Set<[UInt8]>, in buffer: UnsafeBufferPointer<UInt8>) -> [TaskItem]? {
        let parentLine = Array("\n      \"parent\": \"".utf8)
        // Most parent lines name another family: their first eight bytes turn them away
        // before any array is made.
        let starts = Set(above.map { $0.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } })
        return tasks(containing: parentLine, in: buffer) { at in
            guard at + 36 <= buffer.count, let base = buffer.baseAddress,
                starts.contains(UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            else { return false }
            return above.contains(Array(buffer[at..<(at + 36)]))
        }
    }
}
