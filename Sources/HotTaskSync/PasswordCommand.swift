import FoundationEssentials
import Glibc
import HotTaskCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `password_command` by `/bin/sh` in a process group of its own, with a time limit: a
/// command that hangs (a keyring waiting for a prompt nobody sees) is stopped with everything
/// it started (`sh -c "sleep 600"` leaves `sleep` holding the pipe when only `sh` is killed).
enum PasswordCommand {
    /// How long the command may take (`HOTTASK_PASSWORD_TIMEOUT` seconds, for tests, up to it).
    static var limit: TimeInterval {
        let given = ProcessInfo.processInfo.environment["HOTTASK_PASSWORD_TIMEOUT"].flatMap(Double.init) ?? 60
        return min(max(given, 0.1), 60)
    }

    /// The group of the command running now, for `ParentWatch` to end it with this process;
    /// once it is ending, no command starts. One lock for both: a parent killed while the
    /// command was being spawned left it running when the group was set after the spawn.
    private static let running = Mutex(Running())

    private struct Running: Sendable {
        var group: pid_t = 0
        var ending = false
    }

    /// Ends the command running now, with everything it started, and any command about to start.
    static func endRunning() {
        running.withLock { running in
            running.ending = true
            if running.group > 0 { kill(-running.group, SIGKILL) }
        }
    }

    /// The first line the command prints. `quiet` (the UI) keeps its stderr off the screen.
    static func run(_ command: String, quiet: Bool) throws(SyncFailure) -> String {
        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw SyncFailure("cannot run the password_command: \(String(cString: strerror(errno)))") }
        let child = ChildProcess()
        child.open("/dev/null", as: 0, flags: O_RDONLY)
        child.copy(output[1], as: 1)
        if quiet { child.open("/dev/null", as: 2, flags: O_WRONLY) }
        child.close(output[0])
        child.close(output[1])
        // A group of its own (pgid = its pid), and the signals a shell expects.
        child.defaultSignals([SIGPIPE], unblocked: false, ownGroup: true)

        var pid: pid_t = 0
        let spawned = running.withLock { running -> Int32 in
            guard !running.ending else { return ECANCELED }
            let started = child.start("/bin/sh", ["/bin/sh", "-c", command])
            if started.error == 0 { (pid, running.group) = (started.pid, started.pid) }
            return started.error
        }
        close(output[1])
        guard spawned == 0 else {
            close(output[0])
            throw SyncFailure("cannot run the password_command: \(String(cString: strerror(spawned)))")
        }
        defer { running.withLock { $0.group = 0 } }

        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(limit)
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                timedOut = true
                break
            }
            var poller = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            let count = read(output[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if bytes.count < 64 * 1024 { bytes += buffer[0..<count] }
        }
        close(output[0])
        if timedOut {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            throw SyncFailure("the password_command did not finish within \(Int(limit)) s and was stopped; nothing was synced")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw SyncFailure(
                exited
                    ? "the password_command exited with status \(code); nothing was synced"
                    : "the password_command was killed by signal \(status & 0x7f); nothing was synced")
        }
        let firstLine = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let password = String(firstLine.hasSuffix("\r") ? firstLine.dropLast() : firstLine)
        guard !password.isEmpty else { throw SyncFailure("the password_command printed an empty password; nothing was synced") }
        return password
    }
}

/// `hottask-sync --die-with-parent`: its standard input is a pipe whose other end only the
/// `hottask` that started it holds. When that end closes (hottask exited, or was killed), this
/// process ends too, with the password command it may be running: a sync never outlives its
/// parent and never keeps the parent's stderr open.
enum ParentWatch {
    static func start() {
        OwnThread.detach {
            var byte: UInt8 = 0
            while true {
                let count = read(0, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
            }
            PasswordCommand.endRunning()
            _exit(ExitStatus.syncFailed.rawValue)
        }
    }
}
