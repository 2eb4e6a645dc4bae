import FoundationEssentials
import Glibc

extension TaskStore {
    /// Runs `body` holding the store's lock, with a transaction that has read what `plan` asks
    /// for. Every writer's way in: the UI's session, the command line's changes, import, sync,
    /// undo, recover and compaction. A body that throws commits nothing more.
    @discardableResult
    func transaction<Result>(
        _ plan: ReadPlan, wait: TimeInterval = TaskStore.lockWait, _ body: (StoreTransaction) throws -> Result
    ) throws -> Result {
        try withLock(wait: wait) {
            let txn = StoreTransaction(store: self, policy: .command)
            try txn.read(plan)
            return try body(txn)
        }
    }

    /// `transaction` with every error as a `StoreError`, for bodies that throw nothing else.
    /// `policy`: how large a record the log takes, and when a commit folds it (`CommitPolicy`).
    @discardableResult
    func storeTransaction<Result>(
        _ plan: ReadPlan, policy: CommitPolicy = .command, wait: TimeInterval = TaskStore.lockWait,
        _ body: (StoreTransaction) throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
        try withLockOrStoreError(wait: wait) { () throws(StoreError) -> Result in
            let txn = StoreTransaction(store: self, policy: policy)
            try txn.read(plan)
            return try body(txn)
        }
    }
}

/// One transaction on the store (TaskChampion's `StorageTxn`): the reads a writer makes under
/// the lock, and `commit`, the one place where changes are stamped, their record is built and
/// numbered, the limits are checked, and the record is appended to the log and fsynced, or
/// folded into a new snapshot when it is too large for the log or the log needs folding.
final class StoreTransaction {
    let store: TaskStore
    let policy: CommitPolicy

    /// What the header and the log say without the snapshot's tasks. Outer nil: not read yet;
    /// inner nil: they cannot be trusted alone.
    private var logRead: LogView??
    private var wholeRead: TaskStore.State?

    init(store: TaskStore, policy: CommitPolicy) {
        self.store = store
        self.policy = policy
    }

    func read(_ plan: ReadPlan) throws(StoreError) {
        switch plan {
        case .header, .ids: _ = try log()
        case .everything: _ = try whole()
        case .nothing, .sinceLastLook: break
        }
    }

    // MARK: Reading

    /// The header and the log, when they can be trusted alone (the snapshot is the one the log
    /// was started for, the log is whole and short); nil otherwise.
    func log() throws(StoreError) -> LogView? {
        if let logRead { return logRead }
        let view = try store.logView()
        logRead = .some(view)
        return view
    }

    /// Uses `view` as the log's view: the UI's session knows which records it has seen.
    func follow(_ view: consuming LogView) {
        logRead = .some(view)
    }

    /// The log's view as this transaction leaves it, its own appends included; nil when it read
    /// the whole store instead, or its commit started a new snapshot.
    var followedLog: LogView? {
        guard wholeRead == nil, case .some(.some(let view)) = logRead else { return nil }
        return view
    }

    /// The whole store, read once per transaction (again after a compaction).
    @discardableResult
    func whole() throws(StoreError) -> TaskStore.State {
        if let wholeRead { return wholeRead }
        let state = try store.read()
        wholeRead = state
        return state
    }

    /// The tasks the handles name, by id alone; nil when the store cannot be read this way
    /// (then `whole` answers). Throws `PointLookupRefusal` for a handle that names no one task.
    /// `withFamily`: with every subtask in the store and the named tasks' parents.
    func lookup(_ handles: [String], withFamily: Bool = false) throws -> PointLookup? {
        guard wholeRead == nil, !handles.isEmpty, handles.allSatisfy(PointLookup.isIDHandle), let view = try log() else { return nil }
        return try store.pointLookup(handles, view: view, withFamily: withFamily)
    }

    /// A key each section's tasks all come after, the same whichever way the store was read
    /// (see `TopBounds`); nil for a store without a header (then the list's first keys).
    func topBounds() throws(StoreError) -> TopBounds? {
        if wholeRead == nil, let view = try log() { return view.top }
        return try whole().topBounds
    }

