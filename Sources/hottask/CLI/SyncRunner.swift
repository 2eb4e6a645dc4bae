import Dispatch
import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `hottask-sync` (installed beside `hottask`) for `--sync` and the UI's background sync.
/// A process of its own keeps the networking libraries out of every other command's start-up.
enum SyncRunner {
    /// How one run ended: its exit code, and why it failed (nothing when it said so itself).
    struct Outcome {
        var status: Int32
        var message: String
    }

    /// `hottask-sync` in the folder of the running `hottask` (symbolic links followed).
    static var helper: String {
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent("hottask-sync").path
    }

    /// What the user asked of this one sync (`--force-delete`, `--resync`).
    struct Options {
        var forceDelete = false
        var forgetBase = false
    }

    static func arguments(store: TaskStore, settings: SyncSettings, quiet: Bool, options: Options = Options()) -> [String] {
        let url = SyncURL(settings.url)
        var arguments = ["--store", store.path, "--url", url.url, "--die-with-parent"]
        if let username = settings.username ?? url.username { arguments += ["--username", username] }
        if let command = settings.passwordCommand { arguments += ["--password-command", command] }
        if let caFile = settings.caFile { arguments += ["--ca-file", caFile] }
        if let connections = settings.connections { arguments += ["--connections", String(connections)] }
        // Several calendars, each a list: their URLs, one a line.
        if let calendars = settings.calendars { arguments += ["--calendars", calendars.joined(separator: "\n")] }
        if quiet { arguments.append("--quiet") }
        if options.forceDelete { arguments.append("--force-delete") }
        if options.forgetBase { arguments.append("--resync") }
        return arguments
    }

    /// The environment `hottask-sync` runs in: a password written in the URL goes here, never
    /// into its arguments (which every user can read in /proc).
    static func environment(settings: SyncSettings) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[SyncURL.passwordVariable] = nil
        if settings.passwordCommand == nil, let password = SyncURL(settings.url).password {
            environment[SyncURL.passwordVariable] = password
        }
        return environment
    }

    /// Where the helper's report ("Synced with …") goes.
    enum Report {
        case toStandardOutput
        /// When stdout carries data (`--sync --list --json`).
        case toStandardError
        /// `--quiet`: no report; a failure still says why on stderr.
        case dropped
        /// The UI: no report, and the one-line reason for a failure returned.
        case collected
    }

    /// Runs one sync, its report going where `report` says. `origin`: what the sync's records
    /// are named by (the UI's own syncs, which it offers for undo).
    /// `onProgress` (the UI, `.collected`): called from a reader thread with writes sent of all.
    ///
    /// Spawned and waited for with `posix_spawn` and `waitpid`: the wait ends when the helper
    /// ends (Foundation's `Process` waited in a run loop that a clock moved by libfaketime kept
    /// from ever waking), and a helper killed by a signal is said, never an empty exit 5.
    static func run(
        store: TaskStore, settings: SyncSettings, report: Report, options: Options = Options(), origin: String? = nil,
        onProgress: (@Sendable (_ sent: Int, _ total: Int) -> Void)? = nil
    ) -> Outcome {
        let quiet = report == .collected
        guard access(helper, X_OK) == 0 else {
            return Outcome(status: 5, message: "cannot sync: \(helper) is missing (install it beside hottask: make install)")
        }
        var environment = environment(settings: settings)
        environment["HOTTASK_ORIGIN"] = origin
        // Only this process holds the lifeline's write end: when it exits or is killed, the sync
        // sees the end of its input and stops (--die-with-parent).
        guard let lifeline = ChildPipe(), let errors = ChildPipe(), let progress = ChildPipe() else {
            return Outcome(status: 5, message: "cannot sync: \(String(cString: strerror(errno)))")
        }
        defer { [lifeline, errors, progress].forEach { $0.closeBoth() } }
        let child = ChildProcess()
        child.copy(lifeline.readEnd, as: 0)
        switch report {
        case .toStandardOutput: break
        case .toStandardError: child.copy(2, as: 1)
        case .dropped: child.open("/dev/null", as: 1, flags: O_WRONLY)
        case .collected:
            // In quiet mode hottask-sync writes "progress SENT TOTAL" lines on stdout.
            child.copy(progress.writeEnd, as: 1)
            child.copy(errors.writeEnd, as: 2)
        }
        // The sync and its password command start with SIGPIPE as usual, whatever we ignore,
        // and with no signal blocked.
        child.defaultSignals([SIGPIPE])
        let (pid, spawned) = child.start(
            helper, [helper] + arguments(store: store, settings: settings, quiet: quiet, options: options), environment: environment)
        // Our copies of the child's ends: the pipes end when the child does.
        lifeline.closeReadEnd()
        errors.closeWriteEnd()
        progress.closeWriteEnd()
        guard spawned == 0 else { return Outcome(status: 5, message: "cannot run \(helper): \(String(cString: strerror(spawned)))") }
        var message: [UInt8] = []
        if quiet {
            let reading = progress.readEnd
            let progressRead = DispatchSemaphore(value: 0)
            OwnThread.detach {
                ProgressLines.read(reading, onProgress)
                progressRead.signal()
            }
            message = errors.readToEnd()
            progressRead.wait()
        }
        let status = ChildProcess.wait(pid)
        let text = String(decoding: message, as: UTF8.self).trimmingBlanksAndNewlines()
        let signal = status & 0x7f
        guard signal != 0 else { return Outcome(status: (status >> 8) & 0xff, message: text) }
        // Killed: what it committed before is in the store (each answer of the server as it came).
        let stopped =
            "cannot sync: \(URL(fileURLWithPath: helper).lastPathComponent) was stopped by \(Self.name(ofSignal: signal)) before it finished; "
            + "what it had done is kept, run hottask --sync again"
        return Outcome(status: 5, message: text.isEmpty ? stopped : text + "; " + stopped)
    }

    /// "SIGKILL (signal 9)".
    static func name(ofSignal signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        ]
        return names[signal].map { "\($0) (signal \(signal))" } ?? "signal \(signal)"
    }
}

/// A pipe to a child process, both ends close-on-exec in this process (the spawn's dup2
/// gives the child its own copy without the flag).
final class ChildPipe {
    private(set) var readEnd: Int32
    private(set) var writeEnd: Int32

    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    }

    func closeReadEnd() {
        if readEnd >= 0 { close(readEnd) }
        readEnd = -1
    }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    func closeBoth() {
        closeReadEnd()
        closeWriteEnd()
    }

    /// Everything the read end gives until the other end closes (at most 64 KB kept).
    func readToEnd() -> [UInt8] { Descriptor.readAll(readEnd, keeping: 64 << 10) }
}

/// The lines hottask-sync writes on stdout for the UI: "progress SENT TOTAL" while it writes
/// (the summary line after it is not for the UI, which reads the store).
enum ProgressLines {
    static func read(_ fd: Int32, _ onProgress: (@Sendable (Int, Int) -> Void)?) {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            pending += buffer[0..<count]
            while let end = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                pending = Data(pending[pending.index(after: end)...])
                let parts = line.split(separator: " ")
                if parts.count == 3, parts[0] == "progress", let sent = Int(parts[1]), let total = Int(parts[2]) {
                    onProgress?(sent, total)
                }
            }
        }
    }
}
