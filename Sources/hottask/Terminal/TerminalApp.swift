import Foundation
import HotTaskCore
import HotTaskUI

/// The terminal UI's run loop: read an event, update the state, perform the effects, draw.
enum TerminalApp {
    /// How often the store file is checked for changes made by other processes.
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
        let curses = Curses(theme: config.theme)
        defer { curses.stop() }
        var state = AppState(tasks: tasks, size: curses.size, config: config)
        _ = AppUpdate.update(&state, .resized(curses.size), now: Timestamp.now())
        if let configWarning { state.message = Message(configWarning, kind: .error) }
        curses.draw(AppRender.render(state, size: state.size))
        var lastOutsideCheck = Date()

        running: while Signals.received == 0 {
            var pending: [Event] = []
            let key = curses.nextEvent()
            // Between keys (the read wakes every 250 ms) look for changes from other processes.
            // An outside change is shown before the key is handled: the session has already
            // taken it as its base, so the key's change must be made on top of it.
            if Date().timeIntervalSince(lastOutsideCheck) >= outsideChangeInterval {
                lastOutsideCheck = Date()
                if let event = outsideChange(session, state.tasks) { pending.append(event) }
            }
            if let key { pending.append(key) }
            guard !pending.isEmpty else { continue }
            var fullRepaint = false
            while !pending.isEmpty {
                let effects = AppUpdate.update(&state, pending.removeFirst(), now: Timestamp.now())
                for effect in effects {
                    switch effect {
                    case .save(let list):
                        pending += save(list, session)
                    case .quit:
                        break running
                    case .suspend:
                        curses.stop()
                        Signals.suspendSelf()
                        fullRepaint = true
                        pending.append(.resized(curses.size))
                    case .redraw:
                        fullRepaint = true
                    }
                }
            }
            curses.draw(AppRender.render(state, size: state.size), fullRepaint: fullRepaint)
        }
        // Leaving with a change that could not be saved: one more try, else say so (once the
        // terminal is restored, by the defer above) and exit non-zero; never a silent exit 0.
        if let earlier = state.saveError, case .saveFailed(let reason)? = save(state.tasks, session).first {
            throw UnsavedOnExit(message: "quit with changes that could not be saved: \(reason) (first: \(earlier))")
        }
    }

    /// Saves at once; the outcome goes back into the state as events. A save that merged in
    /// changes from another process also shows them.
    private static func save(_ list: TaskList, _ session: StoreSession) -> [Event] {
        do {
            let stored = try session.save(list)
            return stored == list ? [.saveSucceeded] : [.saveSucceeded, .tasksChangedOutside(stored)]
        } catch {
            return [.saveFailed(reason: reason(error))]
        }
    }

    private static func outsideChange(_ session: StoreSession, _ tasks: TaskList) -> Event? {
        guard session.fileChangedOutside else { return nil }
        do {
            return try session.refresh(tasks).map { .tasksChangedOutside($0) }
        } catch {
            return .saveFailed(reason: reason(error))
        }
    }

    private static func reason(_ error: StoreError) -> String {
        if case .unwritable(let reason) = error.problem { return reason }
        return error.description
    }
}
