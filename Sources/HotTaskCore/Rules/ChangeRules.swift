import FoundationEssentials
import Glibc

/// The rule of each change a person asks for, written once for the UI's keys and the command
/// line's flags: rename, date, complete or reopen, move, delete. Each takes the task as it is
/// now and gives the change by id with the values it replaces, or nil when it would change
/// nothing.
public enum ChangeRules {
    /// `fields` set on `task`, unless it holds them already.
    static func set(_ fields: TaskFields, on task: TaskItem) -> TaskChange? {
        guard !fields.hold(in: task) else { return nil }
        return .set(task.id, fields, was: fields.values(in: task))
    }

    /// A new caption (already through `CaptionRule`).
    public static func rename(_ task: TaskItem, to caption: String) -> TaskChange? {
        set(TaskFields(caption: caption), on: task)
    }

    /// A due date; nil clears it. A task repeating on some days (`every mon,thu`) is due on
    /// the first of them from that date on (`RepeatRule.onOccurrence`).
    public static func date(_ task: TaskItem, to due: DueDate?) -> TaskChange? {
        set(TaskFields(due: .some(due.map(task.repeatRule.onOccurrence))), on: task)
    }

    /// A note (already through `NoteRule`); an empty one clears it.
    public static func note(_ task: TaskItem, to note: String) -> TaskChange? {
        set(TaskFields(note: note), on: task)
    }

    /// Tags added (at the end, in the order given) and taken away (through `TagRule`).
    public static func tag(_ task: TaskItem, adding: [String], removing: [String]) -> TaskChange? {
        var tags = task.tags.filter { !removing.contains($0) }
        for tag in adding where !tags.contains(tag) { tags.append(tag) }
        return set(TaskFields(tags: tags), on: task)
    }

    /// A caption and the whole set of tags at once (the caption editor, where both are shown).
    /// Only what differs is set (a caption edit that leaves the tags stamps no tags).
    public static func rename(_ task: TaskItem, to caption: String, tags: [String], due: DueDate? = nil) -> TaskChange? {
        set(
            TaskFields(
                caption: caption == task.caption && (tags != task.tags || due != nil) ? nil : caption, due: due.map { .some($0) },
                tags: tags == task.tags ? nil : tags), on: task)
    }

    /// Completed (when, `now`) or open again. Completing an open repeating task with a due
    /// date moves it to its next occurrence instead (`nextOccurrence`): the same task, open,
    /// its due date advanced (and a COUNT one less), in one change that undo takes back. Its
    /// last occurrence completes it. A rule counted from the day it is done steps from `now`'s
    /// day in `local`.
    public static func complete(_ task: TaskItem, _ completed: Bool, now: Date, local: ZoneInfo) -> TaskChange? {
        if completed, !task.completed, let next = nextOccurrence(of: task, doneOn: DueDate.localDay(of: now, in: local)) {
            return set(TaskFields(due: .some(next.due), repeatRule: next.rule == task.repeatRule ? nil : next.rule), on: task)
        }
        return set(TaskFields(completed: completed, completedAt: now), on: task)
    }

    /// Where completing `task` on `day` (days since 1970-01-01, in the person's zone) moves it: the
    /// occurrence after its due date, or for a rule counted from the day it is done, one step
    /// on from that day; nil when it does not repeat, has no due date, or that was its last
    /// occurrence.
    public static func nextOccurrence(of task: TaskItem, doneOn day: Int) -> (due: DueDate, rule: RepeatRule)? {
        guard !task.repeatRule.isNone, let due = task.due else { return nil }
        guard task.repeatRule.afterDone else { return task.repeatRule.next(after: due) }
        return task.repeatRule.next(after: due, doneOn: day)
    }

    /// A repeat rule (`.none` stops it). A task that starts repeating without a due date takes
    /// the rule's first day from `today` on (days since 1970-01-01): today, or for `every sun`
    /// the next Sunday; one with a due date that is not one of the rule's days moves to the
    /// first of them after it (`RepeatRule.onOccurrence`).
    public static func repeating(_ task: TaskItem, by rule: RepeatRule, today: Int) -> TaskChange? {
        let onOccurrence = task.due.map(rule.onOccurrence)
        let due: DueDate?? =
            task.due == nil && !rule.isNone ? .some(rule.first(onOrAfter: today)) : onOccurrence != task.due ? .some(onOccurrence) : nil
        return set(TaskFields(due: due, repeatRule: rule), on: task)
    }

    /// To `section`, at the place `key` gives it among its tasks.
    public static func move(_ task: TaskItem, to section: Section, key: OrderKey) -> TaskChange? {
        set(TaskFields(section: task.section == section ? nil : section, order: key), on: task)
    }

    /// Into another list (`stored` as `ListNames` stores it), keeping its place in the order.
    public static func moveToList(_ task: TaskItem, _ stored: String) -> TaskChange? {
        set(TaskFields(list: stored), on: task)
    }

    /// Deleted (a tombstone keeps it, so that an older copy never brings it back).
    public static func delete(_ task: TaskItem) -> TaskChange {
        .delete(task)
    }
}

/// A key each section's tasks all come after, as a store's header and log say: the snapshot's
/// first keys, and every key a later record gave (an add's, a move's). A task given a key
/// before it goes on top, whichever way the store was read: from the header and the log alone,
/// or whole.
struct TopBounds: Equatable, Sendable {
    var keys: [Section: OrderKey?] = [:]

    init(_ top: [Section: OrderKey]) {
        for section in Section.allCases { keys[section] = top[section] }
    }

    subscript(section: Section) -> OrderKey? { keys[section] ?? nil }

    /// The bounds once `record` is applied.
    mutating func include(_ record: LogRecord) {
        for change in record.changes {
            switch change {
            case .add(let task): keys[task.section] = Self.lower(self[task.section], task.order)
            case .set(_, let fields, _):
                if let order = fields.order { for section in Section.allCases { keys[section] = Self.lower(self[section], order) } }
            case .delete: break
            }
        }
    }

    /// The lower of a bound and the first key a list shows (a task added in this command).
    func below(_ section: Section, first: OrderKey?) -> OrderKey? {
        guard let first else { return self[section] }
        return Self.lower(self[section], first)
    }

    static func lower(_ key: OrderKey?, _ other: OrderKey) -> OrderKey {
        key.map { min($0, other) } ?? other
    }
}
