import Foundation

/// Writing the store: a change read, decided and committed as one record under the lock, and
/// the quick way of an add that reads only the snapshot's header and the log.
extension TaskStore {
    /// What a commit did.
    struct Commit: Sendable {
        /// The stamp the changes got.
        var clock: Clock
        /// The list with them.
        var list: TaskList
        /// The record written (nil when there was nothing to change).
        var record: LogRecord?
    }

    /// Reads under the lock, lets `plan` decide the changes from the list as it is, and commits
    /// them as one record. `plan` returns the changes, what to call them, what they undo, and a
    /// result for the caller; errors it throws leave the store untouched.
    @discardableResult
    func update<Result>(
        now: @autoclosure () -> Date = Date(),
        _ plan: (State) throws -> (changes: [TaskChange], what: String, undoes: Clock?, result: Result)
    ) throws -> Result {
        try withLock {
            let state = try read()
            let planned = try plan(state)
            // The plan's changes were made on this very state: their `was` values are right.
            try commitLocked(planned.changes, what: planned.what, undoes: planned.undoes, on: consume state, now: now(), wasIsCurrent: true)
            return planned.result
        }
    }

    /// Commits changes made without reading first (their `was` values are taken from the store).
    @discardableResult
    func commit(_ changes: [TaskChange], what: String, undoes: Clock? = nil, now: Date = Date()) throws(StoreError) -> Commit {
        try withLockOrStoreError { () throws(StoreError) in
            try commitLocked(changes, what: what, undoes: undoes, on: try read(), now: now)
        }
    }

    /// Commits on a state read under the lock: an append of one record, or a compaction that
    /// holds the changes when the log needs folding. The state's list is taken and changed in
    /// place (at 100,000 tasks a copy was 14 MB); `wasIsCurrent` says the changes were made on
    /// this state, so the values they replace need not be looked up again.
    @discardableResult
    func commitLocked(
        _ changes: [TaskChange], what: String, undoes: Clock?, on state: consuming State, now: Date, wasIsCurrent: Bool = false
    ) throws(StoreError) -> Commit {
        var list = state.list
        state.list = TaskList()
        // Only sets carry `was` values: a batch of adds (an import) is not copied.
        let hasSets = changes.contains { if case .set = $0 { true } else { false } }
        guard !changes.isEmpty else { return Commit(clock: state.clock, list: list, record: nil) }
        let clock = Clock.next(after: state.clock, now: now)
        var changes = changes
        if hasSets && !wasIsCurrent {
            list.withTasksIndexed(namedIn: changes) { list in
                // The values a change replaces are the store's, whatever the caller last saw.
                changes = changes.map { change -> TaskChange in
                    guard case .set(let id, let fields, _) = change, let task = list.task(withID: id) else { return change }
                    return .set(id, fields, was: fields.values(in: task))
                }
                list.applyAll(changes, clock: clock)
            }
        } else {
            list.applyAll(changes, clock: clock)
        }
        let generation = state.header?.generation ?? Generation.random()
        let record = LogRecord(generation: generation, clock: clock, what: what, undoes: undoes, changes: changes)
        if !state.needsCompaction, case .committed(let numbered) = try appendRecord(record, after: state.history, countAfter: list.count) {
            return Commit(clock: clock, list: list, record: numbered)
        }
        try ensureRoom(for: list.count)
        try compactLocked(list, clock: clock, state: state, history: state.history + [record])
        return Commit(clock: clock, list: list, record: record)
    }

    /// Adds tasks on top of their sections, the first one topmost. While the snapshot is the one
    /// the log was started for, only its header is read (and the log): the cost does not grow
    /// with the list. Otherwise it is an ordinary commit, which it returns; nil means the quick
    /// way was taken (only ever on a log with no damaged line).
    @discardableResult
    func addOnTop(_ tasks: [TaskItem], what: String, now: Date = Date()) throws(StoreError) -> Commit? {
        try withLockOrStoreError { () throws(StoreError) -> Commit? in
            if let quick = try quickState() {
                var keys: [Section: [OrderKey]] = [:]
                for section in Section.allCases {
                    let count = tasks.filter { $0.section == section }.count
                    keys[section] = OrderKey.sequence(count, before: quick.top[section] ?? nil)
                }
                var changes: [TaskChange] = []
                for task in tasks {
                    var task = task
                    task.order = keys[task.section]!.removeFirst()
                    changes.append(.add(task))
                }
                let clock = Clock.next(after: quick.clock, now: now)
                let record = LogRecord(generation: quick.generation, clock: clock, what: what, changes: changes)
                if case .committed = try appendRecord(record, after: quick.records, countAfter: quick.count + tasks.count) { return nil }
            }
            let state = try read()
            var list = state.list
            let changes = tasks.reversed().map { task -> TaskChange in
                let change = list.adding(onTop: task)
                list.apply(change, clock: .zero, force: true)
                return change
            }
            return try commitLocked(changes.reversed(), what: what, undoes: nil, on: state, now: now)
        }
    }

    /// What an add needs, read from the snapshot's header and the log alone; nil when they
    /// cannot be trusted alone (no log for this snapshot, a long or damaged log, a snapshot
    /// changed since the log began).
    struct QuickState {
        var generation: Generation
        var clock: Clock
        var count: Int
        var top: [Section: OrderKey?]
        /// The log's records for this snapshot, in order.
        var records: [LogRecord]
        /// The snapshot's size and its own task count (before the log's records).
        var snapshotSize: Int
        var snapshotCount: Int
    }

    func quickState() throws(StoreError) -> QuickState? {
        guard let stamp = FileSystem.stamp(of: path), let contents = try readLog(), let logHeader = contents.header,
            logHeader.snapshot == stamp, contents.damaged.isEmpty, contents.missing.isEmpty, contents.byteCount < Self.logByteLimit,
            let header = SnapshotHeaderReader.read(path), header.generation == logHeader.generation, header.folds != nil
        else { return nil }
        var clock = header.clock
        var count = header.count
        var top: [Section: OrderKey?] = [.priority: header.top[.priority], .bonus: header.top[.bonus]]
        var replayed = 0
        for record in contents.records {
            clock = max(clock, record.clock)
            guard record.generation == header.generation else { continue }
            replayed += 1
            for change in record.changes {
                // Any key a record gives is a bound the new top must stay below.
                switch change {
                case .add(let task):
                    count += 1
                    top[task.section] = lower(top[task.section] ?? nil, task.order)
                case .delete: count -= 1
                case .set(_, let fields, _):
                    if let order = fields.order {
                        for section in Section.allCases { top[section] = lower(top[section] ?? nil, order) }
                    }
                }
            }
        }
        guard replayed < Self.logLimit else { return nil }
        return QuickState(
            generation: header.generation, clock: clock, count: count, top: top,
            records: contents.records.filter { $0.generation == header.generation }, snapshotSize: Int(stamp.size),
            snapshotCount: header.count)
    }

    func lower(_ key: OrderKey?, _ other: OrderKey) -> OrderKey {
        key.map { min($0, other) } ?? other
    }
}
