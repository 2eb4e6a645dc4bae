import Dispatch
import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskUI
import Synchronization

/// The UI's store thread: every save, every look for other processes' changes and the folding
/// of a long log run here, one at a time, in the order the run loop asked for them, and come
/// back as events (`drain`). So a key's frame never waits for an fsync, and a save is still
/// acknowledged (`Event.saved`) only once the store has committed it.
///
/// It owns the store session and the queue of saves while the UI runs; `stop` hands the queue
/// back to the run loop for the way out.
final class StoreWorker: Sendable {
    private enum Job: Sendable {
        case save(Save, count: Int)
        /// Saves waiting for the lock are tried again, then other processes' changes are read.
        case look
        case compact
        /// The UI's whole list, for a store whose files all vanished (`SaveQueue.Flushed.needsList`).
        case list(TaskList)
    }

    private struct Shared: ~Copyable {
        var jobs: [Job] = []
        var events: [Event] = []
        var stopping = false
        /// The run loop should send the whole list (the store vanished).
        var wantsList = false
    }

    /// What only the store thread touches while it runs (the session and its queue).
    private final class Owned: @unchecked Sendable {
        var saves: SaveQueue
        /// Why the store could not be read at the last look, in full (nil once it can again).
        var storeProblem: String?
        let store: TaskStore

        init(saves: SaveQueue, store: TaskStore) {
            self.saves = saves
            self.store = store
        }
    }

    private let shared = Mutex(Shared())
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let owned: Owned
    private let wake: @Sendable () -> Void

    init(session: StoreSession, store: TaskStore, wake: @escaping @Sendable () -> Void) {
        owned = Owned(saves: SaveQueue(session: session), store: store)
        self.wake = wake
        OwnThread.detach { [self] in run() }
    }

    // MARK: The run loop's side

    func save(_ save: Save, count: Int) { add(.save(save, count: count)) }

    /// A look is asked for once however many times it is asked for before it runs.
    func look() { add(.look, unlessQueued: true) }

    func compactIfNeeded() { add(.compact, unlessQueued: true) }

    /// The UI's whole list, when the store asked for it (`takeWantsList`).
    func give(_ list: TaskList) { add(.list(list), first: true) }

    /// True once after the store vanished and a save needs the UI's whole list.
    func takeWantsList() -> Bool {
        shared.withLock { state in
            defer { state.wantsList = false }
            return state.wantsList
        }
    }

    /// The outcomes since the last call, oldest first.
    func drain() -> [Event] {
        shared.withLock { state in
            defer { state.events = [] }
            return state.events
        }
    }

    /// Waits for the job under way, stops the thread, and hands back the saves not committed yet
    /// and the last store problem, for the way out.
    func stop() -> (saves: SaveQueue, storeProblem: String?) {
        shared.withLock { $0.stopping = true }
        ready.signal()
        finished.wait()
        // Outcomes not taken yet still count: a save that failed last says why at the exit.
        return (owned.saves, owned.storeProblem)
    }

    private func add(_ job: Job, unlessQueued: Bool = false, first: Bool = false) {
        let added = shared.withLock { state -> Bool in
            if unlessQueued, state.jobs.contains(where: { Self.same($0, job) }) { return false }
            if first { state.jobs.insert(job, at: 0) } else { state.jobs.append(job) }
            return true
        }
        if added { ready.signal() }
    }

    private static func same(_ one: Job, _ other: Job) -> Bool {
        switch (one, other) {
        case (.look, .look), (.compact, .compact): true
        default: false
        }
    }

    // MARK: The store thread

    private func run() {
        while true {
            ready.wait()
            let (job, stopping) = shared.withLock { state -> (Job?, Bool) in
                (state.jobs.isEmpty ? nil : state.jobs.removeFirst(), state.stopping)
            }
            if stopping {
                // The way out saves what is left itself: queued saves join the queue, the rest waits.
                if case .save(let save, let count)? = job { owned.saves.append(save, count: count) }
                if shared.withLock({ $0.jobs.isEmpty }) { break }
                continue
            }
            guard let job else { continue }
            let events = perform(job)
            let wantsList = shared.withLock { state in
                state.events += events
                return state.wantsList
            }
            if !events.isEmpty || wantsList { wake() }
        }
        finished.signal()
    }

    private func perform(_ job: Job) -> [Event] {
        switch job {
        case .save(let save, let count):
            owned.saves.append(save, count: count)
            return flush(list: nil)
        case .list(let list):
            return flush(list: list)
        case .look:
            // Changes that waited for the lock first, then other processes' changes.
            let saved = flush(list: nil)
            return owned.saves.isEmpty ? saved + outsideChanges() : saved
        case .compact:
            // Folded only with nothing waiting: a save never waits behind a fold it did not need.
            guard owned.saves.isEmpty, owned.store.wantsCompaction() else { return [] }
            do throws(StoreError) {
                // Not waiting for the lock: the UI's saves queue behind this thread's jobs, and
                // another writer at work will be folded after the next save.
                try owned.store.compact(wait: 0)
            } catch {
                // A lock held past the wait is another writer at work, not a failure.
                if !error.isLocked { return [.compactionFailed(reason: "\(error)")] }
            }
            return []
        }
    }

    private func flush(list: TaskList?) -> [Event] {
        let flushed = owned.saves.flush(list: list)
        if flushed.events.contains(where: { if case .saved = $0 { true } else { false } }) {
            owned.storeProblem = nil  // a commit read the store and wrote it
        }
        if flushed.needsList { shared.withLock { $0.wantsList = true } }
        return flushed.events
    }

    private func outsideChanges() -> [Event] {
        do {
            let outside = try owned.saves.session.poll()
            let recovered: [Event] = owned.storeProblem != nil ? [.storeRecovered] : []
            owned.storeProblem = nil
            switch outside {
            case nil: return recovered
            case .records(let records)?: return recovered + [.changedOutside(records)]
            case .reloaded(let list, let activity)?: return recovered + [.reloaded(list, activity: activity)]
            }
        } catch {
            owned.storeProblem = TerminalApp.fullReason(error)
            return [.saveFailed(reason: TerminalApp.reason(error))]
        }
    }
}
