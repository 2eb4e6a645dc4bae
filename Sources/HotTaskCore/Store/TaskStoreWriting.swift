import FoundationEssentials
import Glibc

/// Writing the store: every entry is a transaction body (`StoreTransaction`).
extension TaskStore.State {
    /// What the snapshot's header and the records replayed on it say of each section's top
    /// (`TopBounds`); nil for a store without a header.
    var topBounds: TopBounds? {
        guard let header else { return nil }
        var bounds = TopBounds(header.top)
        for record in history where record.generation == header.generation { bounds.include(record) }
        return bounds
    }
}

extension TaskStore {
    /// The origin a record names (`"by"`), from `HOTTASK_ORIGIN`: the UI gives the syncs it runs
    /// its own, so that `u` takes back a sync it ran and never one another terminal ran.
    static let origin: String? = {
        guard let text = ProcessInfo.processInfo.environment["HOTTASK_ORIGIN"], !text.isEmpty, text.count <= 64 else { return nil }
        return text
    }()

    /// Reads under the lock, lets `plan` decide the changes from the list as it is, and commits
    /// them as one record. `plan` returns the changes, what to call them, what they undo, and a
    /// result for the caller; errors it throws leave the store untouched.
    @discardableResult
    func update<Result>(
        now: @autoclosure () -> Date = Date(),
        _ plan: (State) throws -> (changes: [TaskChange], what: String, undoes: Clock?, result: Result)
    ) throws -> Result {
        try transaction(.everything) { txn in
            let (changes, what, undoes, result) = try plan(try txn.whole())
            // Handed over, not copied: a large import's changes go before its snapshot is written.
            try txn.commit(consume changes, what: what, undoes: undoes, now: now())
            return result
        }
    }

    /// Commits changes made without reading first (their `was` values are taken from the store).
    @discardableResult
    func commit(_ changes: [TaskChange], what: String, undoes: Clock? = nil, now: Date = Date()) throws(StoreError)
        -> StoreTransaction.Committed
    {
        try storeTransaction(.everything) { txn throws(StoreError) in
            try txn.commit(changes, what: what, undoes: undoes, now: now, wasIsCurrent: false)
        }
    }

    /// Adds tasks on top of their sections, the first one topmost. While the snapshot is the one
    /// the log was started for, only its header is read (and the log): the cost does not grow
    /// with the list. Returns what the commit did; its `list` is nil when the quick way was taken
    /// (only ever on a log with no damaged line).
    @discardableResult
    func addOnTop(_ tasks: [TaskItem], what: String, now: Date = Date()) throws(StoreError) -> StoreTransaction.Committed {
        try storeTransaction(.header) { txn throws(StoreError) in
            try txn.commit(try txn.addingOnTop(tasks), what: what, now: now)
        }
    }

    /// What an add needs, read from the snapshot's header and the log alone; nil when they
    /// cannot be trusted alone (no log for this snapshot, a long or damaged log, a snapshot
    /// changed since the log began).
    func logView() throws(StoreError) -> StoreTransaction.LogView? {
        guard let stamp = FileSystem.stamp(of: path), let contents = try readLog(), let logHeader = contents.header,
            logHeader.snapshot == stamp, contents.damaged.isEmpty, contents.missing.isEmpty,
            contents.byteCount < StoreLimits.logFoldBytes, let header = SnapshotHeaderReader.read(path), header.generation == logHeader.generation,
            header.folds != nil
        else { return nil }
        let records = contents.records.filter { $0.generation == header.generation }
        guard records.count < Self.logLimit else { return nil }
        var view = StoreTransaction.LogView(
            generation: header.generation, clock: header.clock, count: header.count,
            top: TopBounds(header.top), records: [], snapshotSize: Int(stamp.size),
            snapshotCount: header.count, logBytes: 0, pendingSync: [], lists: header.lists)
        // Records of older generations (kept for undo) may carry a later stamp than the header's.
        for record in contents.records { view.clock = max(view.clock, record.clock) }
        // Any key a record gives is a bound the new top must stay below.
        for record in records { view.include(record, count: view.count + record.changes.netTaskCount, lineBytes: 0) }
        view.logBytes = contents.byteCount
        return view
    }

}

extension StoreTransaction.LogView {
    /// This view once `record` (a line of `lineBytes`) is appended; in place, since a copy per
    /// record made reading a log of a thousand records quadratic.
    mutating func include(_ record: LogRecord, count: Int, lineBytes: Int) {
        clock = max(clock, record.clock)
        records.append(record)
        self.count = count
        logBytes += lineBytes
        if let sync = record.sync { pendingSync.append(sync) }
        if let change = record.lists { lists = change.after }
        top.include(record)
    }
}
