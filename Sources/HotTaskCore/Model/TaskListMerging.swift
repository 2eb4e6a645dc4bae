import FoundationEssentials
import Glibc

/// The merge rules: a change applied by its stamps, field by field (the later stamp wins), to
/// one task or a run of them.
extension TaskList {
    /// Applies one change stamped `clock` and says how rows moved.
    ///
    /// Field by field, the later stamp wins: a change older than a field's stamp leaves that
    /// field alone, so two changes to different fields of one task both hold whatever order
    /// they arrive in. A delete older than a change to the task is ignored; a change newer
    /// than a delete brings the task back. `force` applies the change whatever the stamps
    /// (the UI's own change, shown before the store has stamped it).
    @discardableResult
    public mutating func apply(_ change: TaskChange, clock: Clock, force: Bool = false) -> [ListEdit] {
        buildPlaceIndex()
        return applyFound(change, clock: clock, force: force)
    }

    /// `apply`, finding the task through the id index when there is one, else by a scan (a
    /// few changes: the index of 100,000 tasks takes 10 MB and longer to build than a scan).
    mutating func applyFound(_ change: TaskChange, clock: Clock, force: Bool) -> [ListEdit] {
        let wins = { (fieldClock: Clock) in force || clock >= fieldClock }
        switch change {
        case .add(let task):
            if let (section, index) = locate(task.id) {
                return set(TaskFields(allOf: task), on: tasks(in: section)[index], at: index, clock: clock, force: force)
            }
            return addNew(task, clock: clock, force: force).map { [$0] } ?? []
        case .set(let id, let fields, _):
            if let (section, index) = locate(id) {
                return set(fields, on: tasks(in: section)[index], at: index, clock: clock, force: force)
            }
            // A change made after the task was deleted brings it back, changed.
            guard let tombstone = deleted[id], force || clock > tombstone.clock else { return [] }
            deleted[id] = nil
            let inserted = insert(tombstone.task)
            return [inserted] + set(fields, on: tombstone.task, at: inserted.index, clock: clock, force: true)
        case .delete(let task):
            guard let (section, index) = locate(task.id) else {
                laterDelete(of: task.id, at: clock)
                return []
            }
            let current = tasks(in: section)[index]
            guard wins(current.latestClock) else { return [] }
            deleted[task.id] = Tombstone(task: current, clock: clock)
            return [remove(section, at: index)]
        }
    }

    /// Adds a task whose id is not in the list, unless a later delete of it wins.
    @discardableResult
    mutating func addNew(_ task: TaskItem, clock: Clock, force: Bool) -> ListEdit? {
        admitting(task, clock: clock, force: force).map { insert($0) }
    }

    /// `task` as an add stamped `clock` puts it in the list (its tombstone gone), or nil when a
    /// later delete of it wins.
    mutating func admitting(_ task: consuming TaskItem, clock: Clock, force: Bool) -> TaskItem? {
        // One lookup of the tombstones, not two (a hash each, 30,000 of them in the undo of a clear).
        if let tombstone = deleted.removeValue(forKey: task.id), !force, clock <= tombstone.clock {
            deleted[task.id] = tombstone  // the delete is the later: it stands
            return nil
        }
        var added = task
        added.clocks = FieldClocks(clock)
        return added
    }

    /// A delete of a task deleted already: its tombstone takes the later stamp, so that a change
    /// made between the two deletes does not bring the task back. (The UI's own deletes are
    /// stamped zero until the store gives them their stamp; a set another program committed
    /// before them brought the task back on screen, though the store kept it deleted.)
    mutating func laterDelete(of id: UUID, at clock: Clock) {
        if let tombstone = deleted[id], tombstone.clock < clock { deleted[id]?.clock = clock }
    }

    mutating func set(_ fields: TaskFields, on old: TaskItem, at index: Int, clock: Clock, force: Bool) -> [ListEdit] {
        guard let new = Self.merging(fields, into: old, clock: clock, force: force) else { return [] }
        return replace(old, at: index, with: new)
    }

    /// `old` with the fields whose stamps `clock` wins, or nil when that changes nothing.
    static func merging(_ fields: TaskFields, into old: TaskItem, clock: Clock, force: Bool) -> TaskItem? {
        var new = old
        for field in TaskField.allCases {
            guard let value = fields[field], force || clock >= old.clocks[field] else { continue }
            field.set(value, on: &new, completedAt: fields.completedAt, now: clock.date)
            new.clocks[field] = clock
        }
        guard new != old else { return nil }
        if new.withoutClocks != old.withoutClocks { new.modifiedAt = max(old.modifiedAt, clock.date) }
        return new
    }

    /// `apply(_:clock:)` for a caller that has no use for the row edits (a commit, a replay of
    /// the log): no array of edits, each holding a copy of its task, is built only to be dropped.
    mutating func applyAll(_ changes: [TaskChange], clock: Clock) {
        // A large batch (an import, a --replace, the undo of one) is applied in bulk: one change
        // at a time, every move shifts a section's array (a --replace of 100,000 tasks whose
        // keys all moved took 25 s).
        guard changes.count < Self.bulkBatch else {
            // Tasks all new to the list need no lookup at all (the id index of 100,000 took 10 MB).
            if placeIndex == nil, addsOnlyNewTasks(changes) {
                addInBulk(changes, clock: clock)
            } else {
                applyInBulk(changes, clock: clock)
            }
            return
        }
        withTasksIndexed(namedIn: changes) { list in
            for change in changes { _ = list.applyFound(change, clock: clock, force: false) }
        }
    }

    /// Applies records in turn, each stamped with its clock (a replay of the log). The tasks a
    /// run of them names are found through one index of those tasks; a bulk record finds its own.
    mutating func applyAll(records: [(changes: [TaskChange], clock: Clock)]) {
        var start = 0
        while start < records.count {
            guard records[start].changes.count < Self.bulkBatch else {
                applyAll(records[start].changes, clock: records[start].clock)
                start += 1
                continue
            }
            var end = start
            while end < records.count, records[end].changes.count < Self.bulkBatch { end += 1 }
            let run = records[start..<end]
            withTasksIndexed(namedIn: run.flatMap(\.changes)) { list in
                for record in run { list.applyAll(record.changes, clock: record.clock) }
            }
            start = end
        }
    }

    /// Runs `body` with the tasks `changes` name found through an id index of those tasks
    /// alone, made in one pass over the list; the index of every task took 10 MB and 25 ms at
    /// 100,000 tasks, which every start with a log paid. Any other task is still found, by a
    /// scan. The index is dropped afterwards. A list with the full index, or a few changes
    /// (found by a scan each), needs none.
    mutating func withTasksIndexed(namedIn changes: [TaskChange], _ body: (inout TaskList) -> Void) {
        guard placeIndex == nil, changes.count > Self.changesFoundByScan else { return body(&self) }
        var named = IDTable(count: changes.count)
        for change in changes { named.insert(change.id) }
        placeIndex = places(room: named.count) { named.contains($0) }
        partialIndexNames = named
        body(&self)
        if partialIndexNames != nil {
            placeIndex = nil
            partialIndexNames = nil
        }
    }

    /// Up to this many changes find their tasks by scanning the list rather than through an id
    /// index built for them.
    static let changesFoundByScan = 16
    /// From this many changes on, `applyAll` applies them in bulk (and needs no id index).
    static let bulkBatch = 1024

    /// Applies changes in turn, all stamped `clock`.
    @discardableResult
    mutating func apply(_ changes: [TaskChange], clock: Clock, force: Bool = false) -> [ListEdit] {
        changes.flatMap { apply($0, clock: clock, force: force) }
    }
}
