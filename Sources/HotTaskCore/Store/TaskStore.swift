import Foundation

/// The JSON file that holds the task list.
///
/// Reading never changes the file. Every write happens under an exclusive lock on a file
/// beside the store, and `update` reads the current file under that lock before changing it,
/// so two processes never undo each other's work. A file that cannot be read or parsed is
/// never overwritten. Before each save the previous good version is kept as `<store>.bak`.
public struct TaskStore: Sendable {
    /// Largest store or import file HotTask reads.
    public static let maximumFileSize = 64 << 20
    /// Most tasks a list may hold.
    public static let maximumTaskCount = 250_000

    /// The store file, with symbolic links resolved: a save replaces the link's target.
    public let path: String

    public init(path: String) {
        self.path = FileSystem.resolvingSymlinks(path)
    }

    /// The lock file beside the store.
    public var lockPath: String { path + ".lock" }
    /// The previous version of the store, kept by every save.
    public var backupPath: String { path + ".bak" }
    /// Recent adds not yet folded into the snapshot (see `StoreJournal`).
    public var journalPath: String { path + ".journal" }
    var journal: StoreJournal { StoreJournal(path: journalPath) }

    /// Reads the list (the snapshot plus the journal's adds); no file is an empty list.
    ///
    /// The journal is read first: a full save that lands in between then leaves us the old
    /// journal and a new snapshot that already holds its adds (adds are idempotent by id), never
    /// an old snapshot without them. So readers need no lock.
    public func load() throws(StoreError) -> TaskList {
        let journalTasks = try journal.read()?.tasks ?? []
        let list = try loadSnapshot()
        guard !journalTasks.isEmpty else { return list }
        return list.addingOnTop(journalTasks)
    }

    private func loadSnapshot() throws(StoreError) -> TaskList {
        guard let bytes = try readBytes() else { return TaskList() }
        return try decode(bytes)
    }

    /// The store's current version (snapshot and journal), or nil when the snapshot is missing:
    /// a journal alone is not a store, and must never be read as "every other task deleted".
    public func stamp() -> StoreStamp? {
        guard let snapshot = FileSystem.stamp(of: path) else { return nil }
        return StoreStamp(snapshot: snapshot, journal: FileSystem.stamp(of: journalPath))
    }

    /// The file's bytes as they are, or nil when there is no file yet.
    public func readBytes() throws(StoreError) -> [UInt8]? {
        do {
            switch try FileSystem.kind(of: path) {
            case .missing: return nil
            case .directory: throw StoreError(path: path, problem: .unreadable("it is a folder, not a file"))
            case .other: throw StoreError(path: path, problem: .unreadable("it is not a regular file"))
            case .file: return try FileSystem.readAll(path, limit: Self.maximumFileSize)
            }
        } catch let error as StoreError {
            throw error
        } catch let failure as FileSystem.Failure {
            throw StoreError(path: path, problem: .unreadable(failure.reason))
        } catch {
            throw StoreError(path: path, problem: .unreadable("\(error)"))
        }
    }

    private func decode(_ bytes: [UInt8]) throws(StoreError) -> TaskList {
        let damaged = { (reason: DocumentError) in
            StoreError(path: path, problem: .invalid(reason), backupPath: existingBackup())
        }
        guard !bytes.isEmpty else { throw damaged(.invalid("the file is empty (0 bytes)")) }
        if !bytes.contains(where: { $0 != 0 }) {
            throw damaged(.invalid("the file holds only NUL bytes (\(bytes.count)), as a crash or power cut can leave"))
        }
        do throws(DocumentError) {
            let list = try StoreDocument.decode(bytes)
            guard list.count <= Self.maximumTaskCount else {
                throw DocumentError.invalid("it holds \(list.count) tasks; HotTask keeps at most \(Self.maximumTaskCount)")
            }
            return list
        } catch {
            throw damaged(error)
        }
    }

    private func existingBackup() -> String? {
        (try? FileSystem.kind(of: backupPath)) == .file ? backupPath : nil
    }

    /// Reads the current list under the lock, lets `change` edit it, and saves the result
    /// when it differs. Errors thrown by `change` leave the file untouched.
    @discardableResult
    public func update<Result>(_ change: (inout TaskList) throws -> Result) throws -> Result {
        try withLock {
            var list = try load()
            let before = list
            let result = try change(&list)
            if list != before { try writeLocked(list, previousIsGood: true) }
            return result
        }
    }

