import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings
import HotTaskUI
import Synchronization

/// The UI's background work beside the store thread (`StoreWorker`): a sync with `[sync]` (the
/// network) and writing the draft file, each on a thread of its own so that no key waits for it.
/// `update` asks for a sync (`Effect.startSync`); what it reports comes back as events (`drain`),
/// and every report wakes the run loop (`wake`), which hands them to `update` before the keys
/// that came meanwhile.
///
/// Threads, not tasks: both block (a child process, fsync), and a blocked task would hold one
/// of the two threads of the cooperative pool on this kind of machine.
final class BackgroundJobs: Sendable {
    /// How often the UI syncs while nothing changes here (`HOTTASK_SYNC_INTERVAL` seconds, for tests).
    static let syncInterval: TimeInterval = {
        let given = ProcessInfo.processInfo.environment["HOTTASK_SYNC_INTERVAL"].flatMap(TimeInterval.init)
        return given.map { max($0, 1) } ?? 300
    }()
    /// The first wait after a failed sync (`HOTTASK_SYNC_RETRY` seconds, for tests).
    static let firstSyncRetry: TimeInterval = {
        let given = ProcessInfo.processInfo.environment["HOTTASK_SYNC_RETRY"].flatMap(TimeInterval.init)
        return given.map { max($0, 1) } ?? 15
    }()

    private let store: TaskStore
    private let syncSettings: SyncSettings?
    /// What the jobs reported and `update` has not seen yet.
    private let reported = Mutex<[Event]>([])
    /// Wakes the run loop.
    private let wake: @Sendable () -> Void
    /// The newest draft not written yet, and whether a writer runs.
    private let draftToWrite = Mutex<(draft: Draft?, writing: Bool)>((nil, false))

    /// What this UI's syncs name their records by.
    private let origin: String

    init(store: TaskStore, sync: SyncSettings?, origin: String, wake: @escaping @Sendable () -> Void) {
        self.store = store
        syncSettings = sync
        self.origin = origin
        self.wake = wake
    }

    /// The events reported since the last call, oldest first.
    func drain() -> [Event] {
        reported.withLock { events in
            defer { events = [] }
            return events
        }
    }

    private func report(_ event: Event) {
        reported.withLock { $0.append(event) }
        wake()
    }

    /// Runs `hottask-sync` once; its progress and its end come back as events. The sync's
    /// changes to the list reach the UI as any other process's do (the store session's poll).
    func startSync() {
        guard let settings = syncSettings else { return }
        OwnThread.detach { [self] in
            let outcome = SyncRunner.run(store: store, settings: settings, report: .collected, origin: origin) { [self] sent, total in
                report(.syncProgress(sent: sent, total: total))
            }
            // hottask-sync escaped what it said; again here (it changes nothing then) for any other writer.
            let message = TerminalText.escaped(outcome.message, keepingLineBreaks: true)
            let time = Self.clock(Date())
            report(.unsteppable(store.unsteppableSeries()))
            report(
                .synced(
                    outcome.status == 0
                        ? SyncStatus(summary: "synced \(time)")
                        : SyncStatus(
                            summary: "sync failed \(time)",
                            // hottask-sync --quiet: a line for the footer, then (maybe) the whole reason.
                            failure: String(message.prefix { $0 != "\n" }),
                            detail: message.contains("\n") ? String(message.drop { $0 != "\n" }.dropFirst()) : nil)))
        }
    }

    /// Looks up the synced tasks whose series HotTask cannot step, on a thread of its own (the
    /// sync state is read), when sync is set up.
    func findUnsteppable() {
        guard syncSettings != nil else { return }
        OwnThread.detach { [self] in report(.unsteppable(store.unsteppableSeries())) }
    }

    /// Writes `draft` to the draft file on a thread of its own; drafts handed over meanwhile
    /// are coalesced, the newest written last. A failure is said on the way out, where the
    /// last draft is written again in the foreground.
    func keepDraft(_ draft: Draft, environment: [String: String]) {
        let start = draftToWrite.withLock { state in
            state.draft = draft
            defer { state.writing = true }
            return !state.writing
        }
        guard start else { return }
        let store = store.path
        OwnThread.detach { [self] in
            while let next = nextDraft() { _ = DraftFile.keep(next, store: store, environment: environment) }
        }
    }

    /// The draft to write next; nil (and the writer done) when none waits.
    private func nextDraft() -> Draft? {
        draftToWrite.withLock { state in
            defer { state.draft = nil }
            if state.draft == nil { state.writing = false }
            return state.draft
        }
    }

    /// Waits for a draft write under way (on quit, before the last one is written).
    func waitForDraft() {
        while draftToWrite.withLock({ $0.writing }) { usleep(2_000) }
    }

    /// "14:05" in the local zone.
    private static func clock(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + ZoneInfo.current.secondsFromGMT(for: date)
        let inDay = (seconds % 86_400 + 86_400) % 86_400
        return (inDay / 3600).zeroPadded(2) + ":" + (inDay / 60 % 60).zeroPadded(2)
    }
}