    /// `tasks` as adds on top of their sections, the first one topmost: the same keys whichever
    /// way the store was read.
    func addingOnTop(_ tasks: [TaskItem]) throws(StoreError) -> [TaskChange] {
        let bounds = try topBounds()
        var keys: [Section: [OrderKey]] = [:]
        for section in Section.allCases {
            let count = tasks.filter { $0.section == section }.count
            guard count > 0 else { continue }
            let first = bounds == nil ? try whole().list.tasks(in: section).first?.order : nil
            keys[section] = OrderKey.sequence(count, before: bounds?[section] ?? first)
        }
        return tasks.map { task in
            var task = task
            task.order = keys[task.section]?.removeFirst() ?? task.order
            return .add(task)
        }
    }

    // MARK: Committing

    /// Stamps `changes` (and the sync state that goes with them), checks the limits, and
    /// commits them as one record: appended to the log and fsynced, or folded into a new
    /// snapshot. `wasIsCurrent`: the changes were planned on this transaction's reads, so the
    /// values they replace need not be looked up again; read from the log alone, the values
    /// given are kept (the UI's session takes them from the records it had not seen,
    /// `replacingWas`). `countAfter`: the tasks the store holds
    /// with them, when the caller knows better than the log (the UI's session). `exchange`: the
    /// token of an import's side files written ahead, which this commit puts in place
    /// (`ExchangeFiles`).
    @discardableResult
    func commit(
        _ changes: consuming [TaskChange], what: String, undoes: Clock? = nil, sync: SyncDelta? = nil, lists: ListNamesChange? = nil,
        exchange: Generation? = nil, now: Date = Date(), wasIsCurrent: Bool = true, countAfter: Int? = nil
    ) throws(StoreError) -> Committed {
        guard !changes.isEmpty || sync != nil || lists != nil || exchange != nil else {
            return Committed(clock: try latestClock(), record: nil, list: wholeRead?.list)
        }
        if let sync {
            return try commitCarrying(
                sync, changes, what: what, undoes: undoes, lists: lists, now: now, wasIsCurrent: wasIsCurrent, countAfter: countAfter)
        }
        let committed = try commitRecord(
            changes, what: what, undoes: undoes, sync: nil, lists: lists, exchange: exchange, now: now, wasIsCurrent: wasIsCurrent,
            countAfter: countAfter, recordLimit: policy.recordInLog)
        if let exchange { store.adoptExchange(exchange) }
        return committed
    }

