/// The exit statuses both programs give, as the README's table lists them.
public enum ExitStatus: Int32, Sendable {
    /// The request was refused: a caption the input rule rejects, an unknown task, a bad import.
    case refused = 1
    /// The store could not be read or is damaged; it was left untouched.
    case storeUnreadable = 2
    /// The store (or an export file, or standard output) could not be written; the previous
    /// file is unchanged.
    case storeUnwritable = 3
    /// The terminal UI could not start (no terminal).
    case noTerminal = 4
    /// A sync could not finish (server unreachable, refusing, or no [sync] config); every local
    /// change is kept in the store.
    case syncFailed = 5
    /// The change was saved, but what the command had to write after it (standard output, an
    /// export file) could not be: running the command again would make the change twice.
    case savedButOutputFailed = 6
    /// A flag or an argument is wrong (sysexits' EX_USAGE).
    case usage = 64
}

/// Why a program stops: the sentence it says on stderr and the status it exits with. The one
/// place an error becomes an exit status, for `hottask` and `hottask-sync` alike.
public struct UserFacingError: Error, Sendable {
    public var message: String
    public var status: ExitStatus
    /// An output (standard output, an export file) could not be written. When the command had
    /// saved a change before, the program says so and exits `savedButOutputFailed` instead.
    var isOutputFailure = false

    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// An output that could not be written (3, or 6 once a change was saved).
    public static func output(_ message: String) -> UserFacingError {
        var error = UserFacingError(.storeUnwritable, message)
        error.isOutputFailure = true
        return error
    }

    /// The store's errors: unreadable, invalid, missing or damaged is 2; unwritable or locked 3.
    public init(_ error: StoreError) {
        switch error.problem {
        case .unreadable, .invalid, .missing, .damagedLog: self.init(.storeUnreadable, error.description)
        case .unwritable, .locked: self.init(.storeUnwritable, error.description)
        }
    }

    /// This error as the program reports it after a change was saved (`saved`).
    public func reported(saved: Bool) -> UserFacingError {
        guard isOutputFailure, saved else { return self }
        return UserFacingError(
            .savedButOutputFailed,
            "saved, but could not write the output: \(message). The change is in the store: running the command again would make it twice")
    }
}
