import FoundationEssentials
import Glibc

// MARK: Reading and writing a field of a task

extension TaskField {
    /// `task`'s value of this field.
    func value(of task: TaskItem) -> FieldValue {
        switch self {
        case .caption: .caption(task.caption)
        case .section: .section(task.section)
        case .completed: .completed(task.completed)
        case .order: .order(task.order)
        case .due: .due(task.due)
        case .note: .note(task.note)
        case .tags: .tags(task.tags)
        case .repeatRule: .repeatRule(task.repeatRule)
        case .list: .list(task.list)
        case .parent: .parent(task.parent)
        }
    }

    /// Gives `task` this field's `value` (a value of another field changes nothing). Completing
    /// sets when: `completedAt` if given, else the time it already had, else `now` (none when
    /// nil: a calendar's task may say done without when); reopening clears it.
    func set(_ value: FieldValue, on task: inout TaskItem, completedAt: Date? = nil, now: @autoclosure () -> Date?) {
        guard value.field == self else { return assertionFailure("\(value) is not a value of \(self)") }
        switch value {
        case .caption(let caption): task.caption = caption
        case .section(let section): task.section = section
        case .completed(let completed):
            task.completed = completed
            task.completedAt = completed ? (completedAt ?? task.completedAt ?? now()) : nil
        case .order(let key): task.order = key
        case .due(let due): task.due = due
        case .note(let note): task.note = note
        case .tags(let tags): task.tags = tags
        case .repeatRule(let rule): task.repeatRule = rule
        case .list(let list): task.list = list
        case .parent(let parent): task.parent = parent
        }
    }

    /// True when a task without this field set would have `value` (written only when set).
    func isUnset(_ value: FieldValue) -> Bool {
        switch value {
        case .due(let due): due == nil
        case .note(let note): note.isEmpty
        case .tags(let tags): tags.isEmpty
        case .repeatRule(let rule): rule.isNone
        case .list(let list): list.isEmpty
        case .parent(let parent): parent == nil
        case .caption, .section, .completed, .order: false
        }
    }
}

// MARK: The fields of a change

extension TaskFields {
    /// The value this change sets for `field`; nil when it leaves the field alone.
    subscript(field: TaskField) -> FieldValue? {
        get {
            switch field {
            case .caption: caption.map(FieldValue.caption)
            case .section: section.map(FieldValue.section)
            case .completed: completed.map(FieldValue.completed)
            case .order: order.map(FieldValue.order)
            case .due: due.map(FieldValue.due)
            case .note: note.map(FieldValue.note)
            case .tags: tags.map(FieldValue.tags)
            case .repeatRule: repeatRule.map(FieldValue.repeatRule)
            case .list: list.map(FieldValue.list)
            case .parent: parent.map(FieldValue.parent)
            }
        }
        set {
            guard let newValue else {
                switch field {
                case .caption: caption = nil
                case .section: section = nil
                case .completed:
                    completed = nil
                    completedAt = nil
                case .order: order = nil
                case .due: due = nil
                case .note: note = nil
                case .tags: tags = nil
                case .repeatRule: repeatRule = nil
                case .list: list = nil
                case .parent: parent = nil
                }
                return
            }
            guard newValue.field == field else { return assertionFailure("\(newValue) is not a value of \(field)") }
            switch newValue {
            case .caption(let value): caption = value
            case .section(let value): section = value
            case .completed(let value): completed = value
            case .order(let value): order = value
            case .due(let due): self.due = .some(due)
            case .note(let value): note = value
            case .tags(let value): tags = value
            case .repeatRule(let value): repeatRule = value
            case .list(let value): list = value
            case .parent(let value): parent = .some(value)
            }
        }
    }
}
