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
    /// Nothing yet: the body asks (the UI's session follows the log itself).
    case nothing
}
