import Dispatch
import FoundationEssentials
import Glibc

/// Runs blocking work (network requests) on up to `width` threads of its own and returns the
/// results in the order of the items. Threads, not the global dispatch queue: its width is the
/// number of cores, and these threads spend their time waiting on the network, not computing.
public enum Parallel {
    public static func map<Item, Value>(
        _ items: [Item], width: Int, _ body: @escaping (Item) throws(SyncFailure) -> Value
    ) -> [Result<Value, SyncFailure>] {
        let width = max(1, min(width, items.count))
        if width <= 1 {
            return items.map { item in Result { () throws(SyncFailure) in try body(item) } }
        }
        let work = Work(items: items, body: body)
        let finished = DispatchGroup()
        for _ in 0..<width {
            finished.enter()
            OwnThread.detach(stackSize: 1 << 20) {
                work.run()
                finished.leave()
            }
        }
        finished.wait()
        return work.results.map { $0 ?? .failure(SyncFailure("a request was not sent")) }
    }

    /// The shared queue of items and the results, under one lock.
    // Unchecked: `next` and `results` are read and written only under `lock`; `items` and `body` are
    // `let`s (`body` is the caller's, run on these threads as `map` promises); `results` is read
    // unlocked only after `finished.wait()`, once every thread has left.
    private final class Work<Item, Value>: @unchecked Sendable {
        let items: [Item]
        let body: (Item) throws(SyncFailure) -> Value
        var results: [Result<Value, SyncFailure>?]
        private var next = 0
        private let lock = ThreadLock()

        init(items: [Item], body: @escaping (Item) throws(SyncFailure) -> Value) {
            self.items = items
            self.body = body
            results = Array(repeating: nil, count: items.count)
        }

        func run() {
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < items.count else { return }
                let result = Result { () throws(SyncFailure) in try body(items[index]) }
                lock.lock()
                results[index] = result
                lock.unlock()
            }
        }
    }
}
