import Foundation

/// The last terminating signal received (SIGTERM, SIGHUP, SIGINT), or 0.
///
/// A signal handler may only set a flag; the run loop, which wakes at least every 250 ms,
/// sees it and leaves through the normal path that restores the terminal.
nonisolated(unsafe) private var pendingSignal: sig_atomic_t = 0

enum Signals {
    static func installTerminationHandlers() {
        for signal in [SIGTERM, SIGHUP, SIGINT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { pendingSignal = $0 }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocking read returns at once
            sigaction(signal, &action, nil)
        }
    }

    static var received: Int32 { pendingSignal }

    /// Stops the process as the shell's Ctrl-Z would; returns after `fg`.
    static func suspendSelf() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
    }
}
