import CalDAV
import Foundation
import HotTaskCore

/// The collection `[sync]` names, with the password from `password_command`.
enum SyncSetup {
    /// `password` is the one written in the URL, when there is no password_command.
    static func collection(url: String, username: String?, passwordCommand: String?, password: String? = nil, quiet: Bool)
        throws(SyncFailure) -> HTTPCalendarCollection
    {
        let password = try passwordCommand.map { command throws(SyncFailure) in try runPasswordCommand(command, quiet: quiet) } ?? password
        if password != nil, url.lowercased().hasPrefix("http://"), !SyncURL.isLoopback(url), !quiet {
            let host = URLComponents(string: url)?.host ?? url
            FileHandle.standardError.write(Data("hottask: warning: the password goes to \(host) unencrypted (http://); use https://\n".utf8))
        }
        return try HTTPCalendarCollection(url: url, username: username, password: password)
    }

    /// Runs the command by `/bin/sh`; its first line is the password. It is never stored.
    /// `quiet` (the UI) keeps what it says on stderr off the screen.
    static func runPasswordCommand(_ command: String, quiet: Bool) throws(SyncFailure) -> String {
        try PasswordCommand.run(command, quiet: quiet)
    }
}
