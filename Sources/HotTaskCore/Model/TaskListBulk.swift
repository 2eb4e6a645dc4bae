import FoundationEssentials
import Glibc

/// Many changes in one pass over the list (an import, a clear of 30,000 tasks, its undo): the
/// sections are changed in place and sorted once, never shifted change by change.
extension TaskList {
    /// Adds of tasks new to the list: each goes at the end of its section, and a section is
    /// sorted once if the adds did not all come after its last task (an import's do).
    mutating func addInBulk(_ changes: [TaskChange], clock: Clock, force: Bool = false) {
        // By index through the buffer: `for case .add(let task) in` copied each change out
        // before `admitting` copied its task (a retain each of every caption).
        changes.withUnsafeBufferPointer { changes in
            var priorityAdds = 0
            for index in changes.indices { if case .add(let task) = changes[index], task.section == .priority { priorityAdds += 1 } }
            priority.reserveCapacity(priority.count + priorityAdds)
            bonus.reserveCapacity(bonus.count + changes.count - priorityAdds)
        }
        let (priorityBefore, bonusBefore) = (priority.count, bonus.count)
        changes.withUnsafeBufferPointer { changes in
            for index in changes.indices {
                // One copy of each task, the list's own: `admitting` takes it.
                guard let task = changes[index].addedTask, let added = admitting(task, clock: clock, force: force) else { continue }
                if added.completed { completedCount += 1 }
                countList(added, 1)
                if added.section == .priority { priority.append(added) } else { bonus.append(added) }
            }
        }
        Self.mergeAppended(&priority, from: priorityBefore)
        Self.mergeAppended(&bonus, from: bonusBefore)
    }

