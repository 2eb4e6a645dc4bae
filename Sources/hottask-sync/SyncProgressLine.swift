import Foundation

/// "sending 120/2000 tasks" on stderr while a long sync writes, when stderr is a terminal: one
/// line rewritten in place, at most ten times a second, and only once the sync has taken half a
/// second (a short one prints nothing). Cleared before the summary.
final class SyncProgressLine: @unchecked Sendable {
    private let started = Date()
    private var lastShown = Date.distantPast
    private var shown = false
    private let lock = NSLock()  // show() is called from the sending threads
    private let onTerminal: Bool

    /// `enabled` false (the UI's sync): nothing is shown.
    init(enabled: Bool) {
        onTerminal = enabled && isatty(2) == 1
    }

    func show(sent: Int, of total: Int) {
        guard onTerminal else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(started) > 0.5, now.timeIntervalSince(lastShown) > 0.1 || sent == total else { return }
        lastShown = now
        shown = true
        FileHandle.standardError.write(Data("\rhottask: sending \(sent)/\(total) tasks\u{1B}[K".utf8))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

/// The UI's sync (`--quiet`): "progress SENT TOTAL" lines on stdout, at most ten a second and
/// the last one always, for its footer ("syncing 120/2000").
final class ProgressForTheUI: @unchecked Sendable {
    private let enabled: Bool
    private var lastShown = Date.distantPast
    private let lock = NSLock()  // show() is called from the sending threads

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(sent: Int, of total: Int) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastShown) > 0.1 || sent == total else { return }
        lastShown = now
        FileHandle.standardOutput.write(Data("progress \(sent) \(total)\n".utf8))
    }
}
