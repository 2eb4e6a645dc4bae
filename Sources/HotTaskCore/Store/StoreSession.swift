/// A long-lived view of the store for the terminal UI, which keeps the list in memory while
/// other processes (`hottask --add`, a second UI) may change the file.
///
/// It remembers the version it last read or wrote (the *base*). A save takes the lock and, if
/// the file changed since, merges our changes with theirs (`TaskList.merge`) instead of
/// overwriting them. `refresh` notices outside changes without writing anything.
public final class StoreSession {
    public let store: TaskStore
    private var base = TaskList()
    private var baseStamp: StoreStamp?
    /// A version `refresh` could not read, not to be tried again until the file changes.
    private var unreadableStamp: StoreStamp?

    public init(store: TaskStore) {
        self.store = store
    }

    /// Reads the store for the first time.
    public func open() throws(StoreError) -> TaskList {
        try store.withLockOrStoreError { () throws(StoreError) in
            base = try store.load()
            baseStamp = store.stamp()
        }
        return base
    }

    /// Saves `ours`, keeping changes other processes made since our last read or write, and
    /// returns the list as now stored (ours, plus theirs when they differ).
    ///
    /// A file that has become unreadable is not overwritten: the error says why.
    public func save(_ ours: TaskList) throws(StoreError) -> TaskList {
        var saved = ours
        try store.withLockOrStoreError { () throws(StoreError) in
            let current = store.stamp()
            // Only new tasks on top and nothing changed outside: the journal's append, so that
            // Enter in a 100,000-task list does not wait for the whole file to be rewritten.
            if current != nil, current == baseStamp, let added = ours.tasksAddedOnTop(since: base) {
                try store.addLocked(added)
                base = ours
                baseStamp = store.stamp()
                return
            }
            var previousIsGood = current != nil && current == baseStamp
            if current != baseStamp, current != nil {
                let theirs = try store.load()
                saved = TaskList.merge(base: base, ours: ours, theirs: theirs)
                previousIsGood = true
            }
            // A store that vanished (folder removed) is written again from memory: nothing
            // we hold is lost, and a missing file is never read as "every task deleted".
            try store.writeLocked(saved, previousIsGood: previousIsGood)
            base = saved
            baseStamp = store.stamp()
        }
        return saved
    }

    /// The list to show when another process changed the file since our last read or write
    /// (merged with `ours`, which may hold changes not saved yet); nil when nothing changed.
    public func refresh(_ ours: TaskList) throws(StoreError) -> TaskList? {
        let current = store.stamp()
        guard current != baseStamp, current != nil, current != unreadableStamp else { return nil }
        var merged: TaskList?
        try store.withLockOrStoreError { () throws(StoreError) in
            let stamp = store.stamp()
            guard stamp != nil else { return }
            let theirs: TaskList
            do throws(StoreError) {
                theirs = try store.load()
            } catch {
                unreadableStamp = stamp
                throw error
            }
            merged = TaskList.merge(base: base, ours: ours, theirs: theirs)
            base = theirs
            baseStamp = stamp
        }
        return merged == ours ? nil : merged
    }

    /// True when the file changed since our last read or write (a cheap `stat`).
    public var fileChangedOutside: Bool {
        let current = store.stamp()
        return current != nil && current != baseStamp
    }
}

extension TaskStore {
    /// `withLock` with every error as a `StoreError`.
    func withLockOrStoreError(_ body: () throws(StoreError) -> Void) throws(StoreError) {
        do {
            try withLock { () throws -> Void in try body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, problem: .unwritable("\(error)"))
        }
    }
}
