import Foundation

/// The JSON file that holds the task list.
///
/// Reading never changes the file. Changes go through `update`, which holds the lock, reads
/// the current file, applies the change and saves atomically, so two processes never undo
/// each other's work. A file that cannot be read or parsed is never overwritten.
public struct TaskStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The lock file beside the store.
    public var lockPath: String { path + ".lock" }

    /// Reads the list; a missing file is an empty list.
    public func load() throws(StoreError) -> TaskList {
        guard let bytes = try readBytes() else { return TaskList() }
        guard !bytes.isEmpty else {
            throw StoreError(path: path, problem: .invalid(.invalid("the file is empty (0 bytes)")))
        }
        do {
            return try StoreDocument.decode(bytes)
        } catch {
            throw StoreError(path: path, problem: .invalid(error))
        }
    }

    /// The file's bytes as they are, or nil when there is no file yet.
    public func readBytes() throws(StoreError) -> [UInt8]? {
        do {
            switch try FileSystem.kind(of: path) {
            case .missing: return nil
            case .directory: throw StoreError(path: path, problem: .unreadable("it is a folder, not a file"))
            case .other: throw StoreError(path: path, problem: .unreadable("it is not a regular file"))
            case .file: return try FileSystem.readAll(path)
            }
        } catch let error as StoreError {
            throw error
        } catch let failure as FileSystem.Failure {
            throw StoreError(path: path, problem: .unreadable(failure.reason))
        } catch {
            throw StoreError(path: path, problem: .unreadable("\(error)"))
        }
    }

    /// Reads the current list under the lock, lets `change` edit it, and saves the result
    /// when `change` returns normally. Errors thrown by `change` leave the file untouched.
    @discardableResult
    public func update<Result>(_ change: (inout TaskList) throws -> Result) throws -> Result {
        let lock = try withFileErrors { () throws(FileSystem.Failure) in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            return try FileLock(path: lockPath)
        }
        var list = try load()
        let before = list
        let result = try change(&list)
        if list != before { try save(list) }
        withExtendedLifetime(lock) {}
        return result
    }

    /// Writes the whole list atomically (temp file, fsync, rename, fsync of the folder).
    public func save(_ list: TaskList) throws(StoreError) {
        try withFileErrors { () throws(FileSystem.Failure) in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            try FileSystem.writeAtomically(StoreDocument.encode(list), to: path)
        }
    }

    private func withFileErrors<T>(_ body: () throws(FileSystem.Failure) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(path: path, problem: .unwritable(error.reason))
        }
    }
}

/// Where the store lives: `--file`, else `$HOTTASK_FILE`, else the XDG data folder.
public enum StoreLocation {
    public static func resolve(file: String?, environment: [String: String]) -> String {
        if let file, !file.isEmpty { return file }
        if let file = environment["HOTTASK_FILE"], !file.isEmpty { return file }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/hottask/tasks.json"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/hottask/tasks.json"
    }
}
