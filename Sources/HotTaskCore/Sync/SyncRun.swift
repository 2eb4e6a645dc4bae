/// `hottask-sync`: one sync of the store with a calendar collection (`SyncEngine`).
extension TaskStore {
    /// Runs one sync. Throws `SyncFailure` for the server, `SyncRefusal` when the deletion guard
    /// stops it, `StoreError` for the store.
    /// - Parameters:
    ///   - forceDelete: apply deletions the `DeletionGuard` would refuse (`--force-delete`).
    ///   - forgetBase: forget what earlier syncs agreed, so that nothing is deleted on either
    ///     side (`--resync`).
    ///   - quiet: the app's own sync, whose notes nobody reads: they wait for the next `--sync`.
    ///   - progress: told how many writes are done of how many, from the threads that send them.
    public func sync(
        with collection: CalendarCollection, forceDelete: Bool = false, forgetBase: Bool = false, quiet: Bool = false,
        progress: (@Sendable (_ sent: Int, _ total: Int) -> Void)? = nil
    ) throws -> SyncReport {
        let engine = SyncEngine(store: self, collection: collection, forceDelete: forceDelete, forgetBase: forgetBase, quiet: quiet)
        engine.progress = progress
        return try engine.run()
    }

    /// The sync state the log's records carry, not yet folded into the base file.
    func pendingSync() throws(StoreError) -> [SyncDelta] {
        if let view = try logView() { return view.pendingSync }
        return try read().pendingSync
    }
}
