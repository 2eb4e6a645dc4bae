import FoundationEssentials
import Glibc

/// The fields a change sets on one task; nil leaves a field as it is.
public struct TaskFields: Equatable, Hashable, Sendable {
    // Largest first, one-byte fields last (as in `TaskItem`).
    var caption: String?
    var order: OrderKey?
    var completedAt: Date?
    /// `.some(nil)` clears the due date; nil leaves it.
    var due: DueDate??
    /// An empty note clears it.
    var note: String?
    /// The whole set, in order (an empty one clears them).
    var tags: [String]?
    /// `RepeatRule.none` stops the repeat.
    var repeatRule: RepeatRule?
    /// The list it moves to, as `ListNames` stores it (empty: the default list).
    var list: String?
    /// `.some(nil)` makes it top-level; nil leaves it.
    var parent: UUID??
    var section: Section?
    /// Completing also sets `completedAt` (the time it was done); reopening clears it.
    var completed: Bool?

    init(
        caption: String? = nil, section: Section? = nil, completed: Bool? = nil, completedAt: Date? = nil,
        order: OrderKey? = nil, due: DueDate?? = nil, note: String? = nil, tags: [String]? = nil,
        repeatRule: RepeatRule? = nil, list: String? = nil, parent: UUID?? = nil
    ) {
        self.parent = parent
        self.repeatRule = repeatRule
        self.list = list
        self.due = due
        self.note = note
        self.tags = tags
        self.caption = caption
        self.section = section
        self.completed = completed
        self.completedAt = completed == true ? completedAt : nil
        self.order = order
    }

    /// Every field of `task`: what an add of a task already here sets, and what `--replace` sets.
    init(allOf task: TaskItem) {
        self.init()
        for field in TaskField.allCases { self[field] = field.value(of: task) }
        completedAt = task.completedAt
    }

    var isEmpty: Bool { TaskField.allCases.allSatisfy { self[$0] == nil } }

    /// These fields as `task` has them now (the values a change would replace).
    func values(in task: TaskItem) -> TaskFields {
        var was = TaskFields()
        for field in TaskField.allCases where self[field] != nil { was[field] = field.value(of: task) }
        if was.completed != nil { was.completedAt = task.completedAt }
        return was
    }

    /// True when `task` already has every value set here (when it was completed aside).
    func hold(in task: TaskItem) -> Bool {
        TaskField.allCases.allSatisfy { field in self[field].map { $0 == field.value(of: task) } ?? true }
    }
}

/// One change to one task, named by its id: what the UI, the command line, import and undo
/// all produce, what the change log records, and what every copy of the list applies.
///
/// A change carries the values it replaces (`was`), so that it can be undone from the log
/// alone and an undo can tell whether its task was changed again since.
public enum TaskChange: Equatable, Hashable, Sendable {
    /// A new task, or a deleted one brought back, with all its fields.
    case add(TaskItem)
    /// New values for some fields of a task, and the values they replace. Boxed: its two
    /// field sets took 320 bytes a change inline, twice an add's, in every import's array.
    indirect case set(UUID, TaskFields, was: TaskFields)
    /// The task is deleted; `was` is the task as it was (to bring it back).
    case delete(TaskItem)

    var id: UUID {
        // A case each: one case binding `task` in two patterns copied the whole change, a
        // retain of each of its task's fields (a fifth of the undo of clearing 30,000).
        switch self {
        case .add(let task): task.id
        case .delete(let task): task.id
        case .set(let id, _, _): id
        }
    }

    var isAdd: Bool {
        if case .add = self { return true }
        return false
    }

    /// The task an add adds (a copy, for the list to keep), or nil.
    var addedTask: TaskItem? {
        if case .add(let task) = self { return task }
        return nil
    }

    var isDelete: Bool {
        if case .delete = self { return true }
        return false
    }

    /// Whether it may make or change a subtask relation.
    var touchesParent: Bool {
        switch self {
        case .add(let task): task.parent != nil
        case .set(_, let fields, _): fields.parent != nil
        case .delete: false
        }
    }

    /// The change that takes this one back.
    var inverse: TaskChange {
        switch self {
        case .add(let task): .delete(task)
        case .delete(let task): .add(task)
        case .set(let id, let fields, let was): .set(id, was, was: fields)
        }
    }
}

extension Array where Element == TaskChange {
    /// The changes that undo these ones: each inverted, last first.
    public var inverse: [TaskChange] {
        var inverted: [TaskChange] = []
        inverted.reserveCapacity(count)
        for index in indices.reversed() { inverted.append(self[index].inverse) }
        return inverted
    }
}

/// How a change moved rows of a list: what a view of the list needs to follow it without
/// re-sorting. Indices are within the task's section.
public enum ListEdit: Equatable, Sendable {
    case inserted(TaskItem, at: Int)
    case removed(TaskItem, at: Int)
    /// Changed in place (same section, same index).
    case replaced(old: TaskItem, new: TaskItem, at: Int)

    var task: TaskItem {
        switch self {
        case .inserted(let task, _), .removed(let task, _): task
        case .replaced(_, let new, _): new
        }
    }

    public var section: Section { task.section }

    var index: Int {
        switch self {
        case .inserted(_, let index), .removed(_, let index), .replaced(_, _, let index): index
        }
    }
}

/// The rows a change made in one pass removed: per section, their indices before it,
/// ascending (what a view needs to follow without sorting again).
public struct RemovedRows: Equatable, Sendable {
    var priority: [Int] = []
    var bonus: [Int] = []

    init() {}

    public subscript(section: Section) -> [Int] {
        get { section == .priority ? priority : bonus }
        set {
            if section == .priority { priority = newValue } else { bonus = newValue }
        }
    }
}

extension Array where Element == TaskChange {
    /// These changes with the values they replace as `records` left them: changes planned on a
    /// list that had not seen those records yet (the UI's, between two looks), whose `was`
    /// would otherwise be what the planner saw, and an undo would set that back over the other
    /// writer's change. Records in the order committed, each field's last value winning, as
    /// the store applies them.
    public func replacingWas(after records: [LogRecord]) -> [TaskChange] {
        var latest: [UUID: TaskFields] = [:]
        for record in records {
            for case .set(let id, let fields, _) in record.changes {
                var known = latest[id] ?? TaskFields()
                for field in TaskField.allCases where fields[field] != nil { known[field] = fields[field] }
                if fields.completed != nil { known.completedAt = fields.completedAt }
                latest[id] = known
            }
        }
        guard !latest.isEmpty else { return self }
        return map { change in
            guard case .set(let id, let fields, var was) = change, let known = latest[id] else { return change }
            for field in TaskField.allCases where fields[field] != nil && known[field] != nil { was[field] = known[field] }
            if fields.completed != nil, known.completed != nil { was.completedAt = known.completedAt }
            return .set(id, fields, was: was)
        }
    }
}