    /// `commit`'s one record: appended to the log when it is at most `recordLimit` bytes and
    /// the log is not due to be folded, else folded with the log into a new snapshot.
    private func commitRecord(
        _ changes: consuming [TaskChange], what: String, undoes: Clock?, sync: SyncDelta?, lists: ListNamesChange?,
        exchange: Generation? = nil, now: Date, wasIsCurrent: Bool, countAfter: Int?, recordLimit: Int
    ) throws(StoreError) -> Committed {
        try store.requireWritableFolder()
        if wholeRead == nil, var view = try log() {
            let clock = Clock.next(after: view.clock, now: now)
            var record = LogRecord(
                generation: view.generation, clock: clock, what: what, undoes: undoes, changes: copy changes, by: TaskStore.origin, sync: sync)
            record.lists = lists
            record.exchange = exchange
            let count = countAfter ?? view.count + changes.netTaskCount
            try checkLimits(changes, countBefore: view.count, countAfter: count, storeBytes: view.snapshotSize + view.logBytes)
            let folds = policy.foldLogPastBytes.map { view.logBytes >= $0 } ?? false
            if !folds, let (numbered, lineBytes) = try append(record, after: view.records, limit: recordLimit) {
                logRead = nil  // dropped first: the view is extended in place, not copied per commit
                view.include(numbered, count: count, lineBytes: lineBytes)
                logRead = .some(view)
                return Committed(clock: clock, record: numbered)
            }
            // Too large for the log, or the log is due to be folded: on with the whole store.
        }
        var state = try whole()
        wholeRead = nil  // taken: the list is changed in place (at 100,000 tasks a copy is 14 MB)
        let clock = Clock.next(after: state.clock, now: now)
        var list = state.list
        state.list = TaskList()
        let countBefore = list.count
        // Only sets carry `was` values: a batch of adds (an import) is not copied.
        let hasSets = changes.contains { if case .set = $0 { true } else { false } }
        let growth: Int
        // What a large batch adds to the history, for a record too large to keep its changes.
        var bulkActivity: ActivityHistory?
        if hasSets && !wasIsCurrent {
            list.withTasksIndexed(namedIn: changes) { list in
                // The values a change replaces are the store's, whatever the caller last saw.
                changes = changes.map { change -> TaskChange in
                    guard case .set(let id, let fields, _) = change, let task = list.task(withID: id) else { return change }
                    return .set(id, fields, was: fields.values(in: task))
                }
                list.applyAll(changes, clock: clock)
            }
            growth = TaskChange.growth(of: changes)
        } else {
            // A large batch's measure for the limits, and what it adds to the history, are
            // taken on a second core while it is applied (a fortieth and a twentieth of an
            // import of 100,000 tasks, on the one busy core).
            let measure =
                changes.count >= TaskList.bulkBatch
                ? MadeOnOwnThread { [changes] in
                    var activity = ActivityHistory()
                    activity.count(changes, what: what, undoes: undoes, committed: clock)
                    return (growth: TaskChange.growth(of: changes), activity: activity)
                } : nil
            list.applyAll(changes, clock: clock)
            growth = measure?.value.growth ?? TaskChange.growth(of: changes)
            bulkActivity = measure?.value.activity
        }
        if let lists { list.lists = lists.after }
        let generation = state.header?.generation ?? Generation.random()
        var record = LogRecord(
            generation: generation, clock: clock, what: what, undoes: undoes, changes: copy changes, by: TaskStore.origin, sync: sync)
        record.lists = lists
        record.exchange = exchange
        try checkLimits(
            growth: growth, countBefore: countBefore, countAfter: list.count,
            storeBytes: Int(state.snapshotStamp?.size ?? 0) + Int(state.logStamp?.size ?? 0))
        let folds = policy.foldLogPastBytes.map { Int(state.logStamp?.size ?? 0) >= $0 } ?? false
        if !state.needsCompaction, !folds, let (numbered, _) = try append(record, after: state.history, limit: recordLimit) {
            state.list = list
            state.clock = clock
            state.history.append(numbered)
            state.activity.count(numbered)
            state.replayed += 1
            if let sync { state.pendingSync.append(sync) }
            wholeRead = state
            logRead = nil
            return Committed(clock: clock, record: numbered, list: list)
        }
        // A record too large to keep for undo (a big import) lets its changes go before the
        // snapshot is written: at 100,000 tasks they are 15 MB on top of the list.
        if TaskStore.certainlyLarger(record, than: TaskStore.historyRecordLimit) {
            record.letChangesGo(counted: bulkActivity)
            changes = []
        }
        try writeSnapshot(
            list, clock: clock, state: state, history: state.history + [record], sync: state.pendingSync + [sync].compactMap { $0 },
            exchange: exchange)
        return Committed(clock: clock, record: record, list: list, compacted: true)
    }

