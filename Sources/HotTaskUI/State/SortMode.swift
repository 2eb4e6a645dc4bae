import FoundationEssentials
import Glibc
import HotTaskCore

/// The order the list is shown in. Only `manual` is stored; the others are views of it.
public enum SortMode: CaseIterable, Equatable, Sendable {
    case manual, newest, oldest, alphabetical, due

    /// The label in the view bar.
    var title: String {
        switch self {
        case .manual: "Manual"
        case .newest: "Newest"
        case .oldest: "Oldest"
        case .alphabetical: "A–Z"
        case .due: "Due"
        }
    }

    /// The mode in a sentence, for messages.
    var description: String {
        switch self {
        case .manual: "Manual (stored order)"
        case .newest: "newest first"
        case .oldest: "oldest first"
        case .alphabetical: "A–Z"
        case .due: "soonest due first, undated last"
        }
    }

    /// The next mode for `s`.
    var next: SortMode {
        let all = Self.allCases
        return all[(all.firstIndex(of: self).map { $0 + 1 } ?? 0) % all.count]
    }
}

/// How two tasks of one section compare in a view: completed last (when asked), then the sort
/// mode, then stored order, so that the order is total and any filtered subsequence of it is
/// still sorted (which lets a change be put in place by binary search).
///
/// Sorting compares numbers and bytes, never tasks: a comparison that copied two `TaskItem`s
/// (a retain and release of each caption) made a sort of 60,000 tasks take 190 ms. Newest and
/// oldest sort by the creation time as a number; A–Z compares the captions' folded bytes (the
/// filter's folding, kept by `ListView`), runs of digits by their value. "Completed last" is
/// the mode's order with the completed tasks moved after the others, in one stable pass.
struct TaskOrdering {
    let sort: SortMode
    let completedLast: Bool
    /// The zone a due time's day and hour are read in.
    let local: ZoneInfo

    /// True when the view is the stored order itself, so no array of positions is needed.
    var isIdentity: Bool { sort == .manual && !completedLast }

    /// The section's indices in this order: one sort by keys, O(n log n).
    func order(of tasks: [TaskItem], folded: FoldedColumn) -> [Int] {
        var order: [Int]
        switch sort {
        case .manual:
            order = Array(tasks.indices)
        case .newest, .oldest:
            let times = tasks.map(\.createdAt.timeIntervalSinceReferenceDate)
            let newestFirst = sort == .newest
            order = times.withUnsafeBufferPointer { times in
                tasks.indices.sorted { a, b in
                    times[a] != times[b] ? (times[a] > times[b]) == newestFirst : a < b
                }
            }
        case .alphabetical:
            order = tasks.indices.sorted { a, b in
                let compared = folded.naturalOrder(a, b)
                return compared != 0 ? compared < 0 : a < b
            }
        case .due:
            // Each task's key made once, not once per comparison.
            let keys = tasks.map(dueKey)
            order = keys.withUnsafeBufferPointer { keys in
                tasks.indices.sorted { a, b in keys[a] != keys[b] ? keys[a] < keys[b] : a < b }
            }
        }
        guard completedLast else { return order }
        return order.filter { !tasks[$0].completed } + order.filter { tasks[$0].completed }
    }

    /// Whether the task at index `a` comes before the one at `b`.
    func precedes(_ a: Int, _ b: Int, tasks: [TaskItem], folded: FoldedColumn) -> Bool {
        if completedLast, tasks[a].completed != tasks[b].completed { return !tasks[a].completed }
        switch sort {
        case .manual: break
        case .newest where tasks[a].createdAt != tasks[b].createdAt: return tasks[a].createdAt > tasks[b].createdAt
        case .oldest where tasks[a].createdAt != tasks[b].createdAt: return tasks[a].createdAt < tasks[b].createdAt
        case .alphabetical:
            let compared = folded.naturalOrder(a, b)
            if compared != 0 { return compared < 0 }
        case .due:
            let (aDue, bDue) = (dueKey(tasks[a]), dueKey(tasks[b]))
            if aDue != bDue { return aDue < bDue }
        default: break
        }
        return a < b
    }

    /// Soonest first, undated last (in the person's zone, `local`).
    func dueKey(_ task: TaskItem) -> Int64 {
        task.due.map { $0.sortKey(local: local) } ?? .max
    }

    /// Where `index` goes in `order` (a sorted list of indices of `tasks`), by binary search.
    func insertionPoint(of index: Int, in order: [Int], tasks: [TaskItem], folded: FoldedColumn) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(order[middle], index, tasks: tasks, folded: folded) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
