import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The lock writers hold, and turning file-system failures into store errors.
extension TaskStore {
    /// Runs `body` holding the store's lock (creating the folder if needed), waiting at most
    /// `wait` seconds for another process to let go.
    func withLock<T>(wait: TimeInterval = TaskStore.lockWait, _ body: () throws -> T) throws -> T {
        let lock = try withFileErrors { () throws(FileSystem.Failure) in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
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
        FileSystem.removeStaleTempFiles(besides: [path, journalPath, backupPath, indexPath])
    }

    func withFileErrors<T>(_ body: () throws(FileSystem.Failure) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(path: path, problem: error.busy ? .locked(error.reason) : .unwritable(error.reason))
        }
    }
}
