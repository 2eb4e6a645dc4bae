import FoundationEssentials
import Glibc

/// The terminal UI's link to the store: it keeps the list in memory while other processes
/// (`hottask --done`, a second UI) change the store, and sends only its own changes.
///
/// It remembers the snapshot generation it follows and the latest stamp it has applied. A save
/// never waits for the lock: when another process holds it, the UI keeps the change and tries
/// again. Outside changes come as records, applied field by field on top of the UI's list.
public final class StoreSession {
    let store: TaskStore
    private var generation: Generation?
    /// The latest stamp applied to the UI's list.
    private(set) var clock = Clock.zero
    private var snapshotStamp: FileStamp?
    private var logStamp: FileStamp?
    /// A version `poll` could not read, and why: not read again until the files change, and
    /// still unreadable meanwhile (a look that does not read is no recovery).
    private var unreadable: (snapshot: FileStamp?, log: FileStamp?, error: StoreError)?

    public init(store: TaskStore) {
        self.store = store
    }

    /// The UI's records up to this size go to the log, where a command's over 1 MB go straight
    /// into a new snapshot: a clear of 30,000 tasks (9 MB) is then an append, not a read and a
    /// rewrite of the whole store while the screen waits, and the background compaction folds it.
    static let largeRecordLimit = 16 << 20
    /// The log's size past which the UI's save folds it itself. With the largest record on top
    /// it stays under what a reader takes (`StoreLimits.readBytes`, 64 MB).
    static let foldsLogPastBytes = 32 << 20

    /// What a save did.
    public enum Saved: Equatable, Sendable {
        /// The changes are committed with `clock`; `outside` are the records other processes
        /// committed before them, which the UI had not seen yet.
        case committed(clock: Clock, outside: [LogRecord])
        /// The store had changed under us in a way records cannot describe (a new snapshot we
        /// had not followed): this is the whole list now, the changes included.
        /// `activity`: the store's lasting history as read with it (nil when not read again).
        case reloaded(TaskList, clock: Clock, activity: ActivityHistory?)
        /// Another process holds the lock: nothing was written; try again later.
        case busy
        /// Every file of the store has vanished (its folder removed) and no list was given to
        /// write in its place: nothing was written; save again with the UI's whole list.
        case needsList
        /// The save's condition (`SaveCondition`) failed: nothing was written; why.
        case refused(reason: String)
    }

    /// What changed outside since the last look.
    public enum Outside: Equatable, Sendable {
        case records([LogRecord])
        /// The whole list, and the lasting history read with it (the records folded into a new
        /// snapshot come no other way to the history view).
        case reloaded(TaskList, activity: ActivityHistory)
    }

    /// Reads the store for the first time.
    public func open() throws(StoreError) -> TaskList {
        try openWithActivity().list
    }

    /// Reads the store for the first time: the list, and the lasting history of what was
    /// added and completed (the app's history view), as the same read found them.
    public func openWithActivity() throws(StoreError) -> (list: TaskList, activity: ActivityHistory) {
        let state = try store.read()
        follow(state)
        return (state.list, state.activity)
    }

    /// When the snapshot was compacted from exactly what we have seen (our background job's or
    /// another process's compaction), follows its generation and returns the new log's contents
    /// (records after our clock are still to be taken); nil, following nothing, otherwise.
    private func followCompaction() throws(StoreError) -> ChangeLog.Contents? {
        guard let snapshot = FileSystem.stamp(of: store.path), snapshot != snapshotStamp,
            let header = SnapshotHeaderReader.read(store.path), header.clock == clock,
            let contents = try store.log.read(), contents.header?.generation == header.generation,
            contents.header?.snapshot == snapshot, contents.missing.isEmpty
        else { return nil }
        generation = header.generation
        snapshotStamp = snapshot
        return contents
    }

    /// Follows the files our own commit just wrote, from their stamps and the snapshot's header.
    private func followCommit(stamped: Clock) {
        generation = SnapshotHeaderReader.read(store.path)?.generation ?? generation
        clock = stamped
        snapshotStamp = FileSystem.stamp(of: store.path)
        logStamp = FileSystem.stamp(of: store.journalPath)
    }

