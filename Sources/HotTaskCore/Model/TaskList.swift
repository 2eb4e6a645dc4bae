import Foundation

/// All tasks, kept as two ordered sections (Top Priority first, then Bonus).
///
/// Tasks are addressed by a *position*: 0 is the first Top Priority task, positions run on
/// into Bonus. Counts are kept up to date by every mutation so that asking for them costs
/// nothing, whatever the length of the list (the UI asks on every frame).
public struct TaskList: Equatable, Sendable {
    public private(set) var priority: [TaskItem] = []
    public private(set) var bonus: [TaskItem] = []
    public private(set) var completedCount = 0

    public init() {}

    /// Builds a list from tasks in display order; each task goes to the section it names.
    public init<S: Sequence>(_ tasks: S) where S.Element == TaskItem {
        for task in tasks {
            append(task)
        }
    }

    public var count: Int { priority.count + bonus.count }
    public var isEmpty: Bool { count == 0 }

    /// All tasks in display order.
    public var all: [TaskItem] { priority + bonus }

    public func tasks(in section: Section) -> [TaskItem] {
        section == .priority ? priority : bonus
    }

    public func count(in section: Section) -> Int {
        section == .priority ? priority.count : bonus.count
    }

    /// The task at a display position.
    public subscript(position: Int) -> TaskItem {
        position < priority.count ? priority[position] : bonus[position - priority.count]
    }

    /// The display position of the task at `index` within `section`.
    public func position(of index: Int, in section: Section) -> Int {
        section == .priority ? index : priority.count + index
    }

    public func position(of id: UUID) -> Int? {
        if let index = priority.firstIndex(where: { $0.id == id }) { return index }
        if let index = bonus.firstIndex(where: { $0.id == id }) { return priority.count + index }
        return nil
    }

    public func task(withID id: UUID) -> TaskItem? {
        position(of: id).map { self[$0] }
    }

    // MARK: Changes

    /// Puts a new task on top of its section (the rule for tasks a person adds).
    public mutating func insertOnTop(_ task: TaskItem) {
        insert(task, at: 0)
    }

    /// Adds a task at the end of its section (the rule for loading and importing).
    public mutating func append(_ task: TaskItem) {
        insert(task, at: count(in: task.section))
    }

    /// Inserts a task at `index` within its own section.
    public mutating func insert(_ task: TaskItem, at index: Int) {
        if task.section == .priority {
            priority.insert(task, at: index)
        } else {
            bonus.insert(task, at: index)
        }
        if task.completed { completedCount += 1 }
    }

    @discardableResult
    public mutating func remove(at position: Int) -> TaskItem {
        let task =
            position < priority.count
            ? priority.remove(at: position) : bonus.remove(at: position - priority.count)
        if task.completed { completedCount -= 1 }
        return task
    }

    /// Replaces the task at `position`, keeping its place when the section is unchanged;
    /// a task whose section changed goes on top of its new section.
    public mutating func replace(at position: Int, with task: TaskItem) {
        let old = self[position]
        if old.section == task.section {
            if position < priority.count {
                priority[position] = task
            } else {
                bonus[position - priority.count] = task
            }
            completedCount += (task.completed ? 1 : 0) - (old.completed ? 1 : 0)
        } else {
            remove(at: position)
            insertOnTop(task)
        }
    }

    /// Marks the task at `position` completed or open. Returns false when nothing changed.
    @discardableResult
    public mutating func setCompleted(_ completed: Bool, at position: Int, now: Date) -> Bool {
        var task = self[position]
        guard task.completed != completed else { return false }
        task.completed = completed
        task.completedAt = completed ? now : nil
        task.modifiedAt = now
        replace(at: position, with: task)
        return true
    }

    /// Moves the task at `position` on top of the other section; returns its new position.
    @discardableResult
    public mutating func moveToOtherSection(at position: Int, now: Date) -> Int {
        var task = self[position]
        task.section = task.section.other
        task.modifiedAt = now
        replace(at: position, with: task)
        return self.position(of: 0, in: task.section)
    }
}
