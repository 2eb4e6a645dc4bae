import Foundation

/// The store's lock held by another process (`flock(1)`, which writes no pid of its own) for
/// as long as this value lives: what a second HotTask meets while one is busy.
public final class HeldLock {
    public let holder: ChildProcess

    public init(store: String) throws {
        holder = try ChildProcess(["flock", store + ".lock", "sleep", "30"])
    }

    deinit {
        holder.kill(SIGKILL)
        _ = holder.wait()
    }
}
