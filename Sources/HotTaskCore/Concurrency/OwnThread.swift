import Foundation

/// Work for a second core on a thread of its own, not on Dispatch's global queues: once a
/// process has used those, libdispatch's pool monitor wakes every second for as long as the
/// process lives (an idle UI at 100,000 tasks made 45 system calls in 10 s; issue 48).
public enum OwnThread {
    /// Runs `body` on a new thread, inside `group`: `group.wait()` returns once it is done.
    public static func run(in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.start()
    }
}
