import Foundation

/// The subtasks a change by id takes with it (`--done`, `--move`, `--delete`, `--edit --in`),
/// found without decoding every task: the snapshot's bytes are searched once for the line
/// HotTask writes for a parent, only those objects are parsed, and the log is replayed on them.
/// A store without subtasks costs one search of its bytes, not a decode of every task.
extension TaskStore {
    /// Every live subtask in the store and the parents of `named`, as the log left them; nil
    /// when the snapshot's layout or the log do not allow it (then the caller reads it whole).
    func family(
        of named: some Sequence<TaskItem>, in bytes: [UInt8], view quick: StoreTransaction.LogView
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
        let parentLine = Array("\n      \"parent\": \"".utf8)
        return bytes.withUnsafeBufferPointer { buffer -> [TaskItem]? in
            guard var tasks = Self.tasks(containing: parentLine, in: buffer) else { return nil }
            var held = Set(tasks.map(\.id))
            for id in wanted where !held.contains(id) {
                guard let found = Self.tasks(withIDPrefix: Subtasks.text(id), in: buffer) else { return nil }
                for task in found where held.insert(task.id).inserted { tasks.append(task) }
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
    }
}
