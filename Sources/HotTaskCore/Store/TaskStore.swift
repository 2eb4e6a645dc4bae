import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The task store: a snapshot (`tasks.json`) and a change log beside it (`tasks.json.journal`).
///
/// Every change is one record appended to the log and fsynced; that append is the commit.
/// Compaction folds the log into a new snapshot (temp file, fsync, rename, folder fsync) under
/// a new generation, so the log's old records are never replayed on it. Readers take no lock:
/// the snapshot they read names its generation and they replay only that generation's whole
/// records, so they always see a state some command made. Writers hold the lock file, waiting
/// a bounded time. See RELIABILITY.md.
public struct TaskStore: Sendable {
    /// Largest store or import file HotTask reads.
    static let maximumFileSize = 64 << 20
    /// Most tasks a list may hold.
    public static let maximumTaskCount = 250_000
    /// Records the log holds before a writer folds it into the snapshot (`HOTTASK_LOG_LIMIT`
    /// sets it, for tests).
    static let logLimit: Int = {
        guard let text = ProcessInfo.processInfo.environment["HOTTASK_LOG_LIMIT"], let value = Int(text), value > 0 else {
            return 1000
        }
        return value
    }()
    /// The log's size past which a writer compacts, whatever the record count.
    static let logByteLimit = 4 << 20
    /// A record larger than this (a big import) goes straight into a new snapshot.
    static let largeRecord = 1 << 20
    /// Records of older generations kept after compaction, for `--undo`: at most this many, each
    /// at most `historyRecordLimit` bytes, all together at most `historyByteLimit`.
    static let historyKept = 100
    static let historyRecordLimit = 64 << 10
    static let historyByteLimit = 512 << 10
    /// How long a writer waits for another process's lock (`HOTTASK_LOCK_WAIT`, seconds).
    public static let lockWait: TimeInterval = {
        guard let text = ProcessInfo.processInfo.environment["HOTTASK_LOCK_WAIT"], let value = Double(text), value >= 0,
            value <= 600
        else { return 5 }
        return value
    }()

    /// The store file, with symbolic links resolved: a save replaces the link's target.
    public let path: String

    public init(path: String) {
        self.path = FileSystem.resolvingSymlinks(path)
    }

    /// The lock file beside the store.
    var lockPath: String { path + ".lock" }
    /// A copy of the snapshot as of the last compaction.
    var backupPath: String { path + ".bak" }
    /// The change log.
    var journalPath: String { path + ".journal" }
    /// Where each task lies in the snapshot, for changes by id (see `SnapshotIndex`).
    var indexPath: String { path + ".index" }
    /// Log lines that could not be read, kept for a person to look at.
    var damagedPath: String { journalPath + ".damaged" }
    /// The store and every file HotTask keeps beside it: none may be written over by an export.
    public var ownFiles: [String] {
        [
            path, journalPath, backupPath, lockPath, indexPath, damagedPath, ImportBase.path(besides: self), SyncBase.path(besides: self),
            CarriedFields.path(besides: self),
        ]
    }
    var log: ChangeLog { ChangeLog(path: journalPath) }

    // MARK: Reading

    /// The store as read: the list, and what a writer needs to commit on top of it.
    public struct State: Sendable {
        public var list: TaskList
        /// The snapshot's header; nil when there is no snapshot yet or it is an old version.
        var header: SnapshotHeader?
        /// The latest stamp in the store (snapshot or log).
        var clock: Clock
        /// Every readable record of the log, whatever its generation (for `--undo`).
        public var history: [LogRecord]
        /// The records replayed on the snapshot.
        var replayed: Int
        /// Lines of the log that could not be read, with why.
        public var warnings: [String]
        var damaged: [ChangeLog.DamagedLine]
        /// True when the next write must fold the log into a new snapshot (an old format, a
        /// long or damaged log, a snapshot changed by hand).
        var needsCompaction: Bool
        var snapshotStamp: FileStamp? = nil
        var logStamp: FileStamp? = nil
        /// The generation the log's header names (nil: no log, or no readable header).
        var logGeneration: Generation? = nil
        /// The newest change not kept in the log for `--undo`: an undo never passes over it.
        public var undoFloor: Clock? = nil
    }

