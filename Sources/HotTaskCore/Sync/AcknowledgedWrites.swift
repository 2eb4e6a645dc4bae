import FoundationEssentials
import Glibc
import Synchronization

/// Commits what the server acknowledges as it acknowledges it: each write's new ETag (or a
/// delete) goes into the store's next record (`SyncDelta`), while the other writes are still
/// under way. Acknowledgements that arrive while a record is being written go together into
/// the next one (a group commit): a sync of hundreds of writes costs a few dozen fsyncs, and a
/// sync cut at any moment loses only the acknowledgements of requests still in flight.
final class AcknowledgedWrites: Sendable {
    private let store: TaskStore
    private let collection: String
    /// The round's time: its records are stamped after it (the sync's clock, for tests too).
    private let now: Date
    private let state = Mutex(Progress())

    private struct Progress: Sendable {
        var pending: SyncDelta?
        /// A thread is committing: the others leave their acknowledgements for it.
        var committing = false
        var committed: [SyncDelta] = []
        var failure: StoreError?
        /// The log as the last group's commit left it.
        var followed: Followed?
    }

    /// The log's view after this sync's last commit, and the files' stamps then. The next group
    /// takes it instead of reading and decoding the whole log again: every acknowledgement
    /// carries a calendar body, so that re-reading made a first upload quadratic (112 s of CPU
    /// for 2,000 tasks, 3 s now). Another writer in between changes a stamp, and the group reads the
    /// files; so does one whose log is due to be folded (`logView`'s limits), which folds it.
    ///
    /// The view keeps only its last record: an append is numbered after it, and a group needs
    /// none of the others. Holding them all (and their sync state) made each group copy and count
    /// through every record before it: a first upload of 1,000 tasks cost 12× the CPU of 100.
    struct Followed: Sendable {
        private var view: StoreTransaction.LogView
        /// The records of the view's generation in the log, those let go of included.
        private var records: Int
        private var snapshot: FileStamp
        private var log: FileStamp

        /// `view` as a commit left it; `earlier`: the records a view it followed had let go of.
        init(_ view: consuming StoreTransaction.LogView, earlier: Int, snapshot: FileStamp, log: FileStamp) {
            records = earlier + view.records.count
            view.records = view.records.last.map { [$0] } ?? []
            view.pendingSync = []
            self.view = view
            self.snapshot = snapshot
            self.log = log
        }

        /// The records this view has let go of (all but its last).
        var letGo: Int { records - view.records.count }

        /// The view, if the files are still as this sync's last commit left them.
        func current(in store: TaskStore) -> StoreTransaction.LogView? {
            guard records < TaskStore.logLimit, view.logBytes < StoreLimits.logFoldBytes,
                FileSystem.stamp(of: store.path) == snapshot, FileSystem.stamp(of: store.journalPath) == log
            else { return nil }
            return view
        }
    }

    init(store: TaskStore, collection: String, now: Date) {
        self.store = store
        self.collection = collection
        self.now = now
    }

    /// What the log calls such a record.
    static func recordName(_ url: String) -> String { "sync acknowledged by " + url }

    /// Notes the server's answer to `push`, and commits it with whatever else is waiting (from
    /// the thread that sent it; one thread commits at a time).
    func acknowledge(_ push: SyncEngine.Push, _ outcome: WriteOutcome) {
        let key = push.id.uuidString.lowercased()
        var batch: SyncDelta? = state.withLock { progress in
            var delta = progress.pending ?? SyncDelta(collection: collection)
            switch (push.entry, outcome) {
            case (var entry?, .written(let etag)):
                entry.etag = etag
                entry.tentative = nil
                delta.set[key] = entry
                delta.dropped.removeAll { $0 == key }
            case (nil, .written), (nil, .gone):
                delta.set[key] = nil
                delta.dropped.append(key)
            default:
                return nil  // nothing agreed: a conflict is merged in the next round, a refusal tried again
            }
            progress.pending = delta
            guard !progress.committing else { return nil }
            progress.committing = true
            progress.pending = nil
            return delta
        }
        while let delta = batch {
            let failure: StoreError?
            // Taken out of the state, so that the transaction holds the only copy of the view
            // and appends to it in place.
            var followed = state.withLock { progress in
                defer { progress.followed = nil }
                return progress.followed
            }
            do throws(StoreError) {
                followed = try store.storeTransaction(.nothing) { txn throws(StoreError) -> Followed? in
                    var earlier = 0
                    if let view = followed?.current(in: store) {
                        earlier = followed?.letGo ?? 0
                        followed = nil
                        txn.follow(view)
                    } else {
                        followed = nil
                        try txn.read(.header)
                    }
                    try txn.commit([], what: Self.recordName(collection), sync: delta, now: now)
                    guard let view = txn.followedLog, let snapshot = FileSystem.stamp(of: store.path),
                        let log = FileSystem.stamp(of: store.journalPath)
                    else { return nil }
                    return Followed(view, earlier: earlier, snapshot: snapshot, log: log)
                }
                failure = nil
            } catch {
                followed = nil
                failure = error
            }
            batch = state.withLock { progress in
                progress.followed = followed
                if let failure { progress.failure = progress.failure ?? failure } else { progress.committed.append(delta) }
                guard let next = progress.pending else {
                    progress.committing = false
                    return nil
                }
                progress.pending = nil
                return next
            }
        }
    }

    /// The deltas committed, in order, once every write is answered; throws the first commit
    /// that failed (what was committed before it stays).
    func finish() throws(StoreError) -> [SyncDelta] {
        let (committed, failure) = state.withLock { ($0.committed, $0.failure) }
        if let failure { throw failure }
        return committed
    }
}