    /// Commits a record that carries sync state. Such a record is never folded into a snapshot as
    /// it is committed: compaction writes the sync state it folds into `tasks.json.sync` before
    /// the snapshot that commits it is renamed into place, so a crash between the two would
    /// leave a base that agrees on changes the store never got. A log due to be folded is folded
    /// first (what it holds is committed already), and the record is appended to the new one,
    /// up to the UI's record size; a larger one (a first sync pulling thousands of tasks) commits
    /// its changes alone first, then its sync state in records that fit: a crash between them
    /// leaves tasks the next sync finds the same on both sides, and agrees on again.
    private func commitCarrying(
        _ sync: SyncDelta, _ changes: consuming [TaskChange], what: String, undoes: Clock?, lists: ListNamesChange?, now: Date,
        wasIsCurrent: Bool, countAfter: Int?
    ) throws(StoreError) -> Committed {
        let limit = max(policy.recordInLog, StoreLimits.uiRecordInLog)
        // Sync state alone that surely fits (a group of acknowledgements) is not encoded only to be measured.
        let record = LogRecord(generation: Generation.random(), clock: .zero, what: what, changes: copy changes, sync: sync)
        let size = changes.isEmpty && lists == nil && sync.surelyFits(what: what, in: limit) ? 0 : ChangeLog.encode(record).count
        if size <= limit {
            try foldIfDue()
            return try appended(
                try commitRecord(
                    changes, what: what, undoes: undoes, sync: sync, lists: lists, now: now, wasIsCurrent: wasIsCurrent, countAfter: countAfter,
                    recordLimit: limit))
        }
        let first = try commitRecord(
            changes, what: what, undoes: undoes, sync: nil, lists: lists, now: now, wasIsCurrent: wasIsCurrent, countAfter: countAfter,
            recordLimit: limit)
        for piece in sync.pieces(ofAtMost: limit / 2) {
            try foldIfDue()
            _ = try appended(
                try commitRecord(
                    [], what: what, undoes: nil, sync: piece, lists: nil, now: now, wasIsCurrent: true, countAfter: nil, recordLimit: limit))
        }
        return first
    }

    /// A record that carries sync state went to the log, or nothing is committed past it.
    private func appended(_ committed: Committed) throws(StoreError) -> Committed {
        guard !committed.compacted else {
            throw StoreError(path: store.path, problem: .unwritable("a sync's record was folded into a snapshot as it was committed"))
        }
        return committed
    }

    /// Folds the log first when the next record could not be appended to it.
    private func foldIfDue() throws(StoreError) {
        if wholeRead == nil, try log() != nil { return }
        if try whole().needsCompaction { try fold() }
    }

    /// Folds the log into a new snapshot now, if it has anything to fold or needs it.
    func fold() throws(StoreError) {
        try store.requireWritableFolder()
        let state = try whole()
        guard state.replayed > 0 || state.needsCompaction else { return }
        try writeSnapshot(state.list, clock: state.clock, state: state, history: state.history, sync: state.pendingSync)
    }

    /// The one place a transaction ends in a new snapshot (`compactLocked`): a commit too large
    /// for the log or due to fold it, a fold, a replacement, a recovery. The files are new, so
    /// a later read in this transaction reads them again.
    /// `exchange`: an import's side files the new snapshot commits (its generation is the token).
    func writeSnapshot(
        _ list: TaskList, clock: Clock, state: TaskStore.State, history: [LogRecord], sync: [SyncDelta], exchange: Generation? = nil
    ) throws(StoreError) {
        wholeRead = nil
        logRead = nil
        try store.compactLocked(list, clock: clock, state: state, history: history, sync: sync, exchange: exchange)
    }

    private func latestClock() throws(StoreError) -> Clock {
        if let wholeRead { return wholeRead.clock }
        if let view = try log() { return view.clock }
        return try whole().clock
    }

    /// Appends `record` as the next record of its generation; nil (nothing written) when it is
    /// larger than `limit`.
    private func append(_ record: LogRecord, after logRecords: [LogRecord], limit: Int) throws(StoreError) -> (LogRecord, lineBytes: Int)? {
        // A record that is certainly large (a big import) is not encoded only to be measured.
        if TaskStore.certainlyLarger(record, than: limit) { return nil }
        var numbered = record
        numbered.sequence = ChangeLog.nextSequence(after: logRecords, generation: record.generation)
        let line = ChangeLog.encode(numbered)
        guard line.count <= limit else { return nil }
        store.removeCrashDebris()
        try store.withFileErrors { () throws(FileSystem.Failure) in try store.log.append(line) }
        return (numbered, line.count)
    }

    /// Refuses changes that would grow the store past a limit (`StoreLimits`): more tasks than
    /// a store holds, or a snapshot larger than a reader takes. Changes that do not grow it
    /// are always taken, so that a full store can be emptied.
    func checkLimits(_ changes: [TaskChange], countBefore: Int, countAfter: Int, storeBytes: Int) throws(StoreError) {
        try checkLimits(growth: TaskChange.growth(of: changes), countBefore: countBefore, countAfter: countAfter, storeBytes: storeBytes)
    }

