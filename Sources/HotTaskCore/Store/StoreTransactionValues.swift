/// What a transaction reads of the log, and what its commit did.
extension StoreTransaction {
    /// What a commit needs to append after the log without reading the snapshot's tasks.
    struct LogView: Sendable {
        var generation: Generation
        /// The latest stamp in the store.
        var clock: Clock
        /// Live tasks.
        var count: Int
        /// A key each section's tasks all come after.
        var top: TopBounds
        /// The log's records for this snapshot, in order.
        var records: [LogRecord]
        /// The snapshot's size and its own task count (before the log's records).
        var snapshotSize: Int
        var snapshotCount: Int
        var logBytes: Int
        /// The sync state the log's records carry (see `SyncDelta`).
        var pendingSync: [SyncDelta]
        /// The store's lists: the snapshot's, as the log's records left them.
        var lists: ListNames = .initial
    }

    /// What a commit did.
    struct Committed: Sendable {
        /// The stamp the changes got.
        var clock: Clock
        /// The record written, numbered (nil when there was nothing to commit).
        var record: LogRecord?
        /// The whole list with the changes, when the commit had read it.
        var list: TaskList?
        /// The record went into a new snapshot (a new generation) rather than the log.
        var compacted = false
    }
}
