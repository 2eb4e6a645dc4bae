/// What a transaction reads before its body runs. Each plan gives the same view of the store;
/// a plan that cannot answer (a damaged or long log, a snapshot changed by hand) reads
/// everything instead, inside the same lock.
enum ReadPlan: Sendable {
    /// The snapshot's header and the log (adds, and records that only carry sync state).
    case header
    /// The tasks these id handles name, found without reading every task.
    case ids([String])
    /// The whole store.
    case everything
    /// Nothing yet: the body asks.
    case nothing
    /// The UI's session: the records since its last look, read by the session under the lock
    /// and handed over (`StoreTransaction.follow`); the tasks are the ones the UI holds. The
    /// values its changes replace are taken from those records (`replacingWas`), so its records
    /// are the ones a read of everything gives (`ReadPlanSessionTests`).
    case sinceLastLook
}
