import FoundationEssentials
import Glibc

/// The app's changes to a task with subtasks, by the rules the command line keeps
/// (`SubtaskRules`): a task's subtasks go where it goes, are completed and deleted with it,
/// and one undo takes all back; a subtask alone stays in its parent's section.
extension TaskList {
    /// `parent`'s subtasks, theirs and so on, each after its parent, in list order. A relation
    /// that closes a cycle is not followed past it. No tree of the whole list is made (a key's
    /// cost at 100,000 tasks with 20,000 families).
    public func family(of parent: TaskItem) -> [TaskItem] {
        guard hasSubtasks else { return [] }
        return familyInPlace(of: parent) ?? familyByLevels(of: parent)
    }

    /// `family(of:)` when the family lies right after its parent, as HotTask places one (each
    /// subtask after its parent's family so far), and no task elsewhere belongs to it: the run
    /// after the parent, then one pass that reads each other task's parent hint alone. Nil
    /// when a task elsewhere names a task of the run as its parent, or a relation in the run is
    /// where a cycle is cut: those take the levels.
    func familyInPlace(of parent: TaskItem) -> [TaskItem]? {
        guard let (section, start) = locate(parent.id) else { return nil }
        let tasks = tasks(in: section)
        var path: [UUID] = [parent.id]  // the task above and its ancestors in the run
        var members: [UUID] = [parent.id]
        var end = start + 1
        while end < tasks.count, !tasks[end].parentHint.isNone, let up = tasks[end].parent, let at = path.lastIndex(of: up) {
            guard isSubtask(tasks[end]) else { return nil }
            path.removeSubrange((at + 1)...)
            path.append(tasks[end].id)
            members.append(tasks[end].id)
            end += 1
        }
        let hints = ParentHints(members)
        let many = members.count > 16 ? Set(members) : nil
        for other in Section.allCases {
            let all = self.tasks(in: other)
            for index in all.indices where hints.mayContain(all[index].parentHint) {
                guard other != section || index < start || index >= end, let up = all[index].parent else { continue }
                if many?.contains(up) ?? members.contains(up) { return nil }
            }
        }
        return Array(tasks[(start + 1)..<end])
    }

