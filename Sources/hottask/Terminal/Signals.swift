import FoundationEssentials
import Glibc

/// The last terminating signal received (SIGTERM, SIGHUP, SIGINT), or 0.
///
/// A signal handler only sets a flag and writes a byte to the wake channel (`write` is safe in
/// a handler); the run loop, asleep on that channel, wakes at once, sees the flag and leaves
/// through the normal path that restores the terminal.
nonisolated(unsafe) private var pendingSignal: sig_atomic_t = 0
/// Set by SIGTSTP from outside (`kill -TSTP`; Ctrl-Z arrives as a key in raw mode).
nonisolated(unsafe) private var pendingStop: sig_atomic_t = 0
/// Set by SIGWINCH: the terminal changed size.
nonisolated(unsafe) private var pendingResize: sig_atomic_t = 0
/// The wake channel's write end, for the handlers (-1 until the UI runs).
nonisolated(unsafe) private var wakeDescriptor: Int32 = -1
/// The byte the handlers write, allocated before any handler runs.
nonisolated(unsafe) private var wakeByte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

enum Signals {
    /// The handlers write to `channel` from now on.
    static func wake(_ channel: WakeChannel) {
        wakeByte.pointee = 1
        wakeDescriptor = channel.writeEnd
    }

    /// Called in a handler: a byte for the run loop, never blocking.
    fileprivate static func wakeFromHandler() {
        if wakeDescriptor >= 0 { _ = write(wakeDescriptor, wakeByte, 1) }
    }

    static func installTerminationHandlers() {
        for signal in [SIGTERM, SIGHUP, SIGINT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                pendingSignal = signal
                Signals.wakeFromHandler()
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocking read returns at once
            sigaction(signal, &action, nil)
        }
    }

    static var received: Int32 { pendingSignal }

    /// SIGWINCH sets a flag and wakes the loop, which then asks the terminal its size. Installed
    /// before ncurses starts, which then leaves SIGWINCH alone: its own handler only set a flag
    /// that `wgetch` looked at, and the loop no longer waits in `wgetch`.
    static func installResizeHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            pendingResize = 1
            Signals.wakeFromHandler()
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGWINCH, &action, nil)
    }

    /// True once after a SIGWINCH arrived.
    static func takeResize() -> Bool {
        guard pendingResize != 0 else { return false }
        pendingResize = 0
        return true
    }

    /// SIGTSTP sets a flag, like the terminating signals: the run loop then suspends through
    /// the same path as Ctrl-Z, which gives the terminal back first. Installed before ncurses
    /// starts, which then leaves SIGTSTP alone (its own handler leaves mouse reports and
    /// bracketed paste on, and it ignores SIGTSTP while it writes).
    static func installStopHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            pendingStop = 1
            Signals.wakeFromHandler()
        }
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
