/// A store that could not be read or written. Every message names the file.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// The file exists but could not be read (permissions, a folder in its place...).
        case unreadable(String)
        /// The file was read but is not a valid store; it is left untouched.
        case invalid(DocumentError)
        /// A save failed; the previous file is still in place.
        case unwritable(String)
    }

    public let path: String
    public let problem: Problem
    /// A backup of the last good version, when one exists (for damaged stores).
    public let backupPath: String?

    public init(path: String, problem: Problem, backupPath: String? = nil) {
        self.path = path
        self.problem = problem
        self.backupPath = backupPath
    }

    public var description: String {
        switch problem {
        case .unreadable(let reason):
            "cannot read the task store \(path): \(reason)"
        case .invalid(let reason):
            "the task store \(path) is damaged: \(reason). It was left untouched; "
                + (backupPath.map { "the last good version is in \($0) (to go back to it: cp '\($0)' '\(path)')" }
                    ?? "fix or move it away and try again")
        case .unwritable(let reason):
            "could not save the task store \(path): \(reason). The previous file is unchanged"
        }
    }
}
