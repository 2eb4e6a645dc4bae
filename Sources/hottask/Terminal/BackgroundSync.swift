import Foundation
import HotTaskCore
import HotTaskUI

/// The UI's sync with the `[sync]` calendar, on a thread of its own so that no key waits for
/// the network: at start, a few seconds after each change, and every few minutes. Its changes
/// to the list reach the UI as any other process's do (the store session's poll).
final class BackgroundSync: @unchecked Sendable {
    /// How long after a change the sync starts (changes made meanwhile go in the same sync).
    static let afterChange: TimeInterval = 3
    /// How often it syncs while nothing changes here (`HOTTASK_SYNC_INTERVAL` seconds, for tests).
    static let interval: TimeInterval = {
        let given = ProcessInfo.processInfo.environment["HOTTASK_SYNC_INTERVAL"].flatMap(TimeInterval.init)
        return given.map { max($0, 1) } ?? 300
    }()

    private let store: TaskStore
    private let settings: SyncSettings
    private let lock = NSLock()
    private var running = false
    private var due: Date?
    private var lastStart = Date.distantPast
    private var finished: SyncStatus?
    /// Said once when a sync starts: "syncing…".
    private var started: SyncStatus?
    /// Failures in a row: a failed sync is tried again after 15 s, 30 s, 60 s… up to `interval`.
    private var failuresInARow = 0
    /// The first wait after a failure (`HOTTASK_SYNC_RETRY` seconds, for tests).
    static let firstRetry: TimeInterval = {
        let given = ProcessInfo.processInfo.environment["HOTTASK_SYNC_RETRY"].flatMap(TimeInterval.init)
        return given.map { max($0, 1) } ?? 15
    }()

    init(store: TaskStore, settings: SyncSettings) {
        self.store = store
        self.settings = settings
        due = Date()
    }

    /// A change was saved here: sync soon.
    func changed() {
        lock.lock()
        defer { lock.unlock() }
        let soon = Date().addingTimeInterval(Self.afterChange)
        if due == nil || due! > soon { due = soon }
    }

    /// Called between keys: starts a sync when one is due, and returns how the last one ended
    /// (once).
    func tick() -> SyncStatus? {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        if due == nil, now.timeIntervalSince(lastStart) >= Self.interval { due = now }
        if !running, let due, due <= now {
            running = true
            self.due = nil
            lastStart = now
            started = SyncStatus(summary: "syncing…", running: true)
            Thread.detachNewThread { [self] in run() }
        }
        // The end of a sync before its start, when both happened since the last tick.
        defer {
            finished = nil
            started = nil
        }
        return finished ?? started
    }

    private func run() {
        let outcome = SyncRunner.run(store: store, settings: settings, report: .collected) { [self] sent, total in
            lock.lock()
            started = SyncStatus(summary: "syncing \(sent)/\(total)", running: true)
            lock.unlock()
        }
        let status =
            outcome.status == 0
            ? SyncStatus(summary: "synced \(Self.clock(Date()))")
            : SyncStatus(
                summary: "sync failed \(Self.clock(Date()))",
                // hottask-sync --quiet: a line for the footer, then (maybe) the whole reason.
                failure: String(outcome.message.prefix { $0 != "\n" }),
                detail: outcome.message.contains("\n") ? String(outcome.message.drop { $0 != "\n" }.dropFirst()) : nil)
        // The sync's changes reach the list through the store session's poll, like any other process's.
        lock.lock()
        finished = status
        running = false
        if outcome.status == 0 {
            failuresInARow = 0
        } else {
            let wait = min(Self.firstRetry * pow(2, Double(min(failuresInARow, 10))), Self.interval)
            failuresInARow += 1
            let retry = Date().addingTimeInterval(wait)
            if due == nil || due! > retry { due = retry }
        }
        lock.unlock()
    }

    private static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}
