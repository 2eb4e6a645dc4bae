/// One small, reversible change to a `TaskList`, addressed by section and index.
///
/// Undo records these instead of copies of the list: a list may hold 100,000 tasks, and a
/// change touches one or a few of them. Each change carries the whole task it adds, removes
/// or replaces, so its inverse needs nothing else.
public enum TaskChange: Equatable, Sendable {
    /// `task` was inserted at `index` of `task.section`.
    case inserted(TaskItem, at: Int)
    /// `task` was removed from `index` of `task.section`.
    case removed(TaskItem, at: Int)
    /// The task at `index` of `old.section` changed from `old` to `new` in place (same section).
    case replaced(old: TaskItem, new: TaskItem, at: Int)

    /// The change that takes the list back.
    public var inverse: TaskChange {
        switch self {
        case .inserted(let task, let index): .removed(task, at: index)
        case .removed(let task, let index): .inserted(task, at: index)
        case .replaced(let old, let new, let index): .replaced(old: new, new: old, at: index)
        }
    }

    /// The task the change leaves behind (or, for a removal, the one it took away).
    public var task: TaskItem {
        switch self {
        case .inserted(let task, _), .removed(let task, _): task
        case .replaced(_, let new, _): new
        }
    }

    /// The section the change happens in.
    public var section: Section { task.section }

    /// Where the change happens within its section.
    public var index: Int {
        switch self {
        case .inserted(_, let index), .removed(_, let index), .replaced(_, _, let index): index
        }
    }
}

extension Array where Element == TaskChange {
    /// The changes that undo these ones: each inverted, last first.
    public var inverse: [TaskChange] { reversed().map(\.inverse) }
}
