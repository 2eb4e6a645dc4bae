import FoundationEssentials
import Glibc

/// The family tree of subtasks (issue 54). A task's `parent` is the id of the task it is a step
/// of, at any depth: a field like any other, so it merges, syncs and undoes as they do. The
/// tree is made from it when needed and never stored:
/// - a parent the tasks do not hold leaves its subtask top-level, keeping the relation for
///   when the parent arrives;
/// - a cycle (only a file or a server can make one: a change here that would is refused) is
///   broken at the task of the lowest id, which counts as top-level, the same way every time.
public struct Subtasks: Sendable {
    /// Each subtask's parent as the tree takes it: held, and not a broken cycle's.
    private var parents: [UUID: UUID] = [:]
    /// Subtasks by parent, in the order the tasks were given.
    private var children: [UUID: [UUID]] = [:]
    /// The tasks whose relation closed a cycle and so count as top-level, lowest id first.
    public private(set) var brokenCycles: [UUID] = []

    /// The tree of `tasks`. Costs a pass over them, and nothing more when none has a parent.
    public init(_ tasks: [TaskItem]) {
        self.init(parts: [tasks])
    }

    /// The tree of a whole list, both sections.
    public init(_ list: TaskList) {
        self.init(parts: [list.tasks(in: .priority), list.tasks(in: .bonus)])
    }

    /// Over arrays, not a generic collection: called from other modules, a generic one was
    /// not specialised, and copied every task through its value witness (a sixth of `--list`).
    private init(parts: [[TaskItem]]) {
        var asked: [(id: UUID, parent: UUID)] = []
        for tasks in parts {
            for index in tasks.indices { if let parent = tasks[index].parent { asked.append((tasks[index].id, parent)) } }
        }
        guard !asked.isEmpty else { return }
        // Sized up front: 80,000 relations grew each table a dozen times (a third of `--list`).
        var named = Set<UUID>(minimumCapacity: asked.count)
        for relation in asked { named.insert(relation.parent) }
        var held = Set<UUID>(minimumCapacity: named.count)
        for tasks in parts {
            for index in tasks.indices where named.contains(tasks[index].id) { held.insert(tasks[index].id) }
        }
        parents.reserveCapacity(asked.count)
        for (id, parent) in asked where held.contains(parent) { parents[id] = parent }
        breakCycles()
        children.reserveCapacity(held.count)
        for (id, _) in asked { if let parent = parents[id] { children[parent, default: []].append(id) } }
    }

    /// True when no task is a subtask of another the tasks hold.
    public var isFlat: Bool { parents.isEmpty }

    /// The parent `id` has in the tree; nil for a top-level task.
    public func parent(of id: UUID) -> UUID? { parents[id] }

    /// Its subtasks, in the order the tasks were given.
    public func children(of id: UUID) -> [UUID] { children[id] ?? [] }

    /// Its subtasks, theirs, and so on: each after its parent, siblings in the tasks' order.
    public func descendants(of id: UUID) -> [UUID] {
        var found: [UUID] = []
        var stack = Array(children(of: id).reversed())
        while let next = stack.popLast() {
            found.append(next)
            stack.append(contentsOf: children(of: next).reversed())
        }
        return found
    }

    /// How many parents it has above it: 0 for a top-level task.
    public func depth(of id: UUID) -> Int {
        var depth = 0
        var at = id
        while let parent = parents[at] {
            depth += 1
            at = parent
        }
        return depth
    }

    /// True when `task` put under `parent` would be its own ancestor (or its own parent).
    public func wouldCycle(_ task: UUID, under parent: UUID) -> Bool {
        var at: UUID? = parent
        while let id = at {
            if id == task { return true }
            at = parents[id]
        }
        return false
    }

