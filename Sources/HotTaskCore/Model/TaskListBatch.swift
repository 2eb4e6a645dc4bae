import Foundation

/// Many deletes, or many adds of tasks not in the list, applied in one pass: clearing 30,000
/// completed tasks (and undoing that) moved each section's array once per task, seconds at
/// 100,000 tasks. The outcome is the one `apply` gives change by change.
extension TaskList {
    /// Applies `changes` when they are all deletes, or all adds of distinct ids the list does
    /// not hold, and returns true; returns false, having changed nothing, for anything else
    /// (the caller then applies them one by one).
    public mutating func applyBatch(_ changes: [TaskChange], clock: Clock, force: Bool = false) -> Bool {
        buildPlaceIndex()
        if changes.allSatisfy({ if case .delete = $0 { true } else { false } }) {
            deleteAll(changes, clock: clock, force: force)
            return true
        }
        var ids = Set<UUID>()
        for change in changes {
            guard case .add(let task) = change, locate(task.id) == nil, ids.insert(task.id).inserted else { return false }
        }
        addAll(changes, clock: clock, force: force)
        return true
    }

    private mutating func deleteAll(_ changes: [TaskChange], clock: Clock, force: Bool) {
        var gone = Set<UUID>()
        for case .delete(let task) in changes {
            guard let (section, index) = locate(task.id) else { continue }
            let current = tasks(in: section)[index]
            // A delete older than a change to the task is ignored, as `apply` does.
            guard force || clock >= current.latestClock else { continue }
            deleted[task.id] = Tombstone(task: current, clock: clock)
            gone.insert(task.id)
        }
        guard !gone.isEmpty else { return }
        let completedGone = (priority + bonus).lazy.filter { gone.contains($0.id) && $0.completed }.count
        priority.removeAll { gone.contains($0.id) }
        bonus.removeAll { gone.contains($0.id) }
        completedCount -= completedGone
        for id in gone { placeIndex?[id] = nil }
    }

    private mutating func addAll(_ changes: [TaskChange], clock: Clock, force: Bool) {
        var added: [TaskItem] = []
        for case .add(let task) in changes {
            if let admitted = admitting(task, clock: clock, force: force) { added.append(admitted) }
        }
        guard !added.isEmpty else { return }
        added.sort(by: Self.precedes)
        priority = Self.merging(priority, added.filter { $0.section == .priority })
        bonus = Self.merging(bonus, added.filter { $0.section == .bonus })
        completedCount += added.lazy.filter(\.completed).count
        for task in added { placeIndex?[task.id] = Place(section: task.section, order: task.order) }
    }

    /// Two runs in display order as one.
    private static func merging(_ tasks: [TaskItem], _ new: [TaskItem]) -> [TaskItem] {
        guard !new.isEmpty else { return tasks }
        var result: [TaskItem] = []
        result.reserveCapacity(tasks.count + new.count)
        var (i, j) = (0, 0)
        while i < tasks.count, j < new.count {
            if precedes(new[j], tasks[i]) {
                result.append(new[j])
                j += 1
            } else {
                result.append(tasks[i])
                i += 1
            }
        }
        result.append(contentsOf: tasks[i...])
        result.append(contentsOf: new[j...])
        return result
    }
}
