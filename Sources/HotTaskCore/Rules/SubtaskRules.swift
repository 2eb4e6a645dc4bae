import FoundationEssentials
import Glibc

/// The rules of subtasks (issue 54), written once for the command line and the app: a subtask
/// lives in its parent's section and list, and goes where its parent goes; completing or
/// deleting a task takes its subtasks with it in the same change, so one undo takes all back.
extension ChangeRules {
    /// Under `parent` (nil: top-level again, where it stands or at `key`): into the parent's
    /// section and list, at `key` (after the parent's family).
    public static func under(_ task: TaskItem, _ parent: TaskItem?, key: OrderKey?) -> TaskChange? {
        guard let parent else { return set(TaskFields(order: key, parent: .some(nil)), on: task) }
        return set(
            TaskFields(
                section: task.section == parent.section ? nil : parent.section, order: key, list: task.list == parent.list ? nil : parent.list,
                parent: .some(parent.id)), on: task)
    }

    /// A subtask following its family into `section` and `list`, at `key`.
    public static func follow(_ task: TaskItem, section: Section, list: String, key: OrderKey?) -> TaskChange? {
        set(TaskFields(section: task.section == section ? nil : section, order: key, list: task.list == list ? nil : list), on: task)
    }

    /// A subtask completed with its parent (a repeating one too: the family is done), or
    /// reopened when its repeating parent moves on to its next occurrence.
    public static func withParent(_ task: TaskItem, completed: Bool, now: Date) -> TaskChange? {
        set(TaskFields(completed: completed, completedAt: now), on: task)
    }

    /// What `task`'s subtasks (`family`, as they are) do when it is completed or reopened, for
    /// the command line and the app alike: completed, its open ones are completed with it;
    /// a repeating task that moved on (`after` open again) has them open again for its next
    /// occurrence; reopened, they stay as they are.
    public static func followingCompletion(of task: TaskItem, _ completed: Bool, after: TaskItem?, family: [TaskItem], now: Date)
        -> (changes: [TaskChange], advanced: Bool)
    {
        guard completed else { return ([], false) }
        let advanced = !task.completed && after.map { !$0.completed && $0.due != nil } == true
        let wanted = !advanced
        return (family.compactMap { $0.completed == wanted ? nil : withParent($0, completed: wanted, now: now) }, advanced)
    }

}

/// Why a command's changes cannot be planned: nothing is changed.
enum PlanRefusal: Error, Sendable {
    /// The same task was given to both --done and --undone.
    case contradiction(TaskItem)
    /// `--under` would make the task its own ancestor.
    case cycle(TaskItem, under: TaskItem)
    /// A subtask asked by `flag` into another section or list than its parent's.
    case subtaskAlone(TaskItem, parent: TaskItem?, flag: String)
}

extension ChangeTarget {
    /// `task` under `parent` (nil: top-level), its subtasks following into the parent's section
    /// and list, the family placed after `place`'s family: the parent's (`--under`, an indent)
    /// or the old parent's (an outdent). Nil when `parent` is one of its subtasks.
    func family(of task: TaskItem, under parent: TaskItem?, afterFamilyOf place: TaskItem) -> [TaskChange]? {
        if let parent, wouldCycle(task.id, under: parent.id) { return nil }
        let family = [task] + descendants(of: task.id)
        let keys = keys(family.count, afterFamilyOf: place, moving: Set(family.map(\.id)))
        var changes = ChangeRules.under(task, parent, key: keys.first).map { [$0] } ?? []
        for (subtask, key) in zip(family.dropFirst(), keys.dropFirst()) {
            if let change = ChangeRules.follow(subtask, section: place.section, list: place.list, key: key) { changes.append(change) }
        }
        return changes
    }
}

extension CommandChanges {
    /// `--under`: the task under its new parent (nil: top-level again, where it stands), its
    /// subtasks following into the parent's section and list, the family placed after the
    /// parent's. The changes are made on the tasks as they are (each is another task's).
    func planUnder(on target: inout some ChangeTarget) throws(PlanRefusal) -> (changes: [TaskChange], step: Step)? {
        guard let under, let task = target.task(under.handle) else { return nil }
        let parent = under.parent.flatMap { target.task($0) }
        guard task.parent != parent?.id else { return ([], .underParent(task, parent: parent, changed: false)) }
        guard let parent else { return (ChangeRules.under(task, nil, key: nil).map { [$0] } ?? [], .underParent(task, parent: nil, changed: true)) }
        guard let changes = target.family(of: task, under: parent, afterFamilyOf: parent) else { throw .cycle(task, under: parent) }
        return (changes, .underParent(task, parent: parent, changed: true))
    }

    /// The subtasks of a task moved into another list, following it.
    static func listFamily(_ task: TaskItem, to stored: String, on target: some ChangeTarget) -> [TaskChange] {
        target.descendants(of: task.id).compactMap { ChangeRules.moveToList($0, stored) }
    }
}
