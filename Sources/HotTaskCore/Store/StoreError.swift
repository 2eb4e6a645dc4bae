import FoundationEssentials
import Glibc

/// A store that could not be read or written. Every message names the file.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Problem: Equatable, Sendable {
        /// The file exists but could not be read (permissions, a folder in its place...).
        case unreadable(String)
        /// The file was read but is not a valid store; it is left untouched.
        case invalid(DocumentError)
        /// A save failed; the previous file is still in place.
        case unwritable(String)
        /// The snapshot is gone while files beside it hold tasks; the text says how to restore.
        case missing(String)
        /// Another process held the lock for longer than a writer waits; nothing was written.
        case locked(String)
        /// The change log (the file named) lost acknowledged changes or belongs to another
        /// snapshot of `store`: what is wrong. Nothing is changed until `--recover` is run.
        case damagedLog(String, store: String)
    }

    public let path: String
    let problem: Problem
    /// A backup that was read and found whole, when one exists (for damaged stores).
    let backupPath: String?

    /// Why a write did not happen when the store itself is fine (it could not be written, or
    /// another process held the lock too long); nil when it is unreadable, damaged or missing.
    public var writeFailure: String? {
        switch problem {
        case .unwritable(let reason), .locked(let reason): reason
        case .unreadable, .invalid, .missing, .damagedLog: nil
        }
    }

    /// Another process held the lock for longer than a writer waits.
    public var isLocked: Bool {
        if case .locked = problem { true } else { false }
    }

    init(path: String, problem: Problem, backupPath: String? = nil) {
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
                + (backupPath.map {
                    "the backup \($0) reads whole and, with the change log beside it, holds every change since it was made (to go back to it: cp '\($0)' '\(path)')"
                } ?? "to keep every change that can still be read and set the damaged file aside: \(Self.recoverCommand(path))")
        case .unwritable(let reason):
            "could not save the task store \(path): \(reason). "
                + (access(path, F_OK) == 0 ? "The previous file is unchanged" : "Nothing was written") + fullDiskStep(reason)
        case .locked(let reason):
            "could not change the task store \(path): \(reason)"
        case .missing(let message):
            "the task store \(path) is missing: \(message). Nothing was written"
        case .damagedLog(let reason, let store):
            "the change log \(path) \(reason). Nothing was changed. "
                + "To keep every change that can still be read and set the damaged file aside: \(Self.recoverCommand(store))"
        }
    }

    /// Where a full disk (or quota) is and what to do, after a save it stopped; empty otherwise.
    private func fullDiskStep(_ reason: String) -> String {
        guard [ENOSPC, EDQUOT].contains(where: { reason.hasSuffix(String(cString: strerror($0))) }) else { return "" }
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return "; free some space on the disk that holds \(folder) (df -h '\(folder)') and try again"
    }

    /// The command that recovers `store`, as a user types it.
    static func recoverCommand(_ store: String) -> String {
        "hottask --file '\(store)' --recover"
    }
}

extension StoreError {
    /// The change log lost acknowledged changes or belongs to another snapshot.
    var isDamagedLog: Bool {
        if case .damagedLog = problem { return true }
        return false
    }
}
