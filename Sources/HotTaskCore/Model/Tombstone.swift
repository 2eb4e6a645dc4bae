import FoundationEssentials
import Glibc

/// A task deleted, kept so that an older copy of it never comes back and a later change to
/// it can (see `TaskList.apply`).
struct Tombstone: Equatable, Sendable {
    var task: TaskItem
    /// When it was deleted.
    var clock: Clock
}
