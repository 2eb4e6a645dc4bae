import CalDAV
import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// The collection `[sync]` names, with the password from `password_command`.
enum SyncSetup {
    /// How long a request may wait for the server: 30 s, or less by `HOTTASK_SYNC_TIMEOUT` (tests).
    static var timeout: TimeInterval {
        let given = ProcessInfo.processInfo.environment["HOTTASK_SYNC_TIMEOUT"].flatMap(Double.init) ?? 30
        return min(max(given, 0.5), 30)
    }

    /// How long a whole sync may take: 30 min (`HOTTASK_SYNC_DEADLINE` seconds, for tests, up
    /// to it). Past it no request starts, and the sync stops saying so; what it did is kept.
    static var deadline: TimeInterval {
        let given = ProcessInfo.processInfo.environment["HOTTASK_SYNC_DEADLINE"].flatMap(Double.init) ?? 1800
        return min(max(given, 1), 1800)
    }

    /// `password` is the one written in the URL, when there is no password_command.
    static func collection(
        url: String, username: String?, passwordCommand: String?, password: String? = nil, quiet: Bool, caFile: String? = nil,
        connections: Int? = nil
    ) throws(SyncFailure) -> HTTPCalendarCollection {
        let password = try self.password(command: passwordCommand, given: password, quiet: quiet)
        return try collection(url: url, username: username, password: password, quiet: quiet, caFile: caFile, connections: connections)
    }

    /// The password: `command`'s first line, else the one `given` (written in the URL).
    static func password(command: String?, given: String?, quiet: Bool) throws(SyncFailure) -> String? {
        try command.map { command throws(SyncFailure) in try runPasswordCommand(command, quiet: quiet) } ?? given
    }

    /// The collection at `url`, logging in with `password` (warned about over plain http).
    static func collection(
        url: String, username: String?, password: String?, quiet: Bool, caFile: String?, connections: Int?
    ) throws(SyncFailure) -> HTTPCalendarCollection {
        if password != nil, url.lowercased().hasPrefix("http://"), !SyncURL.isLoopback(url), !quiet {
            let host = URLComponents(string: url)?.host ?? url
            say("hottask: warning: the password goes to \(TerminalText.escaped(host)) unencrypted (http://); use https://")
        }
        return try HTTPCalendarCollection(
            url: url, username: username, password: password, timeout: timeout, parallelRequests: connections ?? 8, caFile: caFile,
            deadline: deadline)
    }

    /// Runs the command by `/bin/sh`; its first line is the password. It is never stored.
    /// `quiet` (the UI) keeps what it says on stderr off the screen.
    static func runPasswordCommand(_ command: String, quiet: Bool) throws(SyncFailure) -> String {
        try PasswordCommand.run(command, quiet: quiet)
    }
}
