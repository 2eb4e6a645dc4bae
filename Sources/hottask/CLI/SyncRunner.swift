import Foundation
import HotTaskCore
import HotTaskUI

/// Runs `hottask-sync` (installed beside `hottask`) for `--sync` and the UI's background sync.
/// A process of its own keeps the networking libraries out of every other command's start-up.
enum SyncRunner {
    /// What one run said: its exit code, its stdout (the report) and its stderr (why it failed).
    struct Outcome {
        var status: Int32
        var report: String
        var message: String
    }

    /// `hottask-sync` in the folder of the running `hottask` (symbolic links followed).
    static var helper: String {
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent("hottask-sync").path
    }

    static func arguments(store: TaskStore, settings: SyncSettings, quiet: Bool) -> [String] {
        var arguments = ["--store", store.path, "--url", settings.url]
        if let username = settings.username { arguments += ["--username", username] }
        if let command = settings.passwordCommand { arguments += ["--password-command", command] }
        if quiet { arguments.append("--quiet") }
        return arguments
    }

    /// Runs one sync; `capture` collects its output instead of passing it through.
    static func run(store: TaskStore, settings: SyncSettings, capture: Bool) -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            return Outcome(status: 5, report: "", message: "cannot sync: \(helper) is missing (install it beside hottask: make install)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = arguments(store: store, settings: settings, quiet: capture)
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        if capture {
            process.standardOutput = output
            process.standardError = errors
        }
        do {
            try process.run()
        } catch {
            return Outcome(status: 5, report: "", message: "cannot run \(helper): \(error.localizedDescription)")
        }
        // Read both before waiting: a full pipe would block the child.
        var report = Data()
        var message = Data()
        if capture {
            let group = DispatchGroup()
            let box = Collected()
            DispatchQueue.global().async(group: group) { box.errors = errors.fileHandleForReading.readDataToEndOfFile() }
            report = output.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            message = box.errors
        }
        process.waitUntilExit()
        let text = { (data: Data) in String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        let status = process.terminationReason == .exit ? process.terminationStatus : 5
        return Outcome(status: status, report: text(report), message: text(message))
    }

    private final class Collected: @unchecked Sendable {
        var errors = Data()
    }
}

/// `--sync` cannot start (no `[sync]`, a config with a problem); nothing was changed.
struct SyncCommandFailure: Error {
    let message: String
}