    private func follow(_ state: TaskStore.State) {
        generation = state.header?.generation
        clock = state.clock
        snapshotStamp = state.snapshotStamp
        logStamp = state.logStamp
    }

    /// Commits the UI's changes as one record, without waiting for the lock. `current` is the
    /// UI's whole list, written out only when the store's snapshot has vanished (its folder
    /// removed): nothing the UI holds is lost, and no file is ever read as "every task deleted".
    public func save(
        _ changes: [TaskChange], what: String, undoes: Clock? = nil, now: Date = Date(),
        current: @autoclosure () -> TaskList
    ) throws(StoreError) -> Saved {
        try save(changes, what: what, undoes: undoes, now: now, count: { current().count }, list: current)
    }

    /// `save` for a caller that does not hold the UI's list (the UI's store thread): `count` is
    /// how many tasks the UI's list holds with these changes; `list` is the whole list, when the
    /// caller has it (without it a vanished store gives `.needsList`).
    /// `condition`: what must hold of the store for the changes to be written (checked under
    /// the lock, `SaveCondition`).
    public func save(
        _ changes: [TaskChange], what: String, undoes: Clock? = nil, now: Date = Date(), count: Int, list: TaskList?,
        condition: SaveCondition? = nil
    ) throws(StoreError) -> Saved {
        try save(changes, what: what, undoes: undoes, now: now, count: { count }, list: { list }, condition: condition)
    }

    private func save(
        _ changes: [TaskChange], what: String, undoes: Clock?, now: Date, count currentCount: () -> Int,
        list current: () -> TaskList?, condition: SaveCondition? = nil
    ) throws(StoreError) -> Saved {
        do {
            return try store.storeTransaction(.sinceLastLook, policy: .ui, wait: 0) { txn throws(StoreError) -> Saved in
                if let condition, let reason = condition.failure(on: try store.taskNow(withID: condition.taskID)) {
                    return .refused(reason: reason)
                }
                var log = try generation.flatMap { generation throws(StoreError) in try logSinceLastLook(generation) }
                // Our background compaction (or another process's) folded what we had seen into a
                // new snapshot: follow it and append, rather than read the whole store again.
                if log == nil, let contents = try followCompaction() { log = sinceLastLook(contents) }
                // The UI's list holds its own changes; the others' adds and deletes are not in it yet.
                var countAfter: Int?
                var changes = changes
                if let generation, let log {
                    // Planned before the UI saw these: what they replace is what the store holds.
                    changes = changes.replacingWas(after: log.outside)
                    let outside = log.outside
                    let count = currentCount() + outside.flatMap(\.changes).netTaskCount
                    countAfter = count
                    txn.follow(
                        StoreTransaction.LogView(
                            generation: generation, clock: outside.last.map { max($0.clock, clock) } ?? clock,
                            count: count - changes.netTaskCount, top: TopBounds([:]), records: log.records, snapshotSize: log.snapshotSize,
                            snapshotCount: 0, logBytes: log.logBytes, pendingSync: []))
                } else if try vanished(txn) {
                    guard let current = current() else { return .needsList }
                    try txn.replace(.stamped(current, now: now))
                    let state = try store.read()
                    follow(state)
                    return .reloaded(state.list, clock: state.clock, activity: state.activity)
                }
                let committed = try txn.commit(
                    changes, what: what, undoes: undoes, now: now, wasIsCurrent: false, countAfter: countAfter)
                guard let list = committed.list else {
                    clock = committed.clock
                    logStamp = FileSystem.stamp(of: store.journalPath)
                    return .committed(clock: committed.clock, outside: log?.outside ?? [])
                }
                // The lock held throughout: the files are the ones this commit wrote.
                followCommit(stamped: committed.clock)
                // Folded into a new snapshot (too large for the log, or the log long) from nothing
                // we had not seen: as an append would, the UI takes the stamp alone. Reading the
                // store again and sending the UI its whole list held the screen up for half a
                // second after a clear of 30,000 tasks.
                if let log, log.outside.isEmpty { return .committed(clock: committed.clock, outside: []) }
                return .reloaded(list, clock: committed.clock, activity: nil)
            }
        } catch let error where error.isBusy {
            return .busy
        }
    }

