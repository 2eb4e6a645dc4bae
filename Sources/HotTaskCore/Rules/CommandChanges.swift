import FoundationEssentials
import Glibc

/// The tasks a command's changes are made on, as the changes before left them: the whole list
/// (`--done 3`, handles resolved by list number or id) or only the tasks named by id
/// (`PointLookup`, when every handle is an id).
protocol ChangeTarget {
    /// The task a handle names, as the changes made so far left it; nil when it names none.
    func task(_ handle: String) -> TaskItem?
    /// Applies a change made on these tasks.
    mutating func apply(_ change: TaskChange)
    /// A key above every task of `section`, those moved there by this command included.
    mutating func topKey(of section: Section) -> OrderKey
    /// The family tree of the tasks, as the changes made so far left it.
    func subtasks() -> Subtasks
    /// `count` keys after the last of `parent`'s family in its section (`moving` aside: the
    /// tasks these keys are for), before the task after it.
    func keys(_ count: Int, afterFamilyOf parent: TaskItem, moving: Set<UUID>) -> [OrderKey]
    /// Its subtasks, theirs, and so on, each after its parent, as the changes so far left them.
    func descendants(of id: UUID) -> [TaskItem]
    /// Whether `task` under `parent` would be its own ancestor.
    func wouldCycle(_ task: UUID, under parent: UUID) -> Bool
}

extension ChangeTarget {
    /// From the whole tree (a target may find them without it).
    func descendants(of id: UUID) -> [TaskItem] {
        subtasks().descendants(of: id).compactMap { task(Self.handle(of: $0)) }
    }

    func wouldCycle(_ task: UUID, under parent: UUID) -> Bool {
        subtasks().wouldCycle(task, under: parent)
    }

    /// The handle that names a task by its whole id (every target takes one).
    static func handle(of id: UUID) -> String { id.uuidString.lowercased() }
}

/// The edits, due dates, completions, moves and deletes one command asks for, by handle: the
/// rules of each change, written once for both ways of reading the store. Each change is made
/// on the tasks as the ones before it left them; a change that would change nothing is not
/// made, and says so.
struct CommandChanges: Sendable {
    var caption: (handle: String, text: String)?
    var due: (handle: String, request: DueInput.Request)?
    /// A note (through `NoteRule`); empty clears it.
    var note: (handle: String, text: String)?
    /// Tags to add and to take away (through `TagRule`).
    var tags: (handle: String, adding: [String], removing: [String])?
    /// A repeat rule (`.none` stops it); `today` is the first day one may start on.
    var repeating: (handle: String, rule: RepeatRule, today: Int)?
    /// Another list: what the task stores for it (`ListNames.stored`) and its name.
    var list: (handle: String, stored: String, name: String)?
    /// `--under`: the task and the handle of its new parent (nil: top-level again).
    var under: (handle: String, parent: String?)?
    var completing: [String] = []
    var reopening: [String] = []
    var moving: [String] = []
    var deleting: [String] = []

    init() {}

    /// What a change did (or would have), for the line the command prints.
    enum Step: Equatable, Sendable {
        case edited(from: String, to: String)
        case alreadyCaptioned(String)
        /// The task as it was, the date asked for, and the date it took (a task repeating on
        /// some days takes the first of them from the date asked).
        case dated(TaskItem, DueInput.Request, taken: DueInput.Request)
        case noted(TaskItem, String)
        /// The task as it was, and its tags after.
        case tagged(TaskItem, [String])
        /// The task as it was, and as the rule left it.
        case repeated(TaskItem, after: TaskItem)
        /// `subtasks`: how many open subtasks were completed with it.
        case completed(TaskItem, changed: Bool, subtasks: Int)
        /// A repeating task completed: the task as it was, its next due date, and how many of
        /// its subtasks were reopened with it.
        case advanced(TaskItem, next: DueDate, reopened: Int)
        case reopened(TaskItem, changed: Bool)
        /// `subtasks`: how many went with it.
        case moved(TaskItem, to: Section, subtasks: Int)
        /// The task as it was, and its parent after (nil: top-level).
        case underParent(TaskItem, parent: TaskItem?, changed: Bool)
        /// The task as it was, and the list it is in after.
        case listed(TaskItem, to: String, changed: Bool)
        /// `subtasks`: how many were deleted with it.
        case deleted(TaskItem, subtasks: Int)
    }

