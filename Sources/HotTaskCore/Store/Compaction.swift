import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// Compaction: the log folded into a new snapshot under a new generation (temp file, fsync,
/// rename, folder fsync), keeping records for `--undo` and setting damaged lines aside.
extension TaskStore {
    /// Folds the log into a new snapshot now, if it has anything to fold or needs it.
    public func compact(now: Date = Date(), wait: TimeInterval = TaskStore.lockWait) throws(StoreError) {
        try storeTransaction(.everything, wait: wait) { txn throws(StoreError) in try txn.fold() }
    }

    /// True when the log is long enough that a writer should fold it (the UI asks after its
    /// saves, to do it off its input path). Counts lines without parsing them.
    public func wantsCompaction() -> Bool {
        // Long by its size alone (a stat): the UI asks after every save, and its log may be tens of MB.
        if let size = FileSystem.stamp(of: journalPath)?.size, size >= Int64(StoreLimits.logFoldBytes) { return true }
        guard let bytes = try? FileSystem.readAll(journalPath, limit: StoreLimits.logBytes, sideFile: true) else { return false }
        return bytes.count >= StoreLimits.logFoldBytes || bytes.reduce(0, { $0 + ($1 == 0x0A ? 1 : 0) }) > Self.logLimit
    }

    /// Replaces the whole store with `list`, every task stamped anew: how the benchmarks and
    /// the tests (`save` in TestSupport) make the stores they start from. Not the product's:
    /// only a client that imports the `Fixtures` interface sees it (`--import --replace`
    /// commits changes).
    @_spi(Fixtures) public func replaceWhole(with list: TaskList, now: Date = Date()) throws(StoreError) {
        try storeTransaction(.nothing) { txn throws(StoreError) in try txn.replace(.stamped(list, now: now)) }
    }

    /// Writes `list` as a new snapshot: the sync state the log's records carry folded into the
    /// sync base first (`sync`, see `SyncDelta`), the backup copy, then the snapshot itself (the
    /// commit point), then a new log for it that keeps the last records as history. Damaged log
    /// lines are moved aside before the log is replaced. Only `StoreTransaction.writeSnapshot`
    /// calls it, holding the lock. `exchange`: an import's side files pending under that token,
    /// which this snapshot commits: it is the snapshot's generation (`ExchangeFiles`).
    func compactLocked(
        _ list: TaskList, clock: Clock, state: State, history: [LogRecord], sync: [SyncDelta], exchange: Generation? = nil
    ) throws(StoreError) {
        var header = SnapshotHeader(generation: exchange ?? .random(), clock: clock, list: list)
        var snapshotSize = 0
        let index = try withFileErrors { () throws(FileSystem.Failure) -> MadeOnOwnThread<[UInt8]> in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            removeCrashDebris()
            if !state.damaged.isEmpty { try keepAside(state.damaged) }
            header.folds = try logToFold(state)
            // Before the snapshot that stops replaying them: a crash between the two replays them
            // on a base that holds them already, which ends the same (each sets its entries).
            if !sync.isEmpty { try SyncBase.fold(sync, besides: self) }
            // An import's side files the log's records committed are put in place before the
            // snapshot that stops replaying those records; those no record commits, removed.
            // The state's records as well as `history`: a replacement keeps none of them.
            settleExchange(generation: state.header?.generation, records: state.history + history, except: exchange)
            // The snapshot and its backup are written side by side as the document is made.
            var snapshot = try FileSystem.AtomicFile(replacing: path)
            var backup: FileSystem.AtomicFile
            do throws(FileSystem.Failure) {
                backup = try FileSystem.AtomicFile(replacing: backupPath)
            } catch {
                snapshot.abandon()
                throw error
            }
            let entries = StoreDocument.write(list, header: header, activity: Self.activity(of: state, history: history)) { piece in
                snapshot.write(piece)
                backup.write(piece)
                snapshotSize += piece.count
            }
            // Made on a thread of its own while both files wait for the disk (it was a fortieth
            // of an import of 100,000 tasks, after the fsyncs).
            let index = MadeOnOwnThread { [generation = header.generation, snapshotSize] in
                SnapshotIndex.encode(entries, generation: generation, snapshotSize: snapshotSize, hasSubtasks: list.hasSubtasks)
            }
            do throws(FileSystem.Failure) {
                // Both whole on disk before either is renamed: a write that fails (a full disk)
                // leaves the old snapshot and the old backup, never a backup of a state the
                // command was told did not commit.
                try backup.finishWriting()
                try snapshot.finishWriting()
                if state.snapshotStamp == nil {
                    // The first snapshot goes first: a backup alone would read as a store whose
                    // snapshot was lost, and refuse every command.
                    try snapshot.install()
                    try backup.install()
                } else {
                    try backup.install()
                    try snapshot.install()
                }
            } catch {
                snapshot.abandon()
                backup.abandon()
                throw error
            }
            return index
        }
        // Committed. A log that fails to start leaves the old one, whose records are of another
        // generation and so are never replayed on this snapshot: nothing is lost either way.
        guard let stamp = FileSystem.stamp(of: path) else { return }
        let kept = Self.historyToKeep(history)
        let floor = Self.undoFloor(after: state.undoFloor, history: history, kept: kept, snapshotClock: clock)
        try? log.start(ChangeLog.Header(generation: header.generation, snapshot: stamp, undoFloor: floor), history: kept)
        // Only a help for changes by id, checked on every use: a failure here costs speed only.
        try? FileSystem.writeAtomically(index.value, to: indexPath)
    }

