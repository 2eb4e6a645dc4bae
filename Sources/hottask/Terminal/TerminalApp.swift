import Foundation
import HotTaskCore
import HotTaskUI

/// The terminal UI's run loop: read an event, update the state, perform the effects, draw.
enum TerminalApp {
    static func run(store: TaskStore) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalUnavailable(
                message: "the task list UI needs a terminal; for scripts use --list, --add and the other options (see --help)")
        }
        // Read before touching the screen: a damaged store is reported, never shown as empty.
        let tasks = try store.load()
        Signals.installTerminationHandlers()
        let curses = Curses()
        defer { curses.stop() }
        var state = AppState(tasks: tasks, size: curses.size)
        _ = AppUpdate.update(&state, .resized(curses.size), now: Timestamp.now())
        curses.draw(AppRender.render(state, size: state.size))

        while Signals.received == 0 {
            guard let event = curses.nextEvent() else { continue }
            var pending = [event]
            var fullRepaint = false
            while !pending.isEmpty {
                let effects = AppUpdate.update(&state, pending.removeFirst(), now: Timestamp.now())
                for effect in effects {
                    switch effect {
                    case .save(let list):
                        pending.append(save(list, to: store))
                    case .quit:
                        return
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
    }

    /// Saves at once; the outcome goes back into the state as an event.
    private static func save(_ list: TaskList, to store: TaskStore) -> Event {
        do {
            try store.save(list)
            return .saveSucceeded
        } catch {
            if case .unwritable(let reason) = error.problem { return .saveFailed(reason: reason) }
            return .saveFailed(reason: error.description)
        }
    }
}
