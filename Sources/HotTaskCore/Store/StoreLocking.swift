import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// The lock writers hold, and turning file-system failures into store errors.
extension TaskStore {
    /// Runs `body` holding the store's lock (creating the folder if needed), waiting at most
    /// `wait` seconds for another process to let go.
    func withLock<T>(wait: TimeInterval = TaskStore.lockWait, _ body: () throws -> T) throws -> T {
        // A folder in the store's place is said as a reader says it, before a lock file is made
        // beside it.
        if (try? FileSystem.kind(of: path)) == .directory { _ = try openSnapshotFile() }
        // No store yet, in a folder one cannot write: said as for a store that exists (chmod
        // u+w), not as a lock file that cannot be opened.
        if access(lockPath, F_OK) != 0, (try? FileSystem.kind(of: FileSystem.folder(of: path))) == .directory { try requireWritableFolder() }
        let lock = try withFileErrors { () throws(FileSystem.Failure) in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            if let problem = untrusted() { throw FileSystem.Failure(reason: "not safe to use: \(problem)") }
            return try FileLock(path: lockPath, wait: wait)
        }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    /// `withLock` with every error as a `StoreError`.
    func withLockOrStoreError<T>(wait: TimeInterval = TaskStore.lockWait, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try withLock(wait: wait) { () throws -> T in try body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, problem: .unwritable("\(error)"))
        }
    }

    /// Removes temp files that saves killed midway left (of the store, its log and its backup).
    /// Only while holding the lock: then no live save owns one of them.
    func removeCrashDebris() {
        FileSystem.removeCrashDebris(
            stores: [path, journalPath, backupPath, indexPath],
            sideFiles: [ImportBase.path(besides: self), CarriedFields.path(besides: self), SyncBase.path(besides: self)])
    }

    /// Why the store or its folder is not safe to use (another user's, or others may write
    /// it), or nil. Asked by every reader and writer before anything is read or written.
    func untrusted() -> String? {
        FileSystem.untrustedFolder(FileSystem.folder(of: path)) ?? FileSystem.untrusted(path)
    }

    func withFileErrors<T>(_ body: () throws(FileSystem.Failure) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(path: path, problem: error.busy ? .locked(error.reason) : .unwritable(error.reason))
        }
    }
}