    /// The changes, in the order the command lists them, and a step for each handle acted on.
    func plan(on target: inout some ChangeTarget, now: Date, local: ZoneInfo) throws(PlanRefusal) -> (changes: [TaskChange], steps: [Step]) {
        let completingIDs = Set(completing.compactMap { target.task($0)?.id })
        for handle in reopening {
            if let task = target.task(handle), completingIDs.contains(task.id) { throw .contradiction(task) }
        }
        var changes: [TaskChange] = []
        var steps: [Step] = []
        /// Makes the change `rule` gives for the task `handle` names, if any.
        func make(_ handle: String, _ rule: (TaskItem) -> TaskChange?) {
            guard let task = target.task(handle), let change = rule(task) else { return }
            target.apply(change)
            changes.append(change)
        }
        /// Makes changes planned on the tasks as they were.
        func makeAll(_ planned: [TaskChange]) {
            for change in planned {
                target.apply(change)
                changes.append(change)
            }
        }
        if let caption, let task = target.task(caption.handle) {
            make(caption.handle) { ChangeRules.rename($0, to: caption.text) }
            steps.append(task.caption == caption.text ? .alreadyCaptioned(caption.text) : .edited(from: task.caption, to: caption.text))
        }
        if let due, let task = target.task(due.handle) {
            let date: DueDate? = if case .set(let date) = due.request { date } else { nil }
            make(due.handle) { ChangeRules.date($0, to: date) }
            // The date it took: a task repeating on some days takes the first of them.
            let taken: DueInput.Request = if case .set = due.request, let after = target.task(due.handle)?.due { .set(after) } else { due.request }
            steps.append(.dated(task, due.request, taken: taken))
        }
        if let note, let task = target.task(note.handle) {
            make(note.handle) { ChangeRules.note($0, to: note.text) }
            steps.append(.noted(task, note.text))
        }
        if let tags, let task = target.task(tags.handle) {
            make(tags.handle) { ChangeRules.tag($0, adding: tags.adding, removing: tags.removing) }
            steps.append(.tagged(task, target.task(tags.handle)?.tags ?? task.tags))
        }
        if let repeating, let task = target.task(repeating.handle) {
            make(repeating.handle) { ChangeRules.repeating($0, by: repeating.rule, today: repeating.today) }
            steps.append(.repeated(task, after: target.task(repeating.handle) ?? task))
        }
        // A subtask lives in its parent's section and list: it goes where the parent goes.
        let leavingList = list.flatMap { list in target.task(list.handle).map { $0.list == list.stored ? [] : [list.handle] } } ?? []
        for (flag, handles) in [("--in", leavingList), ("--move", moving)] {
            for handle in handles {
                // As the tree takes it: a task whose parent is not here (yet) is top-level and moves.
                guard let task = target.task(handle), task.parent != nil, under?.handle != handle,
                    let parent = target.subtasks().parent(of: task.id)
                else { continue }
                throw .subtaskAlone(task, parent: target.task(parent.uuidString.lowercased()), flag: flag)
            }
        }
        if let list, let task = target.task(list.handle) {
            make(list.handle) { ChangeRules.moveToList($0, list.stored) }
            makeAll(Self.listFamily(task, to: list.stored, on: target))
            steps.append(.listed(task, to: list.name, changed: task.list != list.stored))
        }
        if let (planned, step) = try planUnder(on: &target) {
            makeAll(planned)
            steps.append(step)
        }
        for (handles, completed) in [(completing, true), (reopening, false)] {
            for handle in handles {
                guard let task = target.task(handle) else { continue }
                make(handle) { ChangeRules.complete($0, completed, now: now, local: local) }
                let changed = task.completed != completed
                let after = target.task(handle)
                let family = ChangeRules.followingCompletion(
                    of: task, completed, after: after, family: target.descendants(of: task.id), now: now)
                makeAll(family.changes)
                if family.advanced, let next = after?.due {
                    // A repeating parent repeats with its subtasks open again.
                    steps.append(.advanced(task, next: next, reopened: family.changes.count))
                } else if completed {
                    steps.append(.completed(task, changed: changed, subtasks: family.changes.count))
                } else {
                    steps.append(.reopened(task, changed: changed))
                }
            }
        }
        for handle in moving {
            guard let task = target.task(handle) else { continue }
            let section = task.section.other
            // Its subtasks first, each on top of the last, then the task above them all.
            let family = target.descendants(of: task.id)
            for subtask in family.reversed() {
                let key = target.topKey(of: section)
                makeAll(ChangeRules.move(subtask, to: section, key: key).map { [$0] } ?? [])
            }
            let key = target.topKey(of: section)
            make(handle) { ChangeRules.move($0, to: section, key: key) }
            steps.append(.moved(task, to: section, subtasks: family.count))
        }
        var deleted = Set<UUID>()
        for handle in deleting {
            guard let task = target.task(handle), deleted.insert(task.id).inserted else { continue }
            // Its subtasks first (the tree is the one the task is still in), then the task.
            let subtasks = target.descendants(of: task.id).filter { deleted.insert($0.id).inserted }
            makeAll(subtasks.map(ChangeRules.delete) + [ChangeRules.delete(task)])
            steps.append(.deleted(task, subtasks: subtasks.count))
        }
        return (changes, steps)
    }
}

