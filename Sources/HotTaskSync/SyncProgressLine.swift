import FoundationEssentials
import Glibc
import HotTaskCore
import Synchronization

/// "sending 120/2000 tasks" on stderr while a long sync writes, when stderr is a terminal: one
/// line rewritten in place, at most ten times a second, and only once the sync has taken half a
/// second (a short one prints nothing). Cleared before the summary.
final class SyncProgressLine: Sendable {
    private let started = Date()
    /// When the line was last written, and whether it ever was; `show` is called from the
    /// sending threads.
    private let drawn = Mutex((last: Date.distantPast, ever: false))
    private let onTerminal: Bool

    /// `enabled` false (the UI's sync): nothing is shown.
    init(enabled: Bool) {
        onTerminal = enabled && isatty(2) == 1
    }

    func show(sent: Int, of total: Int) {
        guard onTerminal else { return }
        drawn.withLock { drawn in
            let now = Date()
            guard now.timeIntervalSince(started) > 0.5, now.timeIntervalSince(drawn.last) > 0.1 || sent == total else { return }
            drawn = (now, true)
            try? Descriptor.write("\rhottask: sending \(sent)/\(total) tasks\u{1B}[K", to: 2)
        }
    }

    func finish() {
        drawn.withLock { drawn in
            if drawn.ever { try? Descriptor.write("\r\u{1B}[K", to: 2) }
        }
    }
}

/// The UI's sync (`--quiet`): "progress SENT TOTAL" lines on stdout, at most ten a second and
/// the last one always, for its footer ("syncing 120/2000").
final class ProgressForTheUI: Sendable {
    private let enabled: Bool
    /// When a line was last written; `show` is called from the sending threads.
    private let lastShown = Mutex(Date.distantPast)

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(sent: Int, of total: Int) {
        guard enabled else { return }
        lastShown.withLock { lastShown in
            let now = Date()
            guard now.timeIntervalSince(lastShown) > 0.1 || sent == total else { return }
            lastShown = now
            try? Descriptor.write("progress \(sent) \(total)\n", to: 1)
        }
    }
}
