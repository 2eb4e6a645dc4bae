import CalDAV
import Foundation
import HotTaskCore
import HotTaskUI

/// `--sync` and the UI's background sync: the settings from `[sync]` made into a collection.
enum SyncSetup {
    /// The collection `[sync]` names, with the password from `password_command`.
    static func collection(_ settings: SyncSettings, quiet: Bool = false) throws(SyncFailure) -> HTTPCalendarCollection {
        let password = try settings.passwordCommand.map { command throws(SyncFailure) in try runPasswordCommand(command, quiet: quiet) }
        return try HTTPCalendarCollection(url: settings.url, username: settings.username, password: password)
    }

    /// Runs the command by `/bin/sh`; its first line is the password. It is never stored.
    /// `quiet` (the UI) keeps what it says on stderr off the screen.
    static func runPasswordCommand(_ command: String, quiet: Bool) throws(SyncFailure) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        if quiet { process.standardError = FileHandle.nullDevice }
        do {
            try process.run()
        } catch {
            throw SyncFailure("cannot run the password_command: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SyncFailure("the password_command exited with status \(process.terminationStatus); nothing was synced")
        }
        let firstLine = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        return String(firstLine.hasSuffix("\r") ? firstLine.dropLast() : firstLine)
    }

    /// One sync of `store` with the calendar `[sync]` names.
    static func run(store: TaskStore, settings: SyncSettings, quiet: Bool = false) throws -> SyncReport {
        let collection = try collection(settings, quiet: quiet)
        return try SyncEngine(store: store, collection: collection).run()
    }
}

/// The server could not be synced with; the store holds every local change.
struct SyncCommandFailure: Error {
    let message: String
}
