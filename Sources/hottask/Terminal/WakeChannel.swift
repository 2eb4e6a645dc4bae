import FoundationEssentials
import Glibc
import HotTaskCore

/// The one channel that wakes the run loop when something happens off its thread (Bubble Tea's
/// `Msg` channel): a background job that finished or reported, the store thread's outcome, a
/// signal. A pipe whose read end the loop sleeps on with the terminal and the store's folder;
/// writers add a byte (non-blocking: a full pipe already wakes), the loop drains it.
final class WakeChannel: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw UserFacingError(.noTerminal, "cannot start the UI: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the loop (from any thread).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe: the loop looks at everything that may have woken it each time.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while bytes.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