    /// Puts new tasks on top of their sections, the first one topmost. While the journal extends the snapshot now in
    /// place (checked by its stamp, so the snapshot was validated when the journal began) this
    /// appends one line per task and fsyncs: the cost does not grow with the list. Otherwise,
    /// or once the journal is long, it reads and validates everything, writes a new snapshot
    /// and starts a new journal.
    public func add(_ tasks: [TaskItem]) throws {
        try withLock { try addLocked(tasks) }
    }

    /// `add` for a caller that already holds the lock.
    func addLocked(_ tasks: [TaskItem]) throws(StoreError) {
        removeCrashDebris()
        if let current = try journal.read(), current.header.snapshot == FileSystem.stamp(of: path),
            current.tasks.count + tasks.count <= StoreJournal.compactionThreshold,
            current.header.count + current.tasks.count + tasks.count <= Self.maximumTaskCount
        {
            // Each journal line goes on top when read back, so the last one appended ends up
            // first: append bottom-up to keep `tasks` in the order given.
            try withFileErrors { () throws(FileSystem.Failure) in try journal.append(tasks.reversed()) }
            return
        }
        var list = try load()
        for task in tasks.reversed() { list.insertOnTop(task) }
        try writeLocked(list, previousIsGood: true)
        // The tasks are saved now, and the journal restarted. The backup becomes a copy of this
        // validated snapshot: restoring it, with the journal read on top, gives back every task.
        // Best effort: a full disk here must not report the add as failed.
        try? FileSystem.writeAtomically(try FileSystem.readAll(path), to: backupPath)
    }

    /// Writes the whole list, replacing whatever is there (tests, benchmarks, `--replace`-like
    /// uses). Takes the lock.
    public func save(_ list: TaskList) throws(StoreError) {
        do {
            try withLock { try writeLocked(list, previousIsGood: (try? load()) != nil) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, problem: .unwritable("\(error)"))
        }
    }

    /// Runs `body` holding the store's exclusive lock (creating the folder if needed).
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try withFileErrors { () throws(FileSystem.Failure) in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            return try FileLock(path: lockPath)
        }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    /// Saves atomically (temp file, fsync, rename, fsync of the folder). Call only while holding
    /// the lock. `previousIsGood` says the file now in place was read successfully, so it may
    /// become the backup.
    public func writeLocked(_ list: TaskList, previousIsGood: Bool) throws(StoreError) {
        guard list.count <= Self.maximumTaskCount else {
            throw StoreError(
                path: path, problem: .unwritable("the list would hold \(list.count) tasks; HotTask keeps at most \(Self.maximumTaskCount)"))
        }
        try withFileErrors { () throws(FileSystem.Failure) in
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            removeCrashDebris()
            if previousIsGood, try FileSystem.kind(of: path) == .file {
                try keepBackup()
            }
            try FileSystem.writeAtomically(StoreDocument.encode(list), to: path)
        }
        // The snapshot now holds everything. A new, empty journal for it replaces the old one,
        // so the next `--add` is an append again. Should that fail, the old journal goes: its
        // adds are in the snapshot, and kept they would bring back tasks this save deleted.
        // (Only a crash between the two steps leaves it; see RELIABILITY.md.)
        guard let snapshot = FileSystem.stamp(of: path),
            (try? journal.start(StoreJournal.Header(snapshot: snapshot, count: list.count))) != nil
        else {
            unlink(journalPath)
            return
        }
    }

    /// Keeps the store as it is now as the backup: a hard link of the snapshot when the
    /// journal adds nothing to it, else a written copy of the whole list, so that restoring
    /// the backup never loses the journal's tasks.
    private func keepBackup() throws(FileSystem.Failure) {
        guard let pending = try? journal.read(), !pending.tasks.isEmpty, let whole = try? load() else {
            FileSystem.linkBackup(of: path, to: backupPath)
            return
        }
        try FileSystem.writeAtomically(StoreDocument.encode(whole), to: backupPath)
    }

    /// Removes temp files that saves killed midway left (of the store, its journal and its
    /// backup). Only while holding the lock: then no live save owns one of them.
    private func removeCrashDebris() {
        for file in [path, journalPath, backupPath] { FileSystem.removeStaleTempFiles(besides: file) }
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