    /// The history the new snapshot keeps: the state's (its snapshot's and the records replayed
    /// on it) and that of the records `history` adds to the state's, those of the snapshot's
    /// generation (the record being committed; `--recover`'s log), never a record kept for undo
    /// from an older snapshot, which that one counted.
    static func activity(of state: State, history: [LogRecord]) -> ActivityHistory {
        let added = history.dropFirst(state.history.count).filter { record in
            state.header.map { record.generation == $0.generation } ?? true
        }
        return state.activity + ActivityHistory(counting: added)
    }

    /// What the new snapshot says of the log it folds: the log's generation and how many of its
    /// records the state holds. With no log at all, one is started first (no records), so that
    /// the snapshot can name it: a log that goes missing later is then noticed, never taken for
    /// an empty one.
    func logToFold(_ state: State) throws(FileSystem.Failure) -> FoldedLog {
        if let generation = state.logGeneration {
            return FoldedLog(generation: generation, records: state.history.reduce(0) { $0 + ($1.generation == generation ? 1 : 0) })
        }
        guard try FileSystem.kind(of: journalPath) == .missing else {
            // An old journal or a log without a header, read as such: the snapshot holds what it could.
            return FoldedLog(generation: nil, records: 0)
        }
        let first = Generation.random()
        try log.start(ChangeLog.Header(generation: first, snapshot: .none), history: [])
        return FoldedLog(generation: first, records: 0)
    }

    /// The last records, as many as fit the history's bounds: a record larger than a few pages
    /// (a big import) is not kept, so that every command's read of the log stays small. Nor is
    /// one that changed no task (a sync's acknowledgements): undo passes over it anyway, and a
    /// sync of thousands of writes would push the changes that can be undone out. Nor is the
    /// sync state a record carries: folded into the base file, it is never replayed again, and
    /// a sync's merge kept with the entries of a thousand writes would be too large to undo.
    static func historyToKeep(_ records: [LogRecord]) -> [LogRecord] {
        var kept: [LogRecord] = []
        var bytes = 0
        for var record in records.reversed() where kept.count < historyKept {
            guard !record.changesNothing, !record.changesLetGo else { continue }
            record.sync = nil
            record.exchange = nil
            guard !certainlyLarger(record, than: historyRecordLimit) else { continue }
            let size = ChangeLog.encode(record).count
            guard size <= historyRecordLimit else { continue }
            guard bytes + size <= historyByteLimit else { break }
            bytes += size
            kept.append(record)
        }
        return kept.reversed()
    }

    /// The newest change the new log cannot take back: the newest record of `history` left out
    /// of `kept`, or the snapshot's own stamp when it is newer than every kept record (a whole
    /// store saved, a record too large to keep); never lower than the log's floor before.
    static func undoFloor(after previous: Clock?, history: [LogRecord], kept: [LogRecord], snapshotClock: Clock) -> Clock? {
        var floor = previous
        let keptClocks = Set(kept.map(\.clock))
        // A record that changed no task takes nothing back; left out, it passes over nothing.
        var accounted = kept.last?.clock ?? .zero
        for record in history where !keptClocks.contains(record.clock) {
            if record.changesNothing {
                accounted = max(accounted, record.clock)
            } else {
                floor = max(floor ?? record.clock, record.clock)
            }
        }
        if snapshotClock > accounted { floor = max(floor ?? snapshotClock, snapshotClock) }
        return floor
    }

    /// True when `record`'s line is sure to be longer than `limit` bytes, judged without encoding
    /// it: every change takes at least 64 bytes (a set names a 36-character id and two objects).
    static func certainlyLarger(_ record: LogRecord, than limit: Int) -> Bool {
        // Each change's line is at least 64 bytes and its captions and notes: a record of one
        // 50 MB caption is not encoded to be told it is too large.
        var atLeast = 0
        for change in record.changes {
            switch change {
            case .add(let task), .delete(let task): atLeast += 64 + task.caption.utf8.count + task.note.utf8.count
            case .set(_, let fields, let was):
                atLeast +=
                    64 + (fields.caption?.utf8.count ?? 0) + (was.caption?.utf8.count ?? 0) + (fields.note?.utf8.count ?? 0)
                    + (was.note?.utf8.count ?? 0)
            }
            if atLeast > limit { return true }
        }
        return false
    }

    func keepAside(_ damaged: [ChangeLog.DamagedLine]) throws(FileSystem.Failure) {
        // Without blocking: a named pipe in its place (no reader) fails at once, and anything
        // but a regular file is refused, naming it.
        let fd = open(damagedPath, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystem.Failure(reason: "cannot keep damaged log lines in \(damagedPath): \(FileSystem.reason())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw FileSystem.Failure(
                reason:
                    "cannot keep damaged log lines in \(damagedPath): it is \(FileSystem.describe(info.st_mode)), not a regular file; move it away")
        }
        // One another user made first (in a shared folder) would be given our lines.
        if info.st_uid != geteuid() || info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let whose = info.st_uid != geteuid() ? "it belongs to another user (\(FileSystem.owner(info.st_uid)))" : "others may write it"
            throw FileSystem.Failure(
                reason: "cannot keep damaged log lines in \(damagedPath): \(whose); HotTask adds them only to a file of its own: move it away")
        }
        for line in damaged {
            try FileSystem.writeAll(line.bytes + [0x0A], to: fd)
        }
        guard fsync(fd) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
    }
}
