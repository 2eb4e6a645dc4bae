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

    /// Replaces the task at `position` in place with a version of it in the same section.
    public mutating func replace(at position: Int, with task: TaskItem) {
        let old = self[position]
        precondition(old.section == task.section, "a task changes section through moving(from:to:index:now:)")
        if position < priority.count {
            priority[position] = task
        } else {
            bonus[position - priority.count] = task
        }
        completedCount += (task.completed ? 1 : 0) - (old.completed ? 1 : 0)
    }

    /// Marks the task at `position` completed or open (`completing`, applied). Returns false
    /// when nothing changed.
    @discardableResult
    public mutating func setCompleted(_ completed: Bool, at position: Int, now: Date) -> Bool {
        guard let change = completing(completed, at: position, now: now) else { return false }
        apply(change)
        return true
    }

    /// Moves the task at `position` on top of the other section (`moving`, applied); returns
    /// its new position.
    @discardableResult
    public mutating func moveToOtherSection(at position: Int, now: Date) -> Int {
        let section = self[position].section.other
        apply(moving(from: position, to: section, index: 0, now: now))
        return self.position(of: 0, in: section)
    }

    // MARK: Reversible changes

    /// Applies one change; `completedCount` follows. The change must fit the list (as the
    /// changes made by the methods below and their inverses always do).
    public mutating func apply(_ change: TaskChange) {
        switch change {
        case .inserted(let task, let index):
            insert(task, at: index)
        case .removed(let task, let index):
            remove(at: position(of: index, in: task.section))
        case .replaced(_, let new, let index):
            replace(at: position(of: index, in: new.section), with: new)
        }
    }

    public mutating func apply(_ changes: [TaskChange]) {
        changes.forEach { apply($0) }
    }

    /// The change that gives the task at `position` a new caption, or nil when the caption is
    /// the same. The caption must already have passed `CaptionRule`.
    public func renaming(at position: Int, to caption: String, now: Date) -> TaskChange? {
        let old = self[position]
        guard old.caption != caption else { return nil }
        var new = old
        new.caption = caption
        new.modifiedAt = now
        return .replaced(old: old, new: new, at: index(ofPosition: position))
    }

    /// The change that marks the task at `position` completed or open, or nil when it
    /// already is.
    public func completing(_ completed: Bool, at position: Int, now: Date) -> TaskChange? {
        let old = self[position]
        guard old.completed != completed else { return nil }
        var new = old
        new.completed = completed
        new.completedAt = completed ? now : nil
        new.modifiedAt = now
        return .replaced(old: old, new: new, at: index(ofPosition: position))
    }

    /// The changes that move the task at `position` to `index` of `section` (an index in the
    /// section as it is once the task has left). Changing section updates `modifiedAt`; a
    /// move within the section does not, as order is not part of a task.
    public func moving(from position: Int, to section: Section, index: Int, now: Date) -> [TaskChange] {
        let old = self[position]
        let from = self.index(ofPosition: position)
        if old.section == section, from == index { return [] }
        var new = old
        if old.section != section {
            new.section = section
            new.modifiedAt = now
        }
        return [.removed(old, at: from), .inserted(new, at: index)]
    }

    /// The changes that remove every completed task, last first in each section so that each
    /// index still holds when it is applied (and the inverse puts them back first to last).
    public func removingCompleted() -> [TaskChange] {
        var changes: [TaskChange] = []
        for section in Section.allCases.reversed() {
            let tasks = tasks(in: section)
            for index in tasks.indices.reversed() where tasks[index].completed {
                changes.append(.removed(tasks[index], at: index))
            }
        }
        return changes
    }

    /// Gives the task at `position` a new caption; returns what changed (for undo).
    @discardableResult
    public mutating func rename(at position: Int, to caption: String, now: Date) -> TaskChange? {
        let change = renaming(at: position, to: caption, now: now)
        change.map { apply($0) }
        return change
    }

    /// Moves the task at `position` to `index` of `section`; returns what changed (for undo).
    @discardableResult
    public mutating func move(from position: Int, to section: Section, index: Int, now: Date) -> [TaskChange] {
        let changes = moving(from: position, to: section, index: index, now: now)
        apply(changes)
        return changes
    }

    /// Removes every completed task; returns what changed (for undo).
    @discardableResult
    public mutating func removeCompleted() -> [TaskChange] {
        let changes = removingCompleted()
        apply(changes)
        return changes
    }

    /// The index within its section of the task at `position`.
    public func index(ofPosition position: Int) -> Int {
        position < priority.count ? position : position - priority.count
    }

    /// The section of the task at `position`.
    public func section(ofPosition position: Int) -> Section {
        position < priority.count ? .priority : .bonus
    }

    /// The tasks this list has on top of its sections that `earlier` lacks, when that is the
    /// only difference (a person adding tasks); nil for any other change. Top Priority's first.
    public func tasksAddedOnTop(since earlier: TaskList) -> [TaskItem]? {
        let newInPriority = priority.count - earlier.priority.count
        let newInBonus = bonus.count - earlier.bonus.count
        guard newInPriority >= 0, newInBonus >= 0, newInPriority + newInBonus > 0,
            priority.dropFirst(newInPriority).elementsEqual(earlier.priority),
            bonus.dropFirst(newInBonus).elementsEqual(earlier.bonus)
        else { return nil }
        return Array(priority.prefix(newInPriority)) + Array(bonus.prefix(newInBonus))
    }

    /// This list with `tasks` put on top of their sections in turn (the last one ends up
    /// first), skipping ids already present. One pass: inserting one by one at the front would
    /// move the whole list for each task.
    public func addingOnTop(_ tasks: [TaskItem]) -> TaskList {
        var known = Set(all.map(\.id))
        var newPriority: [TaskItem] = []
        var newBonus: [TaskItem] = []
        for task in tasks.reversed() where known.insert(task.id).inserted {
            if task.section == .priority { newPriority.append(task) } else { newBonus.append(task) }
        }
        return TaskList(newPriority + priority + newBonus + bonus)
    }
}