/// The whole list, its handles resolved to ids before any change (so that list numbers name
/// the tasks as they were).
struct WholeListTarget: ChangeTarget {
    private(set) var list: TaskList
    private let ids: [String: UUID]
    /// What the store's header and log say of the top of each section (see `TopBounds`).
    private let bounds: TopBounds?

    init(_ list: TaskList, ids: [String: UUID], bounds: TopBounds? = nil) {
        self.list = list
        self.ids = ids
        self.bounds = bounds
    }

    func task(_ handle: String) -> TaskItem? {
        if let id = ids[handle] { return list.task(withID: id) }
        return UUID(uuidString: handle).flatMap { list.task(withID: $0) }
    }

    func subtasks() -> Subtasks { Subtasks(list) }

    func keys(_ count: Int, afterFamilyOf parent: TaskItem, moving: Set<UUID>) -> [OrderKey] {
        list.keys(count, afterFamily: Set(subtasks().descendants(of: parent.id)), of: parent, moving: moving)
    }

    mutating func apply(_ change: TaskChange) {
        list.apply(change, clock: .zero, force: true)
    }

    mutating func topKey(of section: Section) -> OrderKey {
        guard let bounds else { return list.topKey(of: section) }
        return OrderKey.between(nil, bounds.below(section, first: list.tasks(in: section).first?.order))
    }
}

/// Only the tasks named by id, and when asked every subtask and the named tasks' parents, as
/// `PointLookup` found them.
struct NamedTasksTarget: ChangeTarget {
    private var tasks: [String: TaskItem]
    private var top: [Section: OrderKey?]

    init(_ lookup: PointLookup) {
        // Each also by its whole id, the handle subtasks and parents are found by.
        tasks = lookup.tasks
        for task in Array(lookup.tasks.values) + lookup.family where tasks[Self.handle(of: task.id)] == nil { tasks[Self.handle(of: task.id)] = task }
        top = lookup.top
    }

    func task(_ handle: String) -> TaskItem? {
        tasks[handle]
    }

    /// The tree of the tasks held: every subtask is, when the lookup was asked for them.
    func subtasks() -> Subtasks {
        // In the list's order, as the whole list's tree has them: siblings move and print so.
        var seen = Set<UUID>()
        let held = tasks.values.filter { seen.insert($0.id).inserted }.sorted { a, b in
            a.section != b.section ? a.section == .priority : a.order != b.order ? a.order < b.order : Subtasks.text(a.id) < Subtasks.text(b.id)
        }
        return Subtasks(held)
    }

    /// Never asked: `--under` reads the whole list, where the parent's neighbours are.
    func keys(_ count: Int, afterFamilyOf parent: TaskItem, moving: Set<UUID>) -> [OrderKey] {
        OrderKey.sequence(count, after: parent.order)
    }

    mutating func apply(_ change: TaskChange) {
        var one = TaskList(keyed: tasks.values.first { $0.id == change.id }.map { [$0] } ?? [])
        one.apply(change, clock: .zero, force: true)
        let after = one.task(withID: change.id)
        for (handle, task) in tasks where task.id == change.id { tasks[handle] = after }
    }

    mutating func topKey(of section: Section) -> OrderKey {
        let key = OrderKey.between(nil, top[section] ?? nil)
        top[section] = key
        return key
    }
}
