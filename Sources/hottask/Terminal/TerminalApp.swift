import Foundation
import HotTaskCore
import HotTaskUI

/// The terminal UI's run loop: read an event, update the state, perform the effects, draw.
enum TerminalApp {
    /// How often the store is checked for changes made by other processes.
    static let outsideChangeInterval: TimeInterval = 0.5

    /// `configWarning` (a config file that could not be used) is shown in the footer at start.
    static func run(store: TaskStore, config: AppConfig = .standard, configWarning: String? = nil) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalUnavailable(
                message: "the task list UI needs a terminal; for scripts use --list, --add and the other options (see --help)")
        }
        // Read before touching the screen: a damaged store is reported, never shown as empty.
        let session = StoreSession(store: store)
        let tasks = try session.open()
        Signals.installTerminationHandlers()
        let curses = try Curses(theme: config.theme)
        defer { curses.stop() }
        var state = AppState(tasks: tasks, size: curses.size, config: config)
        _ = AppUpdate.update(&state, .resized(curses.size), now: Timestamp.now())
        if let configWarning { state.message = Message(configWarning, kind: .error) }
        curses.draw(AppRender.render(state, size: state.size))
        var lastOutsideCheck = Date()
        var saves = SaveQueue(session: session)
        let compaction = BackgroundCompaction(store: store)
        let sync = config.sync.map { BackgroundSync(store: store, settings: $0) }

        running: while Signals.received == 0 {
            var pending: [Event] = []
            let keys = curses.nextEvents()
            // Between keys (the read wakes every 250 ms): changes that waited for the lock, then
            // changes from other processes. Both are shown before the key is handled, so that
            // the key acts on the list as it is.
            pending += saves.flush(current: state.tasks)
            if saves.isEmpty, Date().timeIntervalSince(lastOutsideCheck) >= outsideChangeInterval {
                lastOutsideCheck = Date()
                if let event = outsideChange(session) { pending.append(event) }
            }
            if let status = sync?.tick() { pending.append(.synced(status)) }
            pending += keys
            guard !pending.isEmpty else { continue }
            var fullRepaint = false
            while !pending.isEmpty {
                let effects = AppUpdate.update(&state, pending.removeFirst(), now: Timestamp.now())
                for effect in effects {
                    switch effect {
                    case .save(let save):
                        saves.append(save)
                        sync?.changed()
                        pending += saves.flush(current: state.tasks)
                    case .quit:
                        break running
                    case .suspend:
                        curses.stop()
                        Signals.suspendSelf()
                        curses.resume()
                        fullRepaint = true
                        pending.append(.resized(curses.size))
                    case .redraw:
                        fullRepaint = true
                    }
                }
            }
            // A long log is folded into a new snapshot on another thread: no key waits for it.
            if saves.isEmpty { compaction.startIfNeeded() }
            curses.draw(AppRender.render(state, size: state.size), fullRepaint: fullRepaint)
        }
        // Leaving with changes not saved yet: wait for the lock a while, else say so (once the
        // terminal is restored, by the defer above) and exit non-zero; never a silent exit 0.
        let deadline = Date().addingTimeInterval(TaskStore.lockWait)
        while !saves.isEmpty, Date() < deadline {
            _ = saves.flush(current: state.tasks)
            if !saves.isEmpty { usleep(50_000) }
        }
        compaction.wait()
        if let reason = saves.lastFailure ?? (saves.isEmpty ? nil : "another process held the store's lock") {
            throw UnsavedOnExit(message: "quit with changes that could not be saved (\(saves.count)): \(reason)")
        }
    }

    private static func outsideChange(_ session: StoreSession) -> Event? {
        do {
            switch try session.poll() {
            case nil: return nil
            case .records(let records)?: return .changedOutside(records)
            case .reloaded(let list)?: return .reloaded(list)
            }
        } catch {
            return .saveFailed(reason: reason(error))
        }
    }

    static func reason(_ error: StoreError) -> String {
        switch error.problem {
        case .unwritable(let reason), .locked(let reason): reason
        default: error.description
        }
    }
}

/// The UI's changes on their way to the store, oldest first. A change stays here until the
/// store has committed it: while another process holds the lock, or a save fails, it is kept
/// (and shown) and tried again.
struct SaveQueue {
    let session: StoreSession
    private var queue: [Save] = []
    private(set) var lastFailure: String?

    init(session: StoreSession) {
        self.session = session
    }

    var isEmpty: Bool { queue.isEmpty }
    var count: Int { queue.count }

    mutating func append(_ save: Save) {
        queue.append(save)
    }

    /// Saves what it can, in order; returns what happened, as events for `update`. `current`
    /// is the UI's list (written whole only if the store's files have all vanished).
    mutating func flush(current: TaskList) -> [Event] {
        var events: [Event] = []
        while let save = queue.first {
            do {
                switch try session.save(save.changes, what: save.what, undoes: save.undoes, current: current) {
                case .committed(let clock, let outside):
                    events.append(.saved(save, clock: clock, outside: outside))
                case .reloaded(let list, let clock):
                    events += [.reloaded(list), .saved(save, clock: clock, outside: [])]
                case .busy:
                    events.append(.saveWaiting)
                    return events
                }
                queue.removeFirst()
                lastFailure = nil
            } catch {
                lastFailure = TerminalApp.reason(error)
                events.append(.saveFailed(reason: TerminalApp.reason(error)))
                return events
            }
        }
        return events
    }
}

/// Folds a long change log into a new snapshot on a thread of its own, one run at a time.
final class BackgroundCompaction: @unchecked Sendable {
    private let store: TaskStore
    private let lock = NSLock()
    private var running = false

    init(store: TaskStore) {
        self.store = store
    }

    func startIfNeeded() {
        guard store.wantsCompaction() else { return }
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        running = true
        Thread.detachNewThread { [self] in
            try? store.compact()
            lock.lock()
            running = false
            lock.unlock()
        }
    }

    /// Waits for a run under way to finish (on quit: the process must not end mid-write).
    func wait() {
        while true {
            lock.lock()
            let busy = running
            lock.unlock()
            guard busy else { return }
            usleep(10_000)
        }
    }
}
