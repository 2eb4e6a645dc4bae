import FoundationEssentials
import Glibc

/// The third way a transaction ends (`commit` and `fold` are the others): a new snapshot that
/// is not made of the store's own records.
extension StoreTransaction {
    /// What replaces the whole store.
    enum Replacement {
        /// `list`, every task stamped anew (a UI whose store vanished from under it; the
        /// benchmarks' and tests' stores).
        case stamped(TaskList, now: Date)
        /// `--recover`: `list`, the readable base (`base`) with every readable record of the
        /// log on top, with those records as its history and their sync state folded into the
        /// sync base, over files already set aside.
        case recovered(TaskList, base: StoreSnapshot?, records: [LogRecord])
    }

    /// Replaces the whole store: the one way a transaction ends in a new snapshot that is not
    /// made of the store's own records (`commit` and `fold` are the others).
    func replace(_ replacement: Replacement) throws(StoreError) {
        try store.requireWritableFolder()
        let list: TaskList
        let clock: Clock
        let state: TaskStore.State
        let history: [LogRecord]
        switch replacement {
        case .stamped(let given, let now):
            state = try stateToReplace()
            clock = Clock.next(after: state.clock, now: now)
            var stamped = TaskList()
            stamped.applyAll(given.all.map { .add($0) }, clock: clock)
            list = stamped
            history = []
        case .recovered(let recovered, let base, let records):
            clock = records.reduce(base?.header?.clock ?? .zero) { max($0, $1.clock) }
            var read = TaskStore.State(
                list: TaskList(), header: base?.header, clock: clock, history: [], replayed: 0, warnings: [], damaged: [],
                needsCompaction: true, snapshotStamp: FileSystem.stamp(of: store.path))
            read.activity = base?.activity ?? ActivityHistory()
            state = read
            list = recovered
            history = records
        }
        try checkLimits([], countBefore: list.count, countAfter: list.count, storeBytes: 0)
        try writeSnapshot(list, clock: clock, state: state, history: history, sync: state.pendingSync + history.compactMap(\.sync))
    }

    /// The store a stamped replacement replaces: as read, or nothing when it cannot be read
    /// (but for a damaged log, whose changes are not ours to drop: `--recover` keeps them).
    private func stateToReplace() throws(StoreError) -> TaskStore.State {
        do throws(StoreError) {
            return try whole()
        } catch  where error.isDamagedLog {
            throw error
        } catch {
            return TaskStore.State(
                list: TaskList(), header: nil, clock: .zero, history: [], replayed: 0, warnings: [], damaged: [], needsCompaction: true)
        }
    }
}
