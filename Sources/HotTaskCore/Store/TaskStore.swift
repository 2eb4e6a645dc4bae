import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// The task store: a snapshot (`tasks.json`) and a change log beside it (`tasks.json.journal`).
///
/// Every change is one record appended to the log and fsynced; that append is the commit.
/// Compaction folds the log into a new snapshot (temp file, fsync, rename, folder fsync) under
/// a new generation, so the log's old records are never replayed on it. Readers take no lock:
/// the snapshot they read names its generation and they replay only that generation's whole
/// records, so they always see a state some command made. Writers hold the lock file, waiting
/// a bounded time. See RELIABILITY.md.
public struct TaskStore: Sendable {
    /// Records the log holds before a writer folds it into the snapshot (`HOTTASK_LOG_LIMIT`
    /// sets it, for tests).
    static let logLimit: Int = {
        guard let text = ProcessInfo.processInfo.environment["HOTTASK_LOG_LIMIT"], let value = Int(text), value > 0 else {
            return 1000
        }
        return value
    }()
    /// Records of older generations kept after compaction, for `--undo`: at most this many, each
    /// at most `historyRecordLimit` bytes, all together at most `historyByteLimit`.
    static let historyKept = 100
    static let historyRecordLimit = 64 << 10
    static let historyByteLimit = 512 << 10
    /// How long a writer waits for another process's lock (`HOTTASK_LOCK_WAIT`, seconds).
    public static let lockWait: TimeInterval = {
        guard let text = ProcessInfo.processInfo.environment["HOTTASK_LOCK_WAIT"], let value = Double(text), value >= 0,
            value <= 600
        else { return 5 }
        return value
    }()

    /// The store file, with symbolic links resolved: a save replaces the link's target.
    public let path: String

    public init(path: String) {
        self.path = FileSystem.resolvingSymlinks(path)
    }

    /// The lock file beside the store.
    var lockPath: String { path + ".lock" }
    /// A copy of the snapshot as of the last compaction.
    var backupPath: String { path + ".bak" }
    /// The change log.
    var journalPath: String { path + ".journal" }
    /// Where each task lies in the snapshot, for changes by id (see `SnapshotIndex`).
    var indexPath: String { path + ".index" }
    /// Log lines that could not be read, kept for a person to look at.
    var damagedPath: String { journalPath + ".damaged" }
    /// The store and every file HotTask keeps beside it: none may be written over by an export.
    public var ownFiles: [String] {
        [
            path, journalPath, backupPath, lockPath, indexPath, damagedPath, ImportBase.path(besides: self), SyncBase.path(besides: self),
            CarriedFields.path(besides: self),
        ]
    }
    var log: ChangeLog { ChangeLog(path: journalPath) }
}
