import FoundationEssentials
import Glibc

/// The changes a person's request makes (a new task on top, a rename, a due date, done, a
/// move, a delete, clearing the completed ones), built from the list as it is.
extension TaskList {
    /// The key that puts a task on top of `section`.
    func topKey(of section: Section) -> OrderKey {
        OrderKey.between(nil, tasks(in: section).first?.order)
    }

    /// The key that puts a task at the end of `section`.
    func endKey(of section: Section) -> OrderKey {
        OrderKey.between(tasks(in: section).last?.order, nil)
    }

    /// The change that adds `task` on top of its section (the rule for tasks a person adds).
    public func adding(onTop task: TaskItem) -> TaskChange {
        var task = task
        task.order = topKey(of: task.section)
        return .add(task)
    }

    /// The change that gives the task at `position` a new caption, or nil when the caption is
    /// the same. The caption must already have passed `CaptionRule`.
    public func renaming(at position: Int, to caption: String) -> TaskChange? {
        ChangeRules.rename(self[position], to: caption)
    }

    /// The change that gives the task at `position` a new caption and, when `due` is given (a
    /// `due:` word typed in it, `DueWord`), that due date; nil when it has them already.
    public func renaming(at position: Int, to caption: String, due: DueDate?) -> TaskChange? {
        guard let due else { return renaming(at: position, to: caption) }
        return ChangeRules.set(TaskFields(caption: caption, due: .some(due)), on: self[position])
    }

    /// The change that gives the task at `position` the due date `due` (nil clears it), or nil
    /// when it already has it.
    public func dating(at position: Int, to due: DueDate?) -> TaskChange? {
        ChangeRules.date(self[position], to: due)
    }

    /// The change that gives the task at `position` the note `note` (through `NoteRule`; empty
    /// clears it), or nil when it already has it.
    public func noting(at position: Int, to note: String) -> TaskChange? {
        ChangeRules.note(self[position], to: note)
    }

    /// The change that gives the task at `position` a new caption and these tags (the caption
    /// editor's) and, when `due` is given (a typed `due:` word), that due date; nil when it has
    /// them already.
    public func renaming(at position: Int, to caption: String, tags: [String], due: DueDate? = nil) -> TaskChange? {
        ChangeRules.rename(self[position], to: caption, tags: tags, due: due)
    }

    /// Every tag of the list, each once, the most used first (then A–Z): what Tab completes.
    public var tagsInUse: [String] {
        var uses: [String: Int] = [:]
        // By index: `for task in` copies each task out, a retain and release of its caption.
        for index in priority.indices where !priority[index].tags.isEmpty { for tag in priority[index].tags { uses[tag, default: 0] += 1 } }
        for index in bonus.indices where !bonus[index].tags.isEmpty { for tag in bonus[index].tags { uses[tag, default: 0] += 1 } }
        return uses.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
    }

    /// The change that marks the task at `position` completed or open, or nil when it
    /// already is.
    public func completing(_ completed: Bool, at position: Int, now: Date, local: ZoneInfo) -> TaskChange? {
        ChangeRules.complete(self[position], completed, now: now, local: local)
    }

    /// The change that moves the task at `position` to `index` of `section` (an index in the
    /// section as it is once the task has left), or nil when it is there already. Only the
    /// moved task changes: it gets a key between its new neighbours.
    public func moving(from position: Int, to section: Section, index: Int) -> TaskChange? {
        let old = self[position]
        let tasks = tasks(in: section)
        let from = self.index(ofPosition: position)
        let sameSection = old.section == section
        if sameSection && from == index { return nil }
        // Indices among the section's other tasks, mapped onto the section without copying it.
        let othersCount = sameSection ? tasks.count - 1 : tasks.count
        let original = { (other: Int) in sameSection && other >= from ? other + 1 : other }
        let index = min(max(index, 0), othersCount)
        let key = OrderKey.between(
            index > 0 ? tasks[original(index - 1)].order : nil, index < othersCount ? tasks[original(index)].order : nil)
        return ChangeRules.move(old, to: section, key: key)
    }

    /// The change that deletes the task at `position`.
    public func deleting(at position: Int) -> TaskChange {
        ChangeRules.delete(self[position])
    }

    /// The changes that delete every completed task, in display order; but a completed task
    /// with an open subtask, which would be left without its parent.
    public func removingCompleted() -> [TaskChange] {
        // Those kept are known first, so each change is made once (a filter afterwards copied
        // 30,000 of them again, a retain of each task's caption).
        let aboveOpen = hasSubtasks ? withOpenSubtasks() : nil
        var changes: [TaskChange] = []
        changes.reserveCapacity(completedCount)
        // By index: `all` copied every task (a retain and release of each caption) to keep 30%.
        for tasks in [priority, bonus] {
            for index in tasks.indices where tasks[index].completed && !(aboveOpen?.contains(tasks[index].id) ?? false) {
                changes.append(.delete(tasks[index]))
            }
        }
        return changes
    }

    /// The tasks with an open subtask at any depth: a pass over the tasks for the parents of
    /// open subtasks, then one per level above them, each over the tasks that have a parent
    /// (no map of every relation, no look-up by id; a table of ids, as a `Set` of 60,000 set
    /// SipHash up for each).
    func withOpenSubtasks() -> IDSet {
        var found = IDSet(minimumCapacity: count / 4)
        var level = IDSet()
        for section in Section.allCases {
            let tasks = tasks(in: section)
            for index in tasks.indices where !tasks[index].completed && !tasks[index].parentHint.isNone {
                if let parent = tasks[index].parent, found.insert(parent) { level.insert(parent) }
            }
        }
        while !level.isEmpty {
            var next = IDSet()
            for section in Section.allCases {
                let tasks = tasks(in: section)
                for index in tasks.indices where !tasks[index].parentHint.isNone && level.contains(tasks[index].id) {
                    if let parent = tasks[index].parent, found.insert(parent) { next.insert(parent) }
                }
            }
            level = next
        }
        return found
    }
}