    /// Reads the list (snapshot plus log); no files is an empty list.
    public func load() throws(StoreError) -> TaskList {
        try read().list
    }

    /// Reads the store without a lock, as one committed state.
    public func read() throws(StoreError) -> State {
        var attempt = 0
        while true {
            attempt += 1
            // Open, not read: the file is read as it is decoded (it holds exactly the version
            // `stamp` names, as every save renames a new file into place).
            let snapshotFile = try openSnapshotFile()
            let contents = try readLog()
            guard let snapshotFile else { return try stateWithoutSnapshot(contents) }
            let stamp = snapshotFile.stamp
            let snapshot = try decode(snapshotFile)
            let standing = snapshot.header.map { LogStanding(log: contents, snapshot: $0) }
            if let standing, standing != .belongs, FileSystem.stamp(of: path) != stamp, attempt < 20 {
                continue  // the snapshot was replaced while we read: read the new pair
            }
            if case .damaged(let reason)? = standing {
                throw StoreError(path: journalPath, problem: .damagedLog(reason, store: path))
            }
            return state(snapshot, stamp: stamp, log: contents, standing: standing)
        }
    }

    /// `snapshot` is consumed: the log's records are applied to its list in place, not to a copy.
    private func state(
        _ snapshot: consuming StoreSnapshot, stamp: FileStamp?, log contents: ChangeLog.Contents?, standing: LogStanding?
    ) -> State {
        let snapshotHeader = snapshot.header
        var list = snapshot.list
        _ = consume snapshot
        // The state gets the list once it is made: holding it meanwhile would make the first
        // change applied copy every task.
        var state = State(
            list: TaskList(), header: snapshotHeader, clock: snapshotHeader?.clock ?? .zero, history: contents?.records ?? [],
            replayed: 0, warnings: [], damaged: contents?.damaged ?? [], needsCompaction: true, snapshotStamp: stamp,
            logStamp: contents?.stamp, logGeneration: contents?.header?.generation, undoFloor: contents?.header?.undoFloor)
        state.warnings = warnings(state.damaged)
        for record in state.history { state.clock = max(state.clock, record.clock) }
        guard let header = snapshotHeader else {
            // A version 1 store: its journal's adds go on top, by id (they may be in it already).
            if let contents, !contents.legacyAdds.isEmpty {
                var added = list.all
                let known = Set(added.map(\.id))
                let fresh = contents.legacyAdds.filter { !known.contains($0.id) }
                added = fresh.reversed() + added
                list = TaskList(added.filter { $0.section == .priority } + added.filter { $0.section == .bonus })
            }
            state.list = list
            return state
        }
        let logHeader = contents?.header
        let belongs = standing == .belongs
        if belongs {
            let replayed = state.history.filter { $0.generation == header.generation }
            list.applyAll(records: replayed.map { ($0.changes, $0.clock) })
            state.replayed = replayed.count
        }
        state.list = list
        // A snapshot that does not say which log it folded (an older HotTask's) is written
        // again at the next change, so that from then on a lost log is noticed.
        state.needsCompaction =
            !belongs || header.folds == nil || logHeader?.snapshot != stamp || !state.damaged.isEmpty || state.replayed >= Self.logLimit
            || (contents?.byteCount ?? 0) >= Self.logByteLimit
        return state
    }

