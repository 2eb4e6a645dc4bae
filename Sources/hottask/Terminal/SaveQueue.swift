import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskUI

/// The UI's changes on their way to the store, oldest first. A change stays here until the
/// store has committed it: while another process holds the lock, or a save fails, it is kept
/// (and shown) and tried again. Used by one thread at a time: the store thread while the UI
/// runs (`StoreWorker`), the run loop on the way out.
struct SaveQueue {
    let session: StoreSession
    /// Each save with the number of tasks the UI's list held once it made it.
    private var queue: [(save: Save, count: Int)] = []
    /// The last failure in full, for stderr; nil once a save works or waits for the lock.
    private(set) var lastError: String?
    /// The stamps of this UI's committed steps, by step id, so that an undo queued before its
    /// step's save came back still names the record it takes back.
    private var stamps: [Int: Clock] = [:]

    init(session: StoreSession) {
        self.session = session
    }

    var isEmpty: Bool { queue.isEmpty }
    var count: Int { queue.count }

    mutating func append(_ save: Save, count: Int) {
        queue.append((save, count))
    }

    /// What a flush did: events for `update`, and whether the store vanished and wants the UI's
    /// whole list before anything more can be saved.
    struct Flushed {
        var events: [Event] = []
        var needsList = false
    }

    /// Saves what it can, in order; returns what happened, as events for `update`. `list` is the
    /// UI's whole list, when the caller has it (written whole only if the store's files have all
    /// vanished).
    mutating func flush(list: TaskList? = nil) -> Flushed {
        var flushed = Flushed()
        while let (save, count) = queue.first {
            var undoes = save.undoes
            if undoes == nil, let step = save.undoesStep { undoes = stamps[step] }
            do {
                switch try session.save(
                    save.changes, what: save.what, undoes: undoes, count: list?.count ?? count, list: list, condition: save.condition)
                {
                case .committed(let clock, let outside):
                    flushed.events.append(.saved(save, clock: clock, outside: outside))
                    if let file = save.keptFile { unlink(file) }
                    if let step = save.stepID { stamps[step] = clock }
                case .reloaded(let list, let clock, let activity):
                    // The store's list: the UI puts its changes still unsaved back on top of it.
                    flushed.events += [.reloaded(list, activity: activity), .saved(save, clock: clock, outside: [])]
                    if let file = save.keptFile { unlink(file) }
                    if let step = save.stepID { stamps[step] = clock }
                case .busy:
                    // Waiting for a lock is not failing: an earlier failure is over.
                    lastError = nil
                    flushed.events.append(.saveWaiting)
                    return flushed
                case .needsList:
                    flushed.needsList = true
                    return flushed
                case .refused(let reason):
                    // Nothing written, and nothing to try again: the UI takes its change back.
                    flushed.events.append(.saveRefused(save, reason: reason))
                }
                queue.removeFirst()
                lastError = nil
            } catch {
                lastError = TerminalApp.fullReason(error)
                flushed.events.append(.saveFailed(reason: TerminalApp.reason(error)))
                return flushed
            }
        }
        return flushed
    }
}
