import Foundation

/// What runs on a timer, decided on each `Event.timerFired`: looking at the store for other
/// processes' changes, starting a sync when one is due, and redrawing relative times when the
/// minute turns. The run loop only performs the effects.
extension AppUpdate {
    /// How often the store is looked at for changes other processes made.
    static let outsideLookInterval: TimeInterval = 0.5

    static func timerFired(_ state: inout AppState, now: Date) -> [Effect] {
        var effects: [Effect] = []
        if now.timeIntervalSince(state.lastOutsideLook) >= outsideLookInterval || now < state.lastOutsideLook {
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
        // "added just now" becomes "1 minute ago" without a key being pressed.
        let minute = Int(now.timeIntervalSince1970 / 60)
        if minute != state.lastMinute {
            state.lastMinute = minute
            if state.showsDetails { effects.append(.refresh) }
        }
        return effects
    }
}
