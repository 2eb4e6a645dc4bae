import FoundationEssentials
import Glibc

/// Which changes of an undo (or a redo) still apply to the list as it is now: the one rule
/// `--undo` and the UI's `u` and `^R` share.
///
/// A set applies while its task still holds the values it replaces (`was`); a task changed
/// again since, elsewhere, keeps that change. An add applies while its task is absent, a delete
/// while it is present and still says what it said (its fields but its place): a task another
/// program changed since is never deleted by taking back its add. Each change is judged on the tasks as the changes before it left them,
/// kept aside by id, so that no copy of the list is made.
public struct StillApplicable: Sendable {
    /// Why a change was left out.
    public enum Skipped: Equatable, Sendable {
        /// The task was changed again since: its later values are kept.
        case changedSince(TaskItem)
        /// The task a set would change is deleted now.
        case deletedSince(UUID)
        /// The task an add would bring back is there already.
        case alreadyThere(TaskItem)
        /// The task a delete would remove is gone already.
        case goneAlready(TaskItem)
    }

    /// The changes to make, in order.
    public private(set) var changes: [TaskChange] = []
    public private(set) var skipped: [Skipped] = []
    /// True when the changes add tasks alone, each new to the list (found on the way): a
    /// caller that applies them next to the same list need not ask again.
    public private(set) var addsOnlyNewTasks = false

    public init(_ candidates: [TaskChange], on list: TaskList) {
        // Many changes look their tasks up through a table: a list just changed in one pass has
        // no id index, and a scan each took seconds. Adds and deletes need only whether a task
        // is there (a table of ids, a few ms at 100,000 tasks); sets need the task (the index).
        let many = candidates.count > TaskList.changesFoundByScan
        // Adds alone of tasks not there (the undo of a clear): all apply, and asking that of
        // the changes' ids costs a table of them, not one of the whole list.
        if many, list.addsOnlyNewTasks(candidates) {
            changes = candidates
            addsOnlyNewTasks = true
            return
        }
        let presenceOnly = many && !candidates.contains { if case .set = $0 { true } else { false } }
        var indexed: TaskList? = many && !presenceOnly ? list.indexedByID() : nil
        var present: IDTable?
        // Where each id of `present` is, by its place in the table.
        var places: [(section: Section, index: Int)] = []
        if presenceOnly {
            var table = IDTable(count: list.count)
            places.reserveCapacity(list.count)
            for section in Section.allCases {
                let tasks = list.tasks(in: section)
                for index in tasks.indices where table.insert(tasks[index].id) { places.append((section, index)) }
            }
            present = table
        }
        // The tasks as the changes taken so far left them (nil: deleted by one of them): only
        // needed when a task is named twice (adds and deletes of distinct tasks, the undo of a
        // clear, never look at what an earlier one left).
        var repeats = !presenceOnly
        if presenceOnly {
            var named = IDTable(count: candidates.count)
            repeats = candidates.withUnsafeBufferPointer { candidates in candidates.indices.contains { !named.insert(candidates[$0].id) } }
        }
        var touched: [UUID: TaskItem?] = [:]
        if repeats { touched.reserveCapacity(candidates.count) }
        func current(_ id: UUID) -> TaskItem? {
            if let known = touched[id] { return known }
            if let present {
                return present.index(of: id).map { places[$0] }.map { list.tasks(in: $0.section)[$0.index] }
            }
            // There (or not known): the task itself, through the index, made once if needed.
            if many && indexed == nil { indexed = list.indexedByID() }
            return (indexed ?? list).task(withID: id)
        }
        /// Whether the task is there, without fetching it (a delete needs no more; fetching made
        /// the whole id index for the redo of a clear).
        func isThere(_ id: UUID) -> Bool {
            if let known = touched[id] { return known != nil }
            if let present { return present.contains(id) }
            return current(id) != nil
        }
        // The changes are taken whole while none is skipped: copying each (a retain of its task's
        // caption, a cache miss) was a fifth of the undo of a 30,000-task clear.
        var takenWhole = true
        // Through the buffer: an array element read out for its id or a switch was copied.
        candidates.withUnsafeBufferPointer { candidates in
            for index in candidates.indices {
                // Read in place (a payload is bound only where it is used).
                let id = candidates[index].id
                var task: TaskItem?
                var skip: Skipped?
                switch candidates[index] {
                case .set(_, _, let was):
                    task = current(id)
                    if let task {
                        if !was.hold(in: task) { skip = .changedSince(task) }
                    } else {
                        skip = .deletedSince(id)
                    }
                case .add:
                    task = current(id)
                    if let task { skip = .alreadyThere(task) }
                case .delete(let removed):
                    if !isThere(id) {
                        skip = .goneAlready(removed)
                    } else if let now = current(id), !Self.saysTheSame(now, removed) {
                        skip = .changedSince(now)
                    }
                }
                if let skip {
                    if takenWhole {
                        takenWhole = false
                        changes = Array(candidates[..<index])
                    }
                    skipped.append(skip)
                    continue
                }
                if !takenWhole { changes.append(candidates[index]) }
                guard repeats else { continue }
                let change = candidates[index]
                switch change {
                case .add(let added): touched[change.id] = .some(added)
                case .delete: touched[change.id] = .some(nil)
                case .set:
                    var one = TaskList(keyed: task.map { [$0] } ?? [])
                    one.apply(change, clock: .zero, force: true)
                    touched[change.id] = .some(one.task(withID: change.id))
                }
            }
        }
        if takenWhole { changes = candidates }
    }

    /// Whether `task` still says what `was` said: every field but its place, which moves with
    /// its neighbours and a commit's keys.
    static func saysTheSame(_ task: TaskItem, _ was: TaskItem) -> Bool {
        TaskField.allCases.allSatisfy { $0 == .order || $0.value(of: task) == $0.value(of: was) }
    }
}
