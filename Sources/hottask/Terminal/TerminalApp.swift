import Foundation
import HotTaskCore
import HotTaskUI

/// The terminal UI's run loop: read an event, update the state, perform the effects, draw.
enum TerminalApp {
    /// How often the store is checked for changes made by other processes.
    static let outsideChangeInterval: TimeInterval = 0.5

    /// `configWarning` (a config file that could not be used) is shown in the footer at start.
    /// Returns a warning for stderr, said once the terminal is restored (the view could not be
    /// remembered).
    static func run(store: TaskStore, config: AppConfig = .standard, configWarning: String? = nil) throws -> String? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalUnavailable(
                message: "the task list UI needs a terminal; for scripts use --list, --add and the other options (see --help)")
        }
        // Read before touching the screen: a damaged store is reported, never shown as empty.
        let session = StoreSession(store: store)
        let tasks = try session.open()
        Signals.installTerminationHandlers()
        // Before ncurses starts: it leaves a SIGTSTP handler it finds alone, and its own sets
        // SIGTSTP to "ignore" while it writes a frame (a `kill -TSTP` then was lost).
        Signals.installStopHandler()
        let curses = try Curses(theme: config.theme, mouse: config.mouse)
        defer { curses.stop() }
        let environment = ProcessInfo.processInfo.environment
        var state = AppState(tasks: tasks, size: curses.size, config: config)
        let rememberedDetails = RememberedView.details(environment: environment)
        state.showsDetails = rememberedDetails ?? config.details
        _ = AppUpdate.update(&state, .resized(curses.size), now: Timestamp.now())
        // Text typed before the last quit, back where it was.
        if let draft = DraftFile.load(store: store.path, environment: environment) { AppUpdate.restore(draft, &state) }
        if let configWarning { state.message = Message(configWarning, kind: .error) }
        curses.draw(AppRender.render(state, size: state.size))
        // The filter's folded captions, made once the first frame is on screen.
        state.view.foldCaptions(state.tasks)
        var lastOutsideCheck = Date()
        var lastMinute = Int(Date().timeIntervalSince1970 / 60)
        /// Why the store could not be read at the last look, in full (nil once it can again).
        var storeProblem: String?
        var saves = SaveQueue(session: session)
        let compaction = BackgroundCompaction(store: store)
        let sync = config.sync.map { BackgroundSync(store: store, settings: $0) }

        running: while Signals.received == 0 {
            var pending: [Event] = []
            let keys = curses.nextEvents()
            var fullRepaint = false
            /// Gives the terminal back (normal screen, no mouse reports, no bracketed paste),
            /// stops, and on `fg` takes it again and redraws everything.
            func suspend() {
                curses.stop()
                Signals.suspendSelf()
                curses.resume()
                fullRepaint = true
                pending.append(.resized(curses.size))
            }
            if Signals.takeStopRequest() { suspend() }
            // Between keys (the read wakes every 250 ms): changes that waited for the lock, then
            // changes from other processes. Both are shown before the key is handled, so that
            // the key acts on the list as it is.
            pending += saves.flush(current: state.tasks)
            if saves.isEmpty, Date().timeIntervalSince(lastOutsideCheck) >= outsideChangeInterval {
                lastOutsideCheck = Date()
                pending += outsideChanges(session, problem: &storeProblem)
            }
            if let status = sync?.tick() { pending.append(.synced(status)) }
            // "added just now" becomes "1 minute ago" without a key being pressed.
            let minute = Int(Date().timeIntervalSince1970 / 60)
            if state.showsDetails, minute != lastMinute { pending.append(.clockTicked) }
            lastMinute = minute
            pending += keys
            guard !pending.isEmpty else { continue }
            while !pending.isEmpty {
                let event = pending.removeFirst()
                if case .saved = event { storeProblem = nil }  // a commit read the store and wrote it
                let effects = AppUpdate.update(&state, event, now: Timestamp.now())
                for effect in effects {
                    switch effect {
                    case .save(let save):
                        saves.append(save)
                        sync?.changed()
                        pending += saves.flush(current: state.tasks)
                    case .quit:
                        break running
                    case .suspend:
                        suspend()
                    case .redraw:
                        fullRepaint = true
                    }
                }
            }
            // A long log is folded into a new snapshot on another thread: no key waits for it.
            if saves.isEmpty { compaction.startIfNeeded() }
            curses.draw(AppRender.render(state, size: state.size), fullRepaint: fullRepaint)
            // After a list read again in full, as at start: folded once the frame is shown.
            state.view.foldCaptions(state.tasks)
        }
        // Whatever way out (a key, SIGTERM, SIGHUP): text typed and not added is kept first.
        let draftProblem = DraftFile.keep(state.draft, store: store.path, environment: environment)
        // Leaving with changes not saved yet: wait a while for a lock another process holds
        // (not for a store that failed: waiting would not mend it). If anything is left
        // unsaved, or the store could not be read at the last look, every task the UI holds
        // goes to a rescue file beside the store; said on stderr once the terminal is
        // restored (by the defer above), exit 3. Never a silent exit, never tasks lost.
        func flushAtExit() {
            if saves.flush(current: state.tasks).contains(where: { if case .saved = $0 { true } else { false } }) { storeProblem = nil }
        }
        flushAtExit()
        let deadline = Date().addingTimeInterval(TaskStore.lockWait)
        while !saves.isEmpty, saves.lastFailure == nil, Date() < deadline {
            usleep(50_000)
            flushAtExit()
        }
        // The details choice is remembered once, on the way out, when it changed: not on the
        // key, where a file write and two fsyncs would hold up the screen.
        let viewProblem = state.showsDetails == (rememberedDetails ?? config.details)
            ? nil : RememberedView.remember(details: state.showsDetails, environment: environment)
        compaction.wait()
        // `storeProblem`, not the footer's text: a store that read again since needs no rescue.
        if !saves.isEmpty || storeProblem != nil {
            let reason = saves.lastError ?? storeProblem ?? "another process held the store's lock"
            let what = saves.isEmpty ? "quit while the store could not be read" : "quit with changes that could not be saved (\(saves.count))"
            let rescue = Rescue.write(state.tasks, besides: store.path)
            throw UnsavedOnExit(message: "\(what): \(reason); " + rescue + (draftProblem.map { "; " + $0 } ?? ""))
        }
        return [draftProblem, viewProblem].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
    }

    private static func outsideChanges(_ session: StoreSession, problem: inout String?) -> [Event] {
        do {
            let outside = try session.poll()
            let recovered: [Event] = problem != nil ? [.storeRecovered] : []
            problem = nil
            switch outside {
            case nil: return recovered
            case .records(let records)?: return recovered + [.changedOutside(records)]
            case .reloaded(let list)?: return recovered + [.reloaded(list)]
            }
        } catch {
            problem = fullReason(error)
            return [.saveFailed(reason: reason(error))]
        }
    }

    /// Why a save failed, for the footer: short enough for one 80-column line beside the
    /// position, and saying what to do.
    static func reason(_ error: StoreError) -> String {
        switch error.problem {
        case .unwritable(let reason), .locked(let reason): return reason
        case .unreadable, .invalid, .missing, .damagedLog:
            let name = error.path.split(separator: "/").last.map(String.init) ?? "the store"
            return "\(name) is damaged: ^C saves your tasks to a rescue file"
        }
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension TerminalApp {
    /// Why a save failed, in full (for stderr, where there is room).
    static func fullReason(_ error: StoreError) -> String {
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
    /// The last failure in full, for stderr.
    private(set) var lastError: String?

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
                    // Waiting for a lock is not failing: an earlier failure is over.
                    lastFailure = nil
                    lastError = nil
                    events.append(.saveWaiting)
                    return events
                }
                queue.removeFirst()
                lastFailure = nil
                lastError = nil
            } catch {
                lastFailure = TerminalApp.reason(error)
                lastError = TerminalApp.fullReason(error)
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