    /// No snapshot: an empty store, unless files beside it hold tasks. A log or backup alone is
    /// not a store, and must never be read as "every task deleted".
    private func stateWithoutSnapshot(_ contents: ChangeLog.Contents?) throws(StoreError) -> State {
        let logHoldsTasks = contents.map { !$0.records.isEmpty || !$0.legacyAdds.isEmpty } ?? false
        let backup = (try? FileSystem.kind(of: backupPath)) == .file
        if logHoldsTasks || backup {
            let files = [logHoldsTasks ? journalPath : nil, backup ? backupPath : nil].compactMap { $0 }
            // The backup is named only when it and the log provably hold every acknowledged change.
            let restore =
                provenBackup(log: contents) != nil
                ? "to restore the last snapshot and replay the log on it: cp '\(backupPath)' '\(path)'"
                : "to rebuild it from every change that can still be read: \(StoreError.recoverCommand(path))"
            throw StoreError(
                path: path, problem: .missing("\(files.joined(separator: " and ")) beside it still hold tasks; \(restore)"))
        }
        return State(
            list: TaskList(), header: nil, clock: .zero, history: contents?.records ?? [], replayed: 0, warnings: [],
            damaged: contents?.damaged ?? [], needsCompaction: true, snapshotStamp: nil, logStamp: contents?.stamp,
            logGeneration: contents?.header?.generation, undoFloor: contents?.header?.undoFloor)
    }

    private func warnings(_ damaged: [ChangeLog.DamagedLine]) -> [String] {
        damaged.map { "line \($0.line) of \(journalPath) was skipped: \($0.reason)" }
    }

    /// What a reader must be told about the log (its damaged lines), from the log alone.
    public func logWarnings() -> [String] {
        warnings((try? log.read())?.damaged ?? [])
    }

    private func readLog() throws(StoreError) -> ChangeLog.Contents? {
        if let problem = FileSystem.untrusted(journalPath) {
            throw StoreError(path: journalPath, problem: .unreadable("not safe to use: \(problem)"))
        }
        return try log.read()
    }

    /// The snapshot file, open, or nil when there is none.
    private func openSnapshotFile() throws(StoreError) -> FileSystem.OpenFile? {
        do {
            switch try FileSystem.kind(of: path) {
            case .missing: return nil
            case .directory: throw StoreError(path: path, problem: .unreadable("it is a folder, not a file"))
            case .other: throw StoreError(path: path, problem: .unreadable("it is not a regular file"))
            case .file:
                let file = try FileSystem.OpenFile(path)
                try file.check(limit: Self.maximumFileSize)
                return file
            }
        } catch let error as StoreError {
            throw error
        } catch let failure as FileSystem.Failure {
            throw unreadable(failure)
        } catch {
            throw StoreError(path: path, problem: .unreadable("\(error)"))
        }
    }

    private func unreadable(_ failure: FileSystem.Failure) -> StoreError {
        StoreError(path: path, problem: .unreadable(failure.reason))
    }

    /// The snapshot in `file`, read through a window (`decodeStoreFast`); only a file the fast
    /// reader gives up on is read whole, for the strict path to read or describe.
    private func decode(_ file: FileSystem.OpenFile) throws(StoreError) -> StoreSnapshot {
        let damaged = { (reason: DocumentError) in
            StoreError(path: path, problem: .invalid(reason), backupPath: provenBackup(log: try? log.read()))
        }
        let fast = JSONParser.decodeStoreFast(file, limit: Self.maximumFileSize)
        // Only a file the fast reader refused is read whole, for the strict reader.
        var bytes: [UInt8] = []
        if fast == nil {
            do throws(FileSystem.Failure) {
                bytes = try file.readAll(limit: Self.maximumFileSize)
            } catch {
                throw unreadable(error)
            }
        }
        do throws(DocumentError) {
            let snapshot: StoreSnapshot
            if let fast {
                snapshot = fast
            } else {
                guard !bytes.isEmpty else { throw DocumentError.invalid("the file is empty (0 bytes)") }
                if !bytes.contains(where: { $0 != 0 }) {
                    throw DocumentError.invalid("the file holds only NUL bytes (\(bytes.count)), as a crash or power cut can leave")
                }
                snapshot = try StoreDocument.decodeStrictly(bytes)
            }
            guard snapshot.list.count <= Self.maximumTaskCount else {
                throw DocumentError.invalid("it holds \(snapshot.list.count) tasks; HotTask keeps at most \(Self.maximumTaskCount)")
            }
            return snapshot
        } catch {
            throw damaged(error)
        }
    }

