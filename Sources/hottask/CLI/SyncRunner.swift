import Foundation
import HotTaskCore
import HotTaskSettings

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

    /// Runs one sync, its report going where `report` says.
    /// `onProgress` (the UI, `.collected`): called from a reader thread with writes sent of all.
    static func run(
        store: TaskStore, settings: SyncSettings, report: Report, options: Options = Options(),
        onProgress: (@Sendable (_ sent: Int, _ total: Int) -> Void)? = nil
    ) -> Outcome {
        let quiet = report == .collected
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            return Outcome(status: 5, message: "cannot sync: \(helper) is missing (install it beside hottask: make install)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = arguments(store: store, settings: settings, quiet: quiet, options: options)
        process.environment = environment(settings: settings)
        // Only this process holds the pipe's other end: when it exits or is killed, the sync
        // sees the end of its input and stops (--die-with-parent).
        let lifeline = Pipe()
        process.standardInput = lifeline.fileHandleForReading
        let errors = Pipe()
        // In quiet mode hottask-sync writes "progress SENT TOTAL" lines on stdout.
        let progress = Pipe()
        switch report {
        case .toStandardOutput: break
        case .toStandardError: process.standardOutput = FileHandle.standardError
        case .dropped: process.standardOutput = FileHandle.nullDevice
        case .collected:
            process.standardOutput = progress
            process.standardError = errors
        }
        // The sync and its password command start with SIGPIPE as usual, whatever we ignore.
        let pipeSignal = signal(SIGPIPE, SIG_DFL)
        defer { signal(SIGPIPE, pipeSignal) }
        do {
            try process.run()
        } catch {
            return Outcome(status: 5, message: "cannot run \(helper): \(error.localizedDescription)")
        }
        // Read before waiting: a full pipe would block the child.
        try? lifeline.fileHandleForReading.close()
        let progressRead = DispatchSemaphore(value: 0)
        if quiet {
            let reading = progress.fileHandleForReading
            Thread.detachNewThread {
                ProgressLines.read(reading, onProgress)
                progressRead.signal()
            }
        }
        let message = quiet ? errors.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        if quiet { progressRead.wait() }
        withExtendedLifetime(lifeline) {}
        let status = process.terminationReason == .exit ? process.terminationStatus : 5
        return Outcome(status: status, message: String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The lines hottask-sync writes on stdout for the UI: "progress SENT TOTAL" while it writes
/// (the summary line after it is not for the UI, which reads the store).
enum ProgressLines {
    static func read(_ handle: FileHandle, _ onProgress: (@Sendable (Int, Int) -> Void)?) {
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            pending += chunk
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