    /// Puts tasks appended after `start` in display order among those before it (which are in
    /// it): the appended ones are sorted, then the two runs merged from the back, O(n + k log k)
    /// where a sort of the whole section took 100,000 comparisons of whole tasks more. Every
    /// task is moved bit for bit, never copied, and the tasks before `start` only ever move
    /// towards the end, in order (following a permutation's cycles instead, each move a cache
    /// miss, was a sixth of the undo of clearing 30,000).
    static func mergeAppended(_ tasks: inout [TaskItem], from start: Int) {
        guard start < tasks.count else { return }  // nothing appended: in order as it was
        guard start > 0 else { return sortIfNeeded(&tasks) }
        var tail = Array(start..<tasks.count)
        // By the keys' first bytes as numbers, the keys themselves only on a tie.
        let prefixes = tail.map { tasks[$0].order.prefix }
        tail.sort { prefixes[$0 - start] != prefixes[$1 - start] ? prefixes[$0 - start] < prefixes[$1 - start] : precedes(tasks[$0], tasks[$1]) }
        if precedes(tasks[start - 1], tasks[tail[0]]) {
            return tasks.rearrange(takingFrom: Array(0..<start) + tail)
        }
        tasks.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let appended = UnsafeMutablePointer<TaskItem>.allocate(capacity: tail.count)
            defer { appended.deallocate() }
            for (offset, index) in tail.enumerated() { (appended + offset).moveInitialize(from: base + index, count: 1) }
            // Slots `head..<write` are empty; each step fills the last with the later of the two
            // runs' last tasks (on a tie, the one that was there first goes first).
            var write = buffer.count
            var head = start
            var rest = tail.count
            while rest > 0 {
                write -= 1
                if head > 0, precedes(appended[rest - 1], base[head - 1]) {
                    head -= 1
                    (base + write).moveInitialize(from: base + head, count: 1)
                } else {
                    rest -= 1
                    (base + write).moveInitialize(from: appended + rest, count: 1)
                }
            }
        }
    }

    /// Any large batch: each change is applied to its task where it stands (found through the
    /// ids sorted), exactly as `apply` would one by one, and the sections are then tidied and
    /// sorted once. The sections are changed in place: rebuilding them held every task twice.
    mutating func applyInBulk(_ changes: [TaskChange], clock: Clock, force: Bool = false) {
        placeIndex = nil
        partialIndexNames = nil
        let positions = SortedIDs(self)  // display positions: Top Priority's, then Bonus's
        let inPriority = priority.count
        var live = [Bool](repeating: true, count: count)
        // Tasks this batch adds or brings back, numbered on after the list's, and by id.
        var brought: [TaskItem] = []
        var broughtLive: [Bool] = []
        var broughtAt: [UUID: Int] = [:]
        func find(_ id: UUID) -> Int? {
            if let position = positions.position(of: id), live[position] { return position }
            if let at = broughtAt[id], broughtLive[at] { return live.count + at }
            return nil
        }
        func task(at position: Int) -> TaskItem {
            position < inPriority ? priority[position] : position < live.count ? bonus[position - inPriority] : brought[position - live.count]
        }
        func replace(at position: Int, with task: TaskItem) {
            if position < inPriority {
                priority[position] = task
            } else if position < live.count {
                bonus[position - inPriority] = task
            } else {
                brought[position - live.count] = task
            }
        }
        func bring(_ task: TaskItem) {
            broughtAt[task.id] = brought.count
            brought.append(task)
            broughtLive.append(true)
        }
        for change in changes {
            switch change {
            case .add(let new):
                if let at = find(new.id) {
                    if let merged = Self.merging(TaskFields(allOf: new), into: task(at: at), clock: clock, force: force) {
                        replace(at: at, with: merged)
                    }
                    continue
                }
                if let added = admitting(new, clock: clock, force: force) { bring(added) }
            case .set(let id, let fields, _):
                if let at = find(id) {
                    if let merged = Self.merging(fields, into: task(at: at), clock: clock, force: force) { replace(at: at, with: merged) }
                    continue
                }
                // A change made after the task was deleted brings it back, changed.
                guard let tombstone = deleted[id], force || clock > tombstone.clock else { continue }
                deleted[id] = nil
                bring(Self.merging(fields, into: tombstone.task, clock: clock, force: true) ?? tombstone.task)
            case .delete(let gone):
                guard let at = find(gone.id) else {
                    laterDelete(of: gone.id, at: clock)
                    continue
                }
                guard force || clock >= task(at: at).latestClock else { continue }
                deleted[gone.id] = Tombstone(task: task(at: at), clock: clock)
                if at < live.count { live[at] = false } else { broughtLive[at - live.count] = false }
            }
        }
        // Each section keeps, in place, its live tasks that are still its own; the rest move.
        var moving: [TaskItem] = []
        func keepOwn(_ tasks: inout [TaskItem], _ section: Section, from offset: Int) {
            var kept = 0
            for index in tasks.indices where live[offset + index] {
                if tasks[index].section == section {
                    if kept != index { tasks.swapAt(kept, index) }
                    kept += 1
                } else {
                    moving.append(tasks[index])
                }
            }
            tasks.removeLast(tasks.count - kept)
        }
        keepOwn(&priority, .priority, from: 0)
        keepOwn(&bonus, .bonus, from: inPriority)
        for (at, task) in brought.enumerated() where broughtLive[at] { moving.append(task) }
        brought = []
        for task in moving {
            if task.section == .priority { priority.append(task) } else { bonus.append(task) }
        }
        completedCount = priority.reduce(0) { $0 + ($1.completed ? 1 : 0) } + bonus.reduce(0) { $0 + ($1.completed ? 1 : 0) }
        recountLists()
        Self.sortIfNeeded(&priority)
        Self.sortIfNeeded(&bonus)
    }

    /// Sorts into display order, if the tasks are not in it. Their positions are sorted and the
    /// tasks then moved once: sorting the tasks themselves took a scratch buffer of half of
    /// them (6 MB at 100,000 tasks).
    static func sortIfNeeded(_ tasks: inout [TaskItem]) {
        guard !isInOrder(tasks) else { return }
        var order = Array(tasks.indices)
        order.sort { precedes(tasks[$0], tasks[$1]) }
        tasks.rearrange(takingFrom: order)
    }

    /// By index: a pair of tasks copied out of the array (as `zip` gives them) cost a retain
    /// and release of each caption, 6 ms at 100,000 tasks.
    static func isInOrder(_ tasks: [TaskItem]) -> Bool {
        tasks.indices.dropFirst().allSatisfy { precedes(tasks[$0 - 1], tasks[$0]) }
    }

    /// True when every change adds a task whose id is neither in the list nor added twice.
    func addsOnlyNewTasks(_ changes: [TaskChange]) -> Bool {
        let added: IDTable? = changes.withUnsafeBufferPointer { changes in
            guard changes.indices.allSatisfy({ changes[$0].isAdd }) else { return nil }
            return IDTable(distinct: changes.count) { add in for index in changes.indices { add(changes[index].id) } }
        }
        guard let added else { return false }
        return !priority.indices.contains { added.contains(priority[$0].id) } && !bonus.indices.contains { added.contains(bonus[$0].id) }
    }

    /// Applies many changes, all stamped `clock`, in one pass over the list (as `applyAll` does
    /// a large batch) and without row edits: for a caller that shows the list again whole
    /// afterwards (the UI clearing 30,000 completed tasks, or bringing them back). One at a
    /// time, each change shifted an array of the whole list: 2 s at 100,000 tasks.
    ///
    /// Returns the rows removed when the changes only delete (each section's indices, before
    /// the change, ascending), so that a view can follow without sorting again; nil otherwise.
    @discardableResult
    /// `addsOnlyNewTasks`: known already (`StillApplicable` asks), so not asked again.
    public mutating func applyInOnePass(
        _ changes: [TaskChange], clock: Clock, force: Bool = false, addsOnlyNewTasks known: Bool = false
    ) -> RemovedRows? {
        if !known, changes.allSatisfy({ if case .delete = $0 { true } else { false } }) {
            return deleteInBulk(changes, clock: clock, force: force)
        } else if known || addsOnlyNewTasks(changes) {
            placeIndex = nil
            partialIndexNames = nil
            addInBulk(changes, clock: clock, force: force)
        } else {
            applyInBulk(changes, clock: clock, force: force)
        }
        return nil
    }

    /// Stamps `clock` on changes this list took already (forced, when a key made them) once the
    /// store has saved them under it, when that changes no value but the fields' clocks: what
    /// applying them again would do, without re-sorting the list or showing it again (the UI
    /// did that for 30,000 tasks after each save of a clear's undo). Returns false, changing
    /// nothing, when a task no longer holds what its change made (another program's change came
    /// between) or for sets: the caller then applies them the ordinary way.
    public mutating func restamp(_ changes: [TaskChange], clock: Clock) -> Bool {
        guard !changes.contains(where: { if case .set = $0 { true } else { false } }) else { return false }
        // A table of positions: an id twice in the list (never written so, but read from files)
        // would shift every later position, so then the ordinary way.
        var positions = IDTable(count: count)
        for task in priority where !positions.insert(task.id) { return false }
        for task in bonus where !positions.insert(task.id) { return false }
        var stamped: [(position: Int, task: TaskItem)] = []
        var deletedAgain: [UUID] = []
        for change in changes {
            switch change {
            case .add(let new):
                guard let position = positions.index(of: new.id) else { return false }
                let current = self[position]
                guard let merged = Self.merging(TaskFields(allOf: new), into: current, clock: clock, force: false) else { continue }
                guard merged.withoutClocks == current.withoutClocks else { return false }
                stamped.append((position, merged))
            case .delete(let gone):
                // Gone, as the delete left it: applying it again stamps its tombstone alone.
                if positions.contains(gone.id) { return false }
                deletedAgain.append(gone.id)
            case .set:
                return false
            }
        }
        for (position, task) in stamped {
            if position < priority.count { priority[position] = task } else { bonus[position - priority.count] = task }
        }
        for id in deletedAgain { laterDelete(of: id, at: clock) }
        return true
    }

    /// Deletes alone: one sweep of each section, the named tasks found in a table of their ids.
    mutating func deleteInBulk(_ changes: [TaskChange], clock: Clock, force: Bool) -> RemovedRows {
        var named = IDTable(count: changes.count)
        // Through the buffer, here and in the sweep: an array's element read out for `id` or
        // a stamp was copied (a retain of each task's caption, a cache miss each), and
        // `swapAt` on the array copied both tasks (a fifth of clearing 30,000).
        changes.withUnsafeBufferPointer { changes in
            for index in changes.indices { named.insert(changes[index].id) }
        }
        var tombstones: [Tombstone] = []
        // Each sweep gives its own indices: appending through `RemovedRows`' subscript would copy
        // the array on every append.
        // The tasks that go are swapped to the end and then moved out into their tombstones.
        func sweep(_ tasks: inout [TaskItem]) -> [Int] {
            var gone: [Int] = []
            var kept = 0
            tasks.withUnsafeMutableBufferPointer { tasks in
                for index in tasks.indices {
                    if named.contains(tasks[index].id), force || clock >= tasks[index].latestClock {
                        gone.append(index)
                        continue
                    }
                    if kept != index { tasks.swapAt(kept, index) }
                    kept += 1
                }
            }
            tombstones.reserveCapacity(tombstones.count + tasks.count - kept)
            while tasks.count > kept { tombstones.append(Tombstone(task: tasks.removeLast(), clock: clock)) }
            return gone
        }
        var removed = RemovedRows()
        removed.priority = sweep(&priority)
        removed.bonus = sweep(&bonus)
        deleted.reserveCapacity(deleted.count + tombstones.count)
        let swept = tombstones.count
        while let tombstone = tombstones.popLast() {
            if tombstone.task.completed { completedCount -= 1 }
            countList(tombstone.task, -1)
            let id = tombstone.task.id
            deleted[id] = consume tombstone
        }
        // Some were gone already: theirs take this stamp if it is later.
        if swept < changes.count {
            for change in changes { laterDelete(of: change.id, at: clock) }
        }
        placeIndex = nil
        partialIndexNames = nil
        return removed
    }
}
