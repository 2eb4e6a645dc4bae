import Foundation

/// The app's changes to a task with subtasks, by the rules the command line keeps
/// (`SubtaskRules`): a task's subtasks go where it goes, are completed and deleted with it,
/// and one undo takes all back; a subtask alone stays in its parent's section.
extension TaskList {
    /// `task`'s subtasks, theirs and so on, each after its parent.
    public func family(of parent: TaskItem) -> [TaskItem] {
        guard hasSubtasks else { return [] }
        return Subtasks(self).descendants(of: parent.id).compactMap { task(withID: $0) }
    }

    /// Whether any task here is a subtask (a pass over the tasks, stopped at the first).
    var hasSubtasks: Bool { priority.contains { $0.parent != nil } || bonus.contains { $0.parent != nil } }

    /// The task at `position` is a subtask, as the tree takes it (its parent is here).
    public func isSubtask(at position: Int) -> Bool {
        guard let parent = self[position].parent else { return false }
        return task(withID: parent) != nil && Subtasks(self).parent(of: self[position].id) != nil
    }

    /// The task at `position` deleted with its subtasks, they first.
    public func deletingWithSubtasks(at position: Int) -> [TaskChange] {
        let task = self[position]
        return family(of: task).map(ChangeRules.delete) + [ChangeRules.delete(task)]
    }

    /// The task at `position` completed or reopened, with what its subtasks do
    /// (`ChangeRules.followingCompletion`); empty when nothing changes.
    public func completingWithSubtasks(_ completed: Bool, at position: Int, now: Date, local: TimeZone) -> [TaskChange] {
        let task = self[position]
        guard let change = ChangeRules.complete(task, completed, now: now, local: local) else { return [] }
        var alone = TaskList(keyed: [task])
        alone.apply(change, clock: .zero, force: true)
        let following = ChangeRules.followingCompletion(of: task, completed, after: alone.task(withID: task.id), family: family(of: task), now: now)
        return [change] + following.changes
    }

    /// The task at `position` moved on top of `section` with its subtasks, which follow it
    /// there in their order; nil for a subtask (it stays in its parent's section).
    public func movingWithSubtasks(from position: Int, to section: Section) -> [TaskChange]? {
        guard !isSubtask(at: position) else { return nil }
        let task = self[position]
        guard task.section != section else { return [] }
        // Each on top of the last, from the family's end: the task leads them.
        var top = topKey(of: section)
        var changes: [TaskChange] = []
        for subtask in family(of: task).reversed() {
            if let change = ChangeRules.move(subtask, to: section, key: top) { changes.append(change) }
            top = OrderKey.between(nil, top)
        }
        if let change = ChangeRules.move(task, to: section, key: top) { changes.append(change) }
        return changes
    }
}
