import FoundationEssentials
import Glibc

/// When the UI syncs with `[sync]`: at start, a few seconds after a change here, every few
/// minutes while nothing changes, and after a failure again after 15 s, 30 s, 60 s… up to the
/// interval. A value in the state: `update` decides on each timer event, and the run loop only
/// starts the sync it asks for (`Effect.startSync`).
public struct SyncSchedule: Equatable, Sendable {
    /// How long after a change the sync starts (changes made meanwhile go in the same sync).
    var afterChange: TimeInterval = 3
    /// How often it syncs while nothing changes here.
    var interval: TimeInterval
    /// The first wait after a failure; each failure in a row doubles it.
    var firstRetry: TimeInterval
    /// When the next sync is due (nil: at the interval after the last start).
    private(set) var due: Date?
    private(set) var lastStart = Date.distantPast
    /// A sync is running: no other starts until it ends.
    private(set) var running = false
    private var failuresInARow = 0

    /// A schedule whose first sync is due at `now`.
    public init(now: Date, interval: TimeInterval = 300, firstRetry: TimeInterval = 15) {
        self.interval = interval
        self.firstRetry = firstRetry
        due = now
    }

    /// When the next sync starts if nothing changes meanwhile; nil while one runs (its end
    /// comes as an event).
    var nextStart: Date? {
        running ? nil : due ?? lastStart.addingTimeInterval(interval)
    }

    /// A change was saved here: sync soon.
    mutating func changed(now: Date) {
        let soon = now.addingTimeInterval(afterChange)
        if due.map({ $0 > soon }) ?? true { due = soon }
    }

    /// True, and the sync counted as started, when one should start at `now`.
    mutating func startIfDue(now: Date) -> Bool {
        if due == nil, now.timeIntervalSince(lastStart) >= interval { due = now }
        guard !running, let due, due <= now else { return false }
        running = true
        self.due = nil
        lastStart = now
        return true
    }

    /// The sync started last ended; after a failure the next is due after the backoff.
    mutating func finished(succeeded: Bool, now: Date) {
        running = false
        guard !succeeded else {
            failuresInARow = 0
            return
        }
        let wait = min(firstRetry * pow(2, Double(min(failuresInARow, 10))), interval)
        failuresInARow += 1
        let retry = now.addingTimeInterval(wait)
        if due.map({ $0 > retry }) ?? true { due = retry }
    }
}
