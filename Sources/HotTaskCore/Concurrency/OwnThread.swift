import Dispatch
import FoundationEssentials
import Glibc

/// Work for a second core on a thread of its own, not on Dispatch's global queues: once a
/// process has used those, libdispatch's pool monitor wakes every second for as long as the
/// process lives (an idle UI at 100,000 tasks made 45 system calls in 10 s; issue 48).
public enum OwnThread {
    /// Runs `body` on a new thread, inside `group`: `group.wait()` returns once it is done.
    public static func run(in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        detach {
            body()
            group.leave()
        }
    }

    /// Runs `body` on a new thread that nobody waits for, with `stackSize` bytes of stack (the
    /// system's default when nil). A thread that cannot be made is a broken system: it traps.
    public static func detach(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        var thread = pthread_t()
        let made = pthread_create(
            &thread, &attributes,
            { box in
                let body = Unmanaged<Body>.fromOpaque(box!).takeRetainedValue()
                body.run()
                return nil
            }, box)
        precondition(made == 0, "hottask: cannot start a thread (\(made))")
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

/// A value made on a thread of its own while this one goes on; `value` waits for it.
// Unchecked: `make` is set before the thread starts and taken on it; `made` is written on the
// other thread only, and read only after `group.wait()`, which orders that write before the read.
public final class MadeOnOwnThread<Value>: @unchecked Sendable {
    private let group = DispatchGroup()
    private var made: Value?
    /// Let go on the thread before `value` is ready: what it holds (an import's tasks, 17 MB at
    /// 100,000) is never held once the value is made. Held by the thread's own closure, it
    /// outlived `group.leave()`, and the importer went on to its next allocations beside it.
    private var make: (@Sendable () -> Value)?

    public init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        OwnThread.run(in: group) { [self] in
            let make = self.make.take()!
            made = make()
        }
    }

    /// Waits for it (at once when it is made already).
    public var value: Value {
        group.wait()
        return made!
    }
}
