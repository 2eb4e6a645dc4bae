import Foundation

/// A child process started with `posix_spawnp` and reaped with `waitpid`.
///
/// Not Foundation's `Process`: on Linux it can miss the exit of a child that dies at once
/// (a test that kills it right away then waits forever), and when the child forks a daemon
/// (tmux) it waits for the daemon too.
///
/// A child starts as a shell would start it: no signal blocked, every signal at its default,
/// and no descriptor of the test process but 0, 1 and 2. The test runner's threads block most
/// signals, and a posix_spawn child inherits the calling thread's mask: a tmux server started
/// that way never saw SIGTERM, SIGHUP or its own kill-server's signals, and lived on.
public struct ChildProcess {
    public let pid: pid_t

    /// Starts `command` (the first element is looked up on PATH), with stdin from `stdinPath`
    /// (default /dev/null) and stdout/stderr to the given files (default /dev/null).
    public init(
        _ command: [String], environment: [String: String]? = nil, stdinPath: String = "/dev/null",
        stdoutPath: String = "/dev/null", stderrPath: String = "/dev/null"
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = spawn_file_actions_addclosefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let status = withCStrings(command) { argv in
            withCStrings(variables) { envp in posix_spawnp(&pid, command[0], &actions, &attributes, argv, envp) }
        }
        guard status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot run \(command[0]): \(String(cString: strerror(status)))"])
        }
        self.pid = pid
    }

    /// Waits for the exit; nil if it did not come within `timeout` seconds (the child is then
    /// killed). An exit by signal N reports 128 + N, as shells do.
    public func wait(timeout: TimeInterval = 20) -> Int32? {
        waitMeasuringCPU(timeout: timeout)?.status
    }

    /// `wait`, with the CPU seconds (user + system) the child and every child it waited for
    /// used, from wait4: a scaling test compares these, never wall time. `peakKiB`: the
    /// child's largest resident size.
    public func waitMeasuringCPU(timeout: TimeInterval = 20) -> (status: Int32, cpuSeconds: Double, peakKiB: Int)? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let result = wait4(pid, &status, WNOHANG, &usage)
            if result == pid { break }
            if result < 0 && errno != EINTR { return nil }
            if Date() > deadline {
                _ = Glibc.kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return nil
            }
            usleep(2_000)
        }
        let signal = status & 0x7F
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, seconds(usage.ru_utime) + seconds(usage.ru_stime), usage.ru_maxrss)
    }

    public func kill(_ signal: Int32) {
        _ = Glibc.kill(pid, signal)
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

/// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which Swift's Glibc module
/// does not import.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawn_file_actions_addclosefrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
