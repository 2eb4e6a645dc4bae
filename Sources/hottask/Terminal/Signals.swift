import Foundation

/// The last terminating signal received (SIGTERM, SIGHUP, SIGINT), or 0.
///
/// A signal handler may only set a flag; the run loop, which wakes at least every 250 ms,
/// sees it and leaves through the normal path that restores the terminal.
nonisolated(unsafe) private var pendingSignal: sig_atomic_t = 0
/// Set by SIGTSTP from outside (`kill -TSTP`; Ctrl-Z arrives as a key in raw mode).
nonisolated(unsafe) private var pendingStop: sig_atomic_t = 0

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

    /// SIGTSTP sets a flag, like the terminating signals: the run loop then suspends through
    /// the same path as Ctrl-Z, which gives the terminal back first. Installed before ncurses
    /// starts, which then leaves SIGTSTP alone (its own handler leaves mouse reports and
    /// bracketed paste on, and it ignores SIGTSTP while it writes).
    static func installStopHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in pendingStop = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: the read returns at once
        sigaction(SIGTSTP, &action, nil)
    }

    /// True once after a SIGTSTP arrived.
    static func takeStopRequest() -> Bool {
        guard pendingStop != 0 else { return false }
        pendingStop = 0
        return true
    }

    /// Stops the process as the shell's Ctrl-Z would; returns after `fg`. The handler comes
    /// back at once, so that every later Ctrl-Z or SIGTSTP restores the terminal too (it was
    /// left at the default after the first, and a `kill -TSTP` then stopped the process with
    /// the alternate screen and mouse reports still on).
    static func suspendSelf() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        installStopHandler()
        pendingStop = 0  // a stop asked for meanwhile is this one
    }
}