    /// The backup, if it reads whole and the log beside it is the one it was made for (or the
    /// one it folded): only then does restoring it lose no acknowledged change, and only then
    /// may a message recommend it.
    private func provenBackup(log contents: ChangeLog.Contents?) -> String? {
        guard (try? FileSystem.kind(of: backupPath)) == .file,
            let bytes = try? FileSystem.readAll(backupPath, limit: Self.maximumFileSize, sideFile: true),
            let header = (try? StoreDocument.decode(bytes))?.header, LogStanding(log: contents, snapshot: header).isWhole
        else { return nil }
        return backupPath
    }

    // MARK: Writing

    /// What a commit did.
    public struct Commit: Sendable {
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
    public func update<Result>(
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
    public func addOnTop(_ tasks: [TaskItem], what: String, now: Date = Date()) throws(StoreError) -> Commit? {
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

    private func lower(_ key: OrderKey?, _ other: OrderKey) -> OrderKey {
        key.map { min($0, other) } ?? other
    }

    /// Folds the log into a new snapshot now, if it has anything to fold or needs it.
    public func compact(now: Date = Date()) throws(StoreError) {
        try withLockOrStoreError { () throws(StoreError) in
            let state = try read()
            guard state.replayed > 0 || state.needsCompaction else { return }
            try compactLocked(state.list, clock: state.clock, state: state, history: state.history)
        }
    }

    /// True when the log is long enough that a writer should fold it (the UI asks after its
    /// saves, to do it off its input path). Counts lines without parsing them.
    public func wantsCompaction() -> Bool {
        guard let bytes = try? FileSystem.readAll(journalPath, limit: Self.maximumFileSize, sideFile: true) else { return false }
        return bytes.count >= Self.logByteLimit || bytes.reduce(0, { $0 + ($1 == 0x0A ? 1 : 0) }) > Self.logLimit
    }

    /// Replaces the whole store with `list` (tests, benchmarks, `--import --replace` uses commit).
    public func save(_ list: TaskList, now: Date = Date()) throws(StoreError) {
        try withLockOrStoreError { () throws(StoreError) in try saveLocked(list, now: now) }
    }

    /// `save` for a caller that holds the lock.
    func saveLocked(_ list: TaskList, now: Date) throws(StoreError) {
        let state: State
        do throws(StoreError) {
            state = try read()
        } catch  where error.isDamagedLog {
            throw error  // its changes are not ours to drop: --recover keeps them
        } catch {
            state = State(
                list: TaskList(), header: nil, clock: .zero, history: [], replayed: 0, warnings: [], damaged: [],
                needsCompaction: true)
        }
        let clock = Clock.next(after: state.clock, now: now)
        var stamped = TaskList()
        stamped.applyAll(list.all.map { .add($0) }, clock: clock)
        try compactLocked(stamped, clock: clock, state: state, history: [])
    }

    /// Writes `list` as a new snapshot: the backup copy first, then the snapshot itself (the
    /// commit point), then a new log for it that keeps the last records as history. Damaged log
    /// lines are moved aside before the log is replaced.
    func compactLocked(_ list: TaskList, clock: Clock, state: State, history: [LogRecord]) throws(StoreError) {
        var header = SnapshotHeader(generation: .random(), clock: clock, list: list)
        var snapshotSize = 0
        let entries = try withFileErrors { () throws(FileSystem.Failure) -> [SnapshotIndex.Entry] in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            removeCrashDebris()
            if !state.damaged.isEmpty { try keepAside(state.damaged) }
            header.folds = try logToFold(state)
            // The snapshot and its backup are written side by side as the document is made.
            var snapshot = try FileSystem.AtomicFile(replacing: path)
            var backup: FileSystem.AtomicFile
            do throws(FileSystem.Failure) {
                backup = try FileSystem.AtomicFile(replacing: backupPath)
            } catch {
                snapshot.abandon()
                throw error
            }
            let entries = StoreDocument.write(list, header: header) { piece in
                snapshot.write(piece)
                backup.write(piece)
                snapshotSize += piece.count
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
            return entries
        }
        // Committed. A log that fails to start leaves the old one, whose records are of another
        // generation and so are never replayed on this snapshot: nothing is lost either way.
        guard let stamp = FileSystem.stamp(of: path) else { return }
        let kept = Self.historyToKeep(history)
        let floor = Self.undoFloor(after: state.undoFloor, history: history, kept: kept, snapshotClock: clock)
        try? log.start(ChangeLog.Header(generation: header.generation, snapshot: stamp, undoFloor: floor), history: kept)
        // Only a help for changes by id, checked on every use: a failure here costs speed only.
        try? FileSystem.writeAtomically(
            SnapshotIndex.encode(consume entries, generation: header.generation, snapshotSize: snapshotSize), to: indexPath)
    }

    /// What the new snapshot says of the log it folds: the log's generation and how many of its
    /// records the state holds. With no log at all, one is started first (no records), so that
    /// the snapshot can name it: a log that goes missing later is then noticed, never taken for
    /// an empty one.
    private func logToFold(_ state: State) throws(FileSystem.Failure) -> FoldedLog {
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
    /// (a big import) is not kept, so that every command's read of the log stays small.
    static func historyToKeep(_ records: [LogRecord]) -> [LogRecord] {
        var kept: [LogRecord] = []
        var bytes = 0
        for record in records.reversed() where kept.count < historyKept {
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
        for record in history where !keptClocks.contains(record.clock) { floor = max(floor ?? record.clock, record.clock) }
        if snapshotClock > (kept.last?.clock ?? .zero) { floor = max(floor ?? snapshotClock, snapshotClock) }
        return floor
    }

    /// True when `record`'s line is sure to be longer than `limit` bytes, judged without encoding
    /// it: every change takes at least 64 bytes (a set names a 36-character id and two objects).
    static func certainlyLarger(_ record: LogRecord, than limit: Int) -> Bool {
        record.changes.count * 64 > limit
    }

    private func keepAside(_ damaged: [ChangeLog.DamagedLine]) throws(FileSystem.Failure) {
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
        for line in damaged {
            try FileSystem.writeAll(line.bytes + [0x0A], to: fd)
        }
        guard fsync(fd) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
    }

    // MARK: Locking

    /// Runs `body` holding the store's lock (creating the folder if needed), waiting at most
    /// `wait` seconds for another process to let go.
    func withLock<T>(wait: TimeInterval = TaskStore.lockWait, _ body: () throws -> T) throws -> T {
        let lock = try withFileErrors { () throws(FileSystem.Failure) in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            return try FileLock(path: lockPath, wait: wait)
        }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    /// `withLock` with every error as a `StoreError`.
    func withLockOrStoreError<T>(wait: TimeInterval = TaskStore.lockWait, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try withLock(wait: wait) { () throws -> T in try body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, problem: .unwritable("\(error)"))
        }
    }

    /// Removes temp files that saves killed midway left (of the store, its log and its backup).
    /// Only while holding the lock: then no live save owns one of them.
    func removeCrashDebris() {
        for file in [path, journalPath, backupPath, indexPath] { FileSystem.removeStaleTempFiles(besides: file) }
    }

    func withFileErrors<T>(_ body: () throws(FileSystem.Failure) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(path: path, problem: error.busy ? .locked(error.reason) : .unwritable(error.reason))
        }
    }
}

/// Where the store lives: `--file`, else `$HOTTASK_FILE`, else the XDG data folder.
public enum StoreLocation {
    public static func resolve(file: String?, environment: [String: String]) -> String {
        if let file, !file.isEmpty { return file }
        if let file = environment["HOTTASK_FILE"], !file.isEmpty { return file }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/hottask/tasks.json"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/hottask/tasks.json"
    }
}