    /// Positions into `tasks` (one section's, in display order) with each task's depth: every
    /// top-level task followed by its subtasks, depth first, siblings in the order of `tasks`, so
    /// that sorting moves a family whole. A subtask whose parent is not among `tasks` comes
    /// where it stands, as a top-level task.
    /// `familyOrder` of `tasks` when they lie in it already (each subtask after its parent's
    /// family so far, as HotTask places them): found with one pass and no hashing, comparing a
    /// subtask's parent with the few tasks above it; nil when they do not (then the tree is
    /// made). A parent always comes before, so no cycle can be among them.
    public static func orderIfInPlace(_ tasks: [TaskItem]) -> [(index: Int, depth: Int)]? {
        var order: [(index: Int, depth: Int)] = []
        order.reserveCapacity(tasks.count)
        var path: [UUID] = []  // the task above and its ancestors, the top-level one first
        for index in tasks.indices {
            guard let parent = tasks[index].parent else {
                path.removeAll(keepingCapacity: true)
                path.append(tasks[index].id)
                order.append((index, 0))
                continue
            }
            guard let at = path.lastIndex(of: parent) else { return nil }
            path.removeSubrange((at + 1)...)
            path.append(tasks[index].id)
            order.append((index, at + 1))
        }
        return order
    }

    public func familyOrder(of tasks: [TaskItem]) -> [(index: Int, depth: Int)] {
        guard !isFlat else { return tasks.indices.map { ($0, 0) } }
        // Where each parent is among `tasks`, then each one's subtasks here by offset, in the
        // order of `tasks`: hashing only parents and subtasks, each once (`--list` at 20,000
        // families).
        var offsetOf: [UUID: Int] = [:]
        offsetOf.reserveCapacity(children.count)
        for offset in tasks.indices where children[tasks[offset].id] != nil { offsetOf[tasks[offset].id] = offset }
        var kids = [[Int]](repeating: [], count: tasks.count)
        var isSubtaskHere = [Bool](repeating: false, count: tasks.count)
        for offset in tasks.indices {
            guard let parent = parents[tasks[offset].id], let at = offsetOf[parent] else { continue }
            kids[at].append(offset)
            isSubtaskHere[offset] = true
        }
        var order: [(index: Int, depth: Int)] = []
        order.reserveCapacity(tasks.count)
        var stack: [(at: Int, depth: Int)] = []
        for offset in tasks.indices where !isSubtaskHere[offset] {
            // A subtask comes with its parent, unless the parent is not here.
            order.append((offset, 0))
            // Siblings in the order of `tasks` (a sort sorts them), the last pushed first.
            for kid in kids[offset].reversed() { stack.append((kid, 1)) }
            while let (at, depth) = stack.popLast() {
                order.append((at, depth))
                for kid in kids[at].reversed() { stack.append((kid, depth + 1)) }
            }
        }
        return order
    }

    /// A subtask's parent as the store and the formats write it: the id in lowercase.
    static func text(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// Follows each relation up; a walk that comes back to itself is a cycle, cut at its
    /// lowest id (as text), which is then top-level.
    private mutating func breakCycles() {
        // Most walks reach a top-level task in a step or two: those need no bookkeeping. Only
        // when some walk is long (a deep family, or a cycle) is every walk followed with marks.
        let shortWalks = parents.keys.allSatisfy { start in
            var at = parents[start]
            var steps = 0
            while let id = at, steps < 64 {
                at = parents[id]
                steps += 1
            }
            return at == nil
        }
        if shortWalks { return }
        // 1: on the walk being followed, 2: known to reach a top-level task.
        var state: [UUID: UInt8] = [:]
        state.reserveCapacity(parents.count * 2)
        var broken: [UUID] = []
        for start in parents.keys {
            var path: [UUID] = []
            var at: UUID? = start
            while let id = at, state[id] == nil {
                state[id] = 1
                path.append(id)
                at = parents[id]
            }
            if let id = at, state[id] == 1, let from = path.firstIndex(of: id) {
                let lowest = path[from...].min { Self.text($0) < Self.text($1) } ?? id
                parents[lowest] = nil
                broken.append(lowest)
            }
            for id in path { state[id] = 2 }
        }
        brokenCycles = broken.sorted { Self.text($0) < Self.text($1) }
    }
}
