import CalDAV
import Foundation
import HotTaskCore

/// The collection `[sync]` names, with the password from `password_command`.
enum SyncSetup {
    static func collection(url: String, username: String?, passwordCommand: String?, quiet: Bool) throws(SyncFailure)
        -> HTTPCalendarCollection
    {
        let password = try passwordCommand.map { command throws(SyncFailure) in try runPasswordCommand(command, quiet: quiet) }
        return try HTTPCalendarCollection(url: url, username: username, password: password)
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
}
