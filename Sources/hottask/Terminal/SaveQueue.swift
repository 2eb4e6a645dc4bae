import HotTaskCore
import HotTaskUI

/// The UI's changes on their way to the store, oldest first. A change stays here until the
/// store has committed it: while another process holds the lock, or a save fails, it is kept
/// (and shown) and tried again.
struct SaveQueue {
    let session: StoreSession
    private var queue: [Save] = []
    /// The last failure in full, for stderr; nil once a save works or waits for the lock.
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
                    // The store's list, with the changes still queued behind this one on top, as
                    // the UI shows them: one that then waits or fails stays on screen and goes
                    // to the rescue file on quit.
                    var shown = list
                    // In one pass each: no view follows these edits (a queued clear is 30,000 changes).
                    for queued in queue.dropFirst() { _ = shown.applyInOnePass(queued.changes, clock: .zero, force: true) }
                    events += [.reloaded(shown), .saved(save, clock: clock, outside: [])]
                case .busy:
                    // Waiting for a lock is not failing: an earlier failure is over.
                    lastError = nil
                    events.append(.saveWaiting)
                    return events
                }
                queue.removeFirst()
                lastError = nil
            } catch {
                lastError = TerminalApp.fullReason(error)
                events.append(.saveFailed(reason: TerminalApp.reason(error)))
                return events
            }
        }
        return events
    }
}
