import FoundationEssentials
import Glibc
import HotTaskCore

/// What runs on a timer, decided on each `Event.timerFired`: looking at the store for other
/// processes' changes (only while it cannot be watched, or a save waits for its lock), starting
/// a sync when one is due, and redrawing what the time changes on screen (relative times, a due
/// date turning overdue). The run loop only performs the effects, and sleeps until
/// `nextTimedEvent` in between: with none of these, for ever.
extension AppUpdate {
    /// How often the store is looked at when it cannot be watched, and a save waiting for the
    /// lock is tried again.
    static let outsideLookInterval: TimeInterval = 0.5

    static func timerFired(_ state: inout AppState, now: Date) -> [Effect] {
        var effects: [Effect] = []
        if !state.watchesStore || state.saveWaiting,
            now.timeIntervalSince(state.lastOutsideLook) >= outsideLookInterval || now < state.lastOutsideLook
        {
            state.lastOutsideLook = now
            effects.append(.lookForOutsideChanges)
        }
        if var schedule = state.syncSchedule, schedule.startIfDue(now: now) {
            state.syncSchedule = schedule
            // "syncing…", keeping the last failure for the help overlay and for saying it once.
            state.syncStatus = SyncStatus(
                summary: "syncing…", failure: state.syncStatus?.failure, detail: state.syncStatus?.detail, running: true)
            effects += [.startSync, .refresh]
        }
        // "added just now" becomes "1 minute ago", "due today" "! today", without a key.
        if let change = timeChanges(state, after: state.lastTimeCheck), change <= now, !effects.contains(.refresh) {
            effects.append(.refresh)
        }
        state.lastTimeCheck = now
        return effects
    }

    /// When the run loop must wake with `Event.timerFired` if nothing else happens first; nil
    /// when nothing is due at any time (the loop then sleeps until a key, a signal, a background
    /// job or a change to the store).
    public static func nextTimedEvent(_ state: AppState, now: Date) -> Date? {
        var times: [Date] = []
        if !state.watchesStore || state.saveWaiting { times.append(state.lastOutsideLook.addingTimeInterval(outsideLookInterval)) }
        if let sync = state.syncSchedule?.nextStart { times.append(sync) }
        if let change = timeChanges(state, after: now) { times.append(change) }
        return times.min()
    }

    /// The first moment after `after` when the screen reads differently by the time alone: the
    /// next minute while details show relative times, and for the due dates on screen the next
    /// midnight or the second a due time passes.
    static func timeChanges(_ state: AppState, after: Date) -> Date? {
        guard !state.screen.isTooSmall else { return nil }
        var times: [Date] = []
        if state.showsDetails {
            times.append(Date(timeIntervalSince1970: ((after.timeIntervalSince1970 / 60).rounded(.down) + 1) * 60))
        }
        let dates = DueDisplay(now: after, local: state.zone, format: state.dateFormat)
        let layout = state.layout
        for row in state.scrollOffset..<min(layout.rowCount, state.scrollOffset + state.screen.listHeight) {
            guard case .task(let display) = layout.content(ofRow: row) else { continue }
            if let due = state.tasks[state.view.position(ofDisplay: display, in: state.tasks)].due {
                times.append(dates.nextChange(of: due))
            }
        }
        return times.min()
    }
}