    /// Other processes' records since the last look (and every record of the log), when the
    /// snapshot is still the one we follow and the log still belongs to it, whole; nil when it
    /// is not (then read everything).
    private func logSinceLastLook(_ generation: Generation) throws(StoreError) -> LogSinceLastLook? {
        guard let stamp = FileSystem.stamp(of: store.path), stamp == snapshotStamp,
            let contents = try store.log.read(), contents.header?.generation == generation, contents.missing.isEmpty
        else { return nil }
        return sinceLastLook(contents)
    }

    /// The log as the session last looked at it: the records of the generation we follow that
    /// are newer than our clock, every record, and the sizes of the snapshot and the log.
    struct LogSinceLastLook {
        var outside: [LogRecord]
        var records: [LogRecord]
        var snapshotSize: Int
        var logBytes: Int
    }

    /// The log's records of the generation we follow that are newer than our clock, and all of them.
    private func sinceLastLook(_ contents: ChangeLog.Contents) -> LogSinceLastLook {
        let (known, generation) = (clock, generation)
        return LogSinceLastLook(
            outside: contents.records.filter { $0.generation == generation && $0.clock > known }, records: contents.records,
            snapshotSize: Int(snapshotStamp?.size ?? 0), logBytes: contents.byteCount)
    }

    private func recordsSinceLastLook(_ generation: Generation) throws(StoreError) -> [LogRecord]? {
        try logSinceLastLook(generation)?.outside
    }

    /// What other processes changed since the last look; nil when nothing did. Reads no more
    /// than the log while the snapshot is unchanged; a snapshot that another process compacted
    /// from exactly what we have seen is followed without reading its tasks.
    public func poll() throws(StoreError) -> Outside? {
        let snapshot = FileSystem.stamp(of: store.path)
        let journal = FileSystem.stamp(of: store.journalPath)
        guard snapshot != snapshotStamp || journal != logStamp else { return nil }
        if let unreadable, unreadable.snapshot == snapshot, unreadable.log == journal { throw unreadable.error }
        do throws(StoreError) {
            if let generation, let outside = try recordsSinceLastLook(generation) {
                logStamp = journal
                if let last = outside.last { clock = max(clock, last.clock) }
                return outside.isEmpty ? nil : .records(outside)
            }
            if let contents = try followCompaction() {
                let outside = sinceLastLook(contents).outside
                logStamp = journal
                if let last = outside.last { clock = max(clock, last.clock) }
                return outside.isEmpty ? nil : .records(outside)
            }
            // The snapshot gone (the folder removed, or being removed): nothing was deleted, the
            // store is missing. Read now, it would be an empty list, or what a log left alone
            // says; the next save writes the UI's whole list.
            if snapshotVanished { return nil }
            let state = try store.read()
            // Gone while it was read (`rm -r` under way): an empty list here would replace the
            // UI's, and the next save would write that.
            if generation != nil, state.snapshotStamp == nil { return nil }
            follow(state)
            return .reloaded(state.list, activity: state.activity)
        } catch {
            unreadable = (snapshot, journal, error)
            throw error
        }
    }

}

extension StoreError {
    /// The lock was held by another process past the wait.
    var isBusy: Bool {
        if case .locked = problem { return true }
        return false
    }
}

extension StoreSession {
    /// The snapshot this session follows is gone. No HotTask writer removes it (each puts a
    /// new one in its place), so its folder is being removed, or was: `rm -r` takes the files
    /// one at a time, and what is left (a log, a backup) read as the store said "every task
    /// deleted". The UI's list is then the store's only copy.
    var snapshotVanished: Bool {
        generation != nil && FileSystem.stamp(of: store.path) == nil
    }

    /// The snapshot this session follows is gone, or went while `txn` read the store: the log
    /// could not be followed, and the whole store read now has no snapshot. Committed on that
    /// read, the UI's change would make a store of its change alone, and the UI would take that
    /// list for its own (`rm -r` of the store's folder, now and then).
    func vanished(_ txn: StoreTransaction) throws(StoreError) -> Bool {
        if snapshotVanished { return true }
        guard generation != nil, try txn.log() == nil else { return false }
        return try txn.whole().snapshotStamp == nil
    }
}
