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

    /// How many of `task`'s ancestors are here (0: top-level, or its parent is not here):
    /// the indent it is drawn with. A walk up its parents, each found by id; a cycle (from a
    /// file or a server) stops it.
    public func subtaskDepth(of task: TaskItem) -> Int {
        var depth = 0
        var seen: Set<UUID> = [task.id]
        var next = task.parent
        while let id = next, depth < 64, seen.insert(id).inserted, let parent = self.task(withID: id) {
            depth += 1
            next = parent.parent
        }
        return depth
    }

    /// Whether any task here is a subtask (a pass over the tasks, stopped at the first).
    var hasSubtasks: Bool { priority.contains { $0.parent != nil } || bonus.contains { $0.parent != nil } }

    /// The task at `position` is a subtask, as the tree takes it (its parent is here).
    public func isSubtask(at position: Int) -> Bool {
        guard let parent = self[position].parent else { return false }
        return task(withID: parent) != nil && Subtasks(self).parent(of: self[position].id) != nil
    }

    /// The change that adds `task` under `parent`, in its section and list, after its
    /// subtasks (the rule `--add --under` keeps too).
    public func adding(_ task: TaskItem, under parent: TaskItem) -> TaskChange {
        var task = task
        task.parent = parent.id
        task.section = parent.section
        task.list = parent.list
        let tasks = tasks(in: parent.section)
        var family = Set(self.family(of: parent).map(\.id))
        family.insert(parent.id)
        let last = tasks.lastIndex { family.contains($0.id) }
        let next = last.flatMap { $0 + 1 < tasks.count ? tasks[$0 + 1].order : nil }
        task.order = OrderKey.between(last.map { tasks[$0].order } ?? parent.order, next)
        return .add(task)
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
