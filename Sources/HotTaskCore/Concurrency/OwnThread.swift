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

/// A value made on a thread of its own while this one goes on; `value` waits for it.
// Unchecked: `made` is written on the other thread only, and read only after `group.wait()`,
// which orders that write before the read.
public final class MadeOnOwnThread<Value>: @unchecked Sendable {
    private let group = DispatchGroup()
    private var made: Value?

    public init(_ make: @escaping @Sendable () -> Value) {
        OwnThread.run(in: group) { [self] in made = make() }
    }

    /// Waits for it (at once when it is made already).
    public var value: Value {
        group.wait()
        return made!
    }
}
