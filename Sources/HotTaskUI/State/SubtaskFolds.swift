import FoundationEssentials
import Glibc
import HotTaskCore

/// The list view's part in subtasks (issue 54): which tasks are folded, the subtasks their
/// folds hide, and each parent's count of subtasks and of those done (`2/5` on its row).
///
/// The counts follow each row edit (O(1) an edit) and are made again in one pass when the list
/// is; the hidden set is made again only when folds change or an edit touches a family under a
/// fold, so a list with no folds pays nothing per key.
struct SubtaskFolds: Equatable, Sendable {
    /// A parent's direct subtasks, and how many of them are done.
    struct Counts: Equatable, Sendable {
        var all = 0
        var done = 0

        mutating func add(done: Bool) {
            all += 1
            if done { self.done += 1 }
        }

        mutating func add(_ other: Counts) {
            all += other.all
            done += other.done
        }
    }

    /// The tasks whose subtasks are hidden, by id (kept when they are deleted, so that an
    /// undo brings the fold back too).
    private(set) var folded: Set<UUID> = []
    /// The subtasks, at any depth, of a folded task: derived from `folded` and the list.
    private(set) var hidden: IDSet = []
    /// Per parent id, its direct subtasks (by their `parent` field).
    private var counts: [UUID: Counts] = [:]

    /// The subtasks of `id` and how many are done; nil when it has none.
    func counts(of id: UUID) -> Counts? {
        counts[id]
    }

    var hasSubtasks: Bool { !counts.isEmpty }

    /// Every task some subtask names as its parent.
    var parents: Set<UUID> { Set(counts.keys) }

    func isFolded(_ id: UUID) -> Bool { folded.contains(id) }

    /// Folds these tasks (and no others), then finds what they hide.
    mutating func set(_ folded: Set<UUID>, list: TaskList) {
        self.folded = folded
        findHidden(list)
    }

    /// Counts every parent's subtasks again, and finds what the folds hide: one pass for the
    /// counts, one for each level below a fold.
    mutating func listChanged(_ list: TaskList) {
        let before = counts.count
        counts = [:]
        counts.reserveCapacity(before)
        for section in Section.allCases {
            let tasks = list.tasks(in: section)
            // By index: no task copied out. Siblings in a row (a family lies after its parent)
            // are counted together and looked up once, not once each (80,000 SipHashes).
            var run: (parent: UUID, counts: Counts)?
            for index in tasks.indices {
                guard let parent = tasks[index].parent else { continue }
                if run?.parent != parent {
                    if let run { counts[run.parent, default: Counts()].add(run.counts) }
                    run = (parent, Counts())
                }
                run?.counts.add(done: tasks[index].completed)
            }
            if let run { counts[run.parent, default: Counts()].add(run.counts) }
        }
        findHidden(list)
    }

    /// Follows one row edit: the counts at once; true when what the folds hide may have
    /// changed, for `findHidden` once the change's edits are all in (the list an edit comes
    /// with is the one after the whole change, so a look at it mid-change could be wrong).
    mutating func apply(_ change: ListEdit) -> Bool {
        switch change {
        case .inserted(let task, _):
            count(task, 1)
            return !folded.isEmpty && touchesAFold(task)
        case .removed(let task, _):
            count(task, -1)
            return !folded.isEmpty && touchesAFold(task)
        case .replaced(let old, let new, _):
            count(old, -1)
            count(new, 1)
            return !folded.isEmpty && old.parent != new.parent && (touchesAFold(old) || touchesAFold(new))
        }
    }

    /// A task that is, or is under, or holds, a fold's subtasks.
    private func touchesAFold(_ task: TaskItem) -> Bool {
        if hidden.contains(task.id) || folded.contains(task.id) || counts[task.id] != nil { return true }
        return task.parent.map { hidden.contains($0) || folded.contains($0) } ?? false
    }

    private mutating func count(_ task: TaskItem, _ step: Int) {
        guard let parent = task.parent else { return }
        var counts = self.counts[parent, default: Counts()]
        counts.all += step
        if task.completed { counts.done += step }
        self.counts[parent] = counts.all > 0 ? counts : nil
    }

    /// The subtasks of folded tasks: one pass over the list, then passes over the subtasks it
    /// could not place while one places a task that has subtasks of its own (a family lies
    /// after its parent, so one pass finds them all, and the second is rare). A cycle (from a
    /// file or a server) is left shown: a fold never hides the task it is on.
    mutating func findHidden(_ list: TaskList) {
        hidden = []
        guard !folded.isEmpty, hasSubtasks else { return }
        // The folded tasks here (a fold is kept for a deleted task, for its undo), and how
        // many subtasks they have at least, to size the set once.
        var roots = IDSet(minimumCapacity: folded.count)
        var atLeast = 0
        // Asked of every task: a set without SipHash's set-up per id.
        var foldedHere = IDSet(minimumCapacity: folded.count)
        for id in folded { foldedHere.insert(id) }
        for section in Section.allCases {
            let tasks = list.tasks(in: section)
            for index in tasks.indices where foldedHere.contains(tasks[index].id) {
                guard let counts = counts[tasks[index].id] else { continue }
                roots.insert(tasks[index].id)
                atLeast += counts.all
            }
        }
        guard !roots.isEmpty else { return }
        var reached = IDSet(minimumCapacity: atLeast)
        var placed: [UUID] = []
        var unplaced: [(id: UUID, parent: UUID)] = []
        for section in Section.allCases {
            let tasks = list.tasks(in: section)
            for index in tasks.indices {
                guard let up = tasks[index].parent else { continue }
                if roots.contains(up) || reached.contains(up) {
                    reached.insert(tasks[index].id)
                    placed.append(tasks[index].id)
                } else {
                    unplaced.append((tasks[index].id, up))
                }
            }
        }
        // A subtask not placed waits for its parent, which only a task placed with subtasks
        // of its own could have been.
        while !unplaced.isEmpty, placed.contains(where: { counts[$0] != nil }) {
            placed = []
            var still: [(id: UUID, parent: UUID)] = []
            for subtask in unplaced {
                if reached.contains(subtask.parent) {
                    if reached.insert(subtask.id) { placed.append(subtask.id) }
                } else {
                    still.append(subtask)
                }
            }
            unplaced = still
        }
        // Only a fold on a cycle's member reaches the cycle (each member's parent is in it).
        guard roots.ids.contains(where: reached.contains) else {
            hidden = reached
            return
        }
        var parentOf: [UUID: UUID] = [:]
        for section in Section.allCases {
            let tasks = list.tasks(in: section)
            for index in tasks.indices where reached.contains(tasks[index].id) { parentOf[tasks[index].id] = tasks[index].parent }
        }
        hidden = IDSet(minimumCapacity: reached.count)
        for id in reached.ids where !Self.loops(from: id, parentOf) { hidden.insert(id) }
    }

    /// Whether the parents above `id` come back round, before a task no fold reached.
    private static func loops(from id: UUID, _ parentOf: [UUID: UUID]) -> Bool {
        var seen: Set<UUID> = [id]
        var next = parentOf[id]
        while let up = next {
            if !seen.insert(up).inserted { return true }
            next = parentOf[up]
        }
        return false
    }
}