    /// `growth`: the changes' `TaskChange.growth(of:)`.
    func checkLimits(growth: Int, countBefore: Int, countAfter: Int, storeBytes: Int) throws(StoreError) {
        if countAfter > StoreLimits.tasks && countAfter > countBefore {
            throw StoreError(
                path: store.path,
                problem: .unwritable(
                    "the list would hold \(countAfter) tasks; HotTask keeps at most \(StoreLimits.tasks) (delete or clear tasks to make room)"))
        }
        guard growth > 0, storeBytes + growth > StoreLimits.snapshotBytes else { return }
        throw StoreError(
            path: store.path,
            problem: .unwritable(
                "the store would grow to about \((storeBytes + growth) >> 20) MB; HotTask keeps at most \(StoreLimits.snapshotBytes >> 20) MB (delete or clear tasks to make room)"
            ))
    }
}

extension TaskChange {
    /// About how many bytes `changes` add to the snapshot.
    static func growth(of changes: [TaskChange]) -> Int {
        changes.reduce(0) { $0 + $1.storeGrowth }
    }

    /// About how many bytes this change adds to the snapshot (0 for one that does not grow it).
    var storeGrowth: Int {
        switch self {
        case .add(let task): Self.writtenBytes(task.caption) + 2 * task.note.utf8.count + Self.bytes(task.tags) + 400
        case .delete: 0
        case .set(_, let fields, let was):
            max(
                0,
                (fields.caption.map(Self.writtenBytes) ?? 0) - (was.caption.map(Self.writtenBytes) ?? 0) + 2 * (fields.note?.utf8.count ?? 0)
                    - 2 * (was.note?.utf8.count ?? 0) + Self.bytes(fields.tags ?? []) - Self.bytes(was.tags ?? []))
        }
    }

    /// A caption's bytes as the snapshot writes it: a quote, a backslash, a tab or a line break
    /// (kept in text from files) takes two, another control character six.
    static func writtenBytes(_ caption: String) -> Int {
        var caption = caption
        return caption.withUTF8 { bytes in
            var escapes = 0
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                escapes += byte >= 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D ? 1 : 5
            }
            return bytes.count + escapes
        }
    }

    /// What tags take in the snapshot: each quoted (escaped at most twice over), and a separator.
    private static func bytes(_ tags: [String]) -> Int {
        tags.reduce(tags.isEmpty ? 0 : 12) { $0 + 2 * $1.utf8.count + 4 }
    }
}

extension Array where Element == TaskChange {
    /// How many tasks these changes add, less those they delete.
    var netTaskCount: Int {
        reduce(0) { count, change in
            switch change {
            case .add: count + 1
            case .delete: count - 1
            case .set: count
            }
        }
    }
}

extension TaskStore {
    /// Refuses a change up front when the store's folder cannot be written: the log takes
    /// appends in a read-only folder, but every fold into a new snapshot needs a file of its own
    /// there, so the first thousand changes would be acknowledged and every one after refused.
    /// Naming the folder now, before anything is acknowledged, says what to do while nothing is
    /// at stake. (A folder not made yet is made by the commit, which says so if it cannot.)
    func requireWritableFolder() throws(StoreError) {
        var folder = FileSystem.folder(of: path)
        // A store reached through a symbolic link is saved at its target, in the target's folder.
        if let resolved = realpath(path, nil) {
            folder = FileSystem.folder(of: String(cString: resolved))
            free(resolved)
        }
        guard faccessat(AT_FDCWD, folder, W_OK | X_OK, AT_EACCESS) != 0 else { return }
        switch errno {
        case EROFS:
            throw StoreError(path: path, problem: .unwritable("its folder \(folder) is on a read-only file system"))
        case EACCES, EPERM:
            throw StoreError(
                path: path,
                problem: .unwritable(
                    "its folder \(folder) is read-only to you, and the store's files are written there: chmod u+w '\(folder)'"))
        default:
            return
        }
    }
}