    /// `family(of:)` found level by level: a pass over the tasks for each level below `parent`,
    /// each task's box read only when its parent hint is one of the level's.
    func familyByLevels(of parent: TaskItem) -> [TaskItem] {
        var found: Set<UUID> = [parent.id]
        var children: [UUID: [TaskItem]] = [:]
        var level = IDLevel([parent.id])
        var hints = ParentHints([parent.id])
        while !level.isEmpty {
            var next: [UUID] = []
            for section in Section.allCases {
                let tasks = tasks(in: section)
                for index in tasks.indices where hints.mayContain(tasks[index].parentHint) {
                    guard let up = tasks[index].parent, level.contains(up), !found.contains(tasks[index].id), isSubtask(tasks[index])
                    else { continue }
                    found.insert(tasks[index].id)
                    next.append(tasks[index].id)
                    children[up, default: []].append(tasks[index])
                }
            }
            level = IDLevel(next)
            hints = ParentHints(next)
        }
        var ordered: [TaskItem] = []
        func add(under id: UUID) {
            for child in children[id] ?? [] {
                ordered.append(child)
                add(under: child.id)
            }
        }
        add(under: parent.id)
        return ordered
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

    /// How many completed tasks have an open subtask (clearing the completed keeps them).
    public var completedWithOpenSubtasks: Int {
        guard hasSubtasks else { return 0 }
        let kept = withOpenSubtasks()
        // By index: `all` would copy every task.
        return priority.indices.count { priority[$0].completed && kept.contains(priority[$0].id) }
            + bonus.indices.count { bonus[$0].completed && kept.contains(bonus[$0].id) }
    }

    /// Whether any task here is a subtask (a pass over the tasks, stopped at the first).
    var hasSubtasks: Bool { priority.contains { !$0.parentHint.isNone } || bonus.contains { !$0.parentHint.isNone } }

    /// The task at `position` is a subtask as `Subtasks` takes it: its parent is here, and it
    /// is not where a cycle of relations is cut (its lowest id). A walk up its parents.
    public func isSubtask(at position: Int) -> Bool {
        isSubtask(self[position])
    }

    func isSubtask(_ task: TaskItem) -> Bool {
        guard let parent = task.parent, self.task(withID: parent) != nil else { return false }
        var path: [UUID] = [task.id]
        var next: UUID? = parent
        while let id = next, let above = self.task(withID: id) {
            if let from = path.firstIndex(of: id) {
                // A cycle: cut at its lowest id, which is top-level; the task is not if it is above it.
                let lowest = path[from...].min { Subtasks.text($0) < Subtasks.text($1) }
                return from != 0 || lowest != task.id
            }
            path.append(id)
            next = above.parent
        }
        return true
    }

    /// The change that adds `task` under `parent`, in its section and list, after its
    /// subtasks (the rule `--add --under` keeps too).
    public func adding(_ task: TaskItem, under parent: TaskItem) -> TaskChange {
        var task = task
        task.parent = parent.id
        task.section = parent.section
        task.list = parent.list
        task.order = keys(1, afterFamily: Set(family(of: parent).map(\.id)), of: parent, moving: [])[0]
        return .add(task)
    }

    /// `count` keys after the last of `parent` and its `family` in its section (`moving`
    /// aside: the tasks these keys are for), before the task after them: where a task goes
    /// under a parent (`--under`, `o`, an indent) or after its former parent (an outdent).
    func keys(_ count: Int, afterFamily family: Set<UUID>, of parent: TaskItem, moving: Set<UUID>) -> [OrderKey] {
        var family = family
        family.insert(parent.id)
        family.subtract(moving)
        let tasks = tasks(in: parent.section)
        guard let last = tasks.lastIndex(where: { family.contains($0.id) }) else { return OrderKey.sequence(count, after: parent.order) }
        let after = tasks[last].order
        // The next task that stays where it is; one on the same key leaves no room before it.
        let next = tasks[(last + 1)...].first { !moving.contains($0.id) }?.order
        return OrderKey.sequence(count, after: after, before: next.flatMap { $0 > after ? $0 : nil })
    }

    /// The app's indent and outdent: the task at `position` under `parent` (nil: top-level), its
    /// subtasks following, the family placed after `place`'s family (the new parent's, or the
    /// old parent's), by the rule `--under` keeps. Nil when `parent` is one of its subtasks.
    public func reparenting(at position: Int, under parent: TaskItem?, afterFamilyOf place: TaskItem) -> [TaskChange]? {
        FamilyScanTarget(list: self).family(of: self[position], under: parent, afterFamilyOf: place)
    }

    /// K and J in Manual order: the task at `position` and its subtasks, as one block, before
    /// `neighbour` (going up) or after `neighbour` and its subtasks (going down), in their
    /// section; a fold hides a family, and a move never lands inside one by accident.
    public func reorderingWithSubtasks(at position: Int, past neighbour: TaskItem, down: Bool) -> [TaskChange] {
        let task = self[position]
        let block = [task] + family(of: task)
        let moving = Set(block.map(\.id))
        let keys: [OrderKey]
        if down {
            keys = self.keys(block.count, afterFamily: Set(family(of: neighbour).map(\.id)), of: neighbour, moving: moving)
        } else {
            let tasks = tasks(in: neighbour.section)
            guard let at = tasks.firstIndex(where: { $0.id == neighbour.id }) else { return [] }
            // After the task before the neighbour that stays; one on the same key leaves no room.
            let before = tasks[..<at].last { !moving.contains($0.id) }?.order
            keys = OrderKey.sequence(block.count, after: before.flatMap { $0 < neighbour.order ? $0 : nil }, before: neighbour.order)
        }
        return zip(block, keys).compactMap { ChangeRules.move($0, to: neighbour.section, key: $1) }
    }

    /// The parent `task` is shown under: nil for a top-level task, one whose parent is not
    /// here, and the task a cycle is broken at.
    public func shownParent(of task: TaskItem) -> UUID? {
        isSubtask(task) ? task.parent : nil
    }

    /// The task at `position` deleted with its subtasks, they first.
    public func deletingWithSubtasks(at position: Int) -> [TaskChange] {
        let task = self[position]
        return family(of: task).map(ChangeRules.delete) + [ChangeRules.delete(task)]
    }

    /// The task at `position` completed or reopened, with what its subtasks do
    /// (`ChangeRules.followingCompletion`); empty when nothing changes.
    public func completingWithSubtasks(_ completed: Bool, at position: Int, now: Date, local: ZoneInfo) -> [TaskChange] {
        let task = self[position]
        guard let change = ChangeRules.complete(task, completed, now: now, local: local) else { return [] }
        var alone = TaskList(keyed: [task])
        alone.apply(change, clock: .zero, force: true)
        // Reopening leaves the subtasks as they are: no pass over the list for them.
        let family = completed ? family(of: task) : []
        let following = ChangeRules.followingCompletion(of: task, completed, after: alone.task(withID: task.id), family: family, now: now)
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

/// The app's list as a `ChangeTarget` that finds a family a level at a time (`family(of:)`)
/// and a cycle by walking up from the new parent, never making the whole tree: a key's cost
/// at 100,000 tasks with 20,000 families.
private struct FamilyScanTarget: ChangeTarget {
    var list: TaskList

    func task(_ handle: String) -> TaskItem? {
        UUID(uuidString: handle).flatMap { list.task(withID: $0) }
    }

    mutating func apply(_ change: TaskChange) {
        list.apply(change, clock: .zero, force: true)
    }

    mutating func topKey(of section: Section) -> OrderKey {
        list.topKey(of: section)
    }

    func subtasks() -> Subtasks { Subtasks(list) }

    func keys(_ count: Int, afterFamilyOf parent: TaskItem, moving: Set<UUID>) -> [OrderKey] {
        list.keys(count, afterFamily: Set(list.family(of: parent).map(\.id)), of: parent, moving: moving)
    }

    func descendants(of id: UUID) -> [TaskItem] {
        list.task(withID: id).map { list.family(of: $0) } ?? []
    }

    func wouldCycle(_ task: UUID, under parent: UUID) -> Bool {
        var seen: Set<UUID> = []
        var next: UUID? = parent
        while let id = next, seen.insert(id).inserted {
            if id == task { return true }
            next = list.task(withID: id).flatMap { list.shownParent(of: $0) }
        }
        return false
    }
}

/// The ids of one level of a family, asked of every subtask in the list: a family's levels are
/// mostly a few tasks, and comparing a few ids costs less than hashing each subtask's parent
/// (four passes of 80,000 subtasks made J on a parent 48 ms at 100,000 tasks; 16 ms with this,
/// 24 ms with an `IDSet`, whose cheaper hash is still a hash).
private struct IDLevel {
    private let few: [UUID]
    private let many: Set<UUID>?

    init(_ ids: [UUID]) {
        few = ids.count <= 16 ? ids : []
        many = ids.count <= 16 ? nil : Set(ids)
    }

    var isEmpty: Bool { few.isEmpty && (many?.isEmpty ?? true) }

    func contains(_ id: UUID) -> Bool {
        if let many { return many.contains(id) }
        for one in few where one == id { return true }
        return false
    }
}
