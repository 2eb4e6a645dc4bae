import ArgumentParser

/// The exit codes documented in the README.
enum ExitStatus {
    /// The request was refused: a caption the input rule rejects, an unknown task, a bad import.
    static let refused = ExitCode(1)
    /// The store could not be read or is damaged; it was left untouched.
    static let storeUnreadable = ExitCode(2)
    /// The store (or an export file) could not be written; the previous file is unchanged.
    static let storeUnwritable = ExitCode(3)
    /// The terminal UI could not start (no terminal).
    static let noTerminal = ExitCode(4)
    /// The change was saved, but what the command had to write after it (standard output, an
    /// export file) could not be: running the command again would make the change twice.
    static let savedButOutputFailed = ExitCode(6)
    /// A sync could not finish (server unreachable, refusing, or no [sync] config); every local
    /// change is kept in the store.
    static let syncFailed = ExitCode(5)
}
