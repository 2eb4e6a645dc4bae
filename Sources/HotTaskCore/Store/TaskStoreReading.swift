import FoundationEssentials
import Glibc

/// Reading the store: the snapshot and the log replayed on it, with what a writer needs to
/// commit on top; no lock is taken.
extension TaskStore {
    /// The store as read: the list, and what a writer needs to commit on top of it.
    public struct State: Sendable {
        public var list: TaskList
        /// The snapshot's header; nil when there is no snapshot yet or it is an old version.
        var header: SnapshotHeader?
        /// The latest stamp in the store (snapshot or log).
        var clock: Clock
        /// Every readable record of the log, whatever its generation (for `--undo`).
        var history: [LogRecord]
        /// The records replayed on the snapshot.
        var replayed: Int
        /// Lines of the log that could not be read, with why.
        public var warnings: [String]
        var damaged: [ChangeLog.DamagedLine]
        /// True when the next write must fold the log into a new snapshot (an old format, a
        /// long or damaged log, a snapshot changed by hand).
        var needsCompaction: Bool
        var snapshotStamp: FileStamp? = nil
        var logStamp: FileStamp? = nil
        /// The generation the log's header names (nil: no log, or no readable header).
        var logGeneration: Generation? = nil
        /// The newest change not kept in the log for `--undo`: an undo never passes over it.
        var undoFloor: Clock? = nil
        /// The sync state the replayed records carry, in order: the sync base is the base file
        /// with these on top (see `SyncDelta`).
        var pendingSync: [SyncDelta] = []
        /// What was added and completed when: the snapshot's history and the replayed records'.
        public var activity = ActivityHistory()
    }

    /// Reads the list (snapshot plus log); no files is an empty list.
    public func load() throws(StoreError) -> TaskList {
        try read().list
    }

    /// Reads the store without a lock, as one committed state.
    public func read() throws(StoreError) -> State {
        var attempt = 0
        while true {
            attempt += 1
            // Open, not read: the file is read as it is decoded (it holds exactly the version
            // `stamp` names, as every save renames a new file into place).
            let snapshotFile = try openSnapshotFile()
            let contents = try readLog()
            guard let snapshotFile else { return try stateWithoutSnapshot(contents) }
            let stamp = snapshotFile.stamp
            let snapshot = try decode(snapshotFile, log: contents)
            let standing = snapshot.header.map { LogStanding(log: contents, snapshot: $0) }
            if let standing, standing != .belongs, FileSystem.stamp(of: path) != stamp, attempt < 20 {
                continue  // the snapshot was replaced while we read: read the new pair
            }
            if case .damaged(let reason)? = standing {
                throw StoreError(path: journalPath, problem: .damagedLog(reason, store: path))
            }
            return state(snapshot, stamp: stamp, log: contents, standing: standing)
        }
    }

    /// `snapshot` is consumed: the log's records are applied to its list in place, not to a copy.
    func state(
        _ snapshot: consuming StoreSnapshot, stamp: FileStamp?, log contents: ChangeLog.Contents?, standing: LogStanding?
    ) -> State {
        let snapshotHeader = snapshot.header
        let snapshotActivity = snapshot.activity
        var list = snapshot.list
        _ = consume snapshot
        // The state gets the list once it is made: holding it meanwhile would make the first
        // change applied copy every task.
        var state = State(
            list: TaskList(), header: snapshotHeader, clock: snapshotHeader?.clock ?? .zero, history: contents?.records ?? [],
            replayed: 0, warnings: [], damaged: contents?.damaged ?? [], needsCompaction: true, snapshotStamp: stamp,
            logStamp: contents?.stamp, logGeneration: contents?.header?.generation, undoFloor: contents?.header?.undoFloor)
        state.warnings = warnings(state.damaged)
        state.activity = snapshotActivity
        for record in state.history { state.clock = max(state.clock, record.clock) }
        guard let header = snapshotHeader else {
            // A version 1 store: its journal's adds go on top, by id (they may be in it already).
            if let contents, !contents.legacyAdds.isEmpty {
                var added = list.all
                let known = Set(added.map(\.id))
                let fresh = contents.legacyAdds.filter { !known.contains($0.id) }
                added = fresh.reversed() + added
                list = TaskList(added.filter { $0.section == .priority } + added.filter { $0.section == .bonus })
            }
            state.list = list
            return state
        }
        let logHeader = contents?.header
        let belongs = standing == .belongs
        if belongs {
            let replayed = state.history.filter { $0.generation == header.generation }
            list.applyAll(records: replayed.map { ($0.changes, $0.clock) })
            list.follow(listsOf: replayed)
            state.replayed = replayed.count
            state.pendingSync = replayed.compactMap(\.sync)
            state.activity += ActivityHistory(counting: replayed)
        }
        state.list = list
        // A snapshot that does not say which log it folded (an older HotTask's) is written
        // again at the next change, so that from then on a lost log is noticed.
        state.needsCompaction =
            !belongs || header.folds == nil || logHeader?.snapshot != stamp || !state.damaged.isEmpty || state.replayed >= Self.logLimit
            || (contents?.byteCount ?? 0) >= StoreLimits.logFoldBytes
        return state
    }

    /// No snapshot: an empty store, unless files beside it hold tasks. A log or backup alone is
    /// not a store, and must never be read as "every task deleted".
    func stateWithoutSnapshot(_ contents: ChangeLog.Contents?) throws(StoreError) -> State {
        let logHoldsTasks = contents.map { !$0.records.isEmpty || !$0.legacyAdds.isEmpty } ?? false
        // A backup that cannot even be looked at may hold tasks: never read as "no backup".
        let backup: Bool
        do throws(FileSystem.Failure) {
            backup = try FileSystem.kind(of: backupPath) != .missing
        } catch {
            throw StoreError(path: backupPath, problem: .unreadable(error.reason))
        }
        if logHoldsTasks || backup {
            let files = [logHoldsTasks ? journalPath : nil, backup ? backupPath : nil].compactMap { $0 }
            // The backup is named only when it and the log provably hold every acknowledged change.
            let restore =
                provenBackup(log: contents) != nil
                ? "to restore the last snapshot and replay the log on it: cp '\(backupPath)' '\(path)'"
                : "to rebuild it from every change that can still be read: \(StoreError.recoverCommand(path))"
            throw StoreError(
                path: path, problem: .missing("\(files.joined(separator: " and ")) beside it still hold tasks; \(restore)"))
        }
        return State(
            list: TaskList(), header: nil, clock: .zero, history: contents?.records ?? [], replayed: 0, warnings: [],
            damaged: contents?.damaged ?? [], needsCompaction: true, snapshotStamp: nil, logStamp: contents?.stamp,
            logGeneration: contents?.header?.generation, undoFloor: contents?.header?.undoFloor)
    }

    func warnings(_ damaged: [ChangeLog.DamagedLine]) -> [String] {
        damaged.map { "line \($0.line) of \(journalPath) was skipped: \($0.reason)" }
    }

    /// What a reader must be told about the log (its damaged lines), from the log alone.
    public func logWarnings() -> [String] {
        warnings((try? log.read())?.damaged ?? [])
    }

    func readLog() throws(StoreError) -> ChangeLog.Contents? {
        if let problem = FileSystem.untrusted(journalPath) {
            throw StoreError(path: journalPath, problem: .unreadable("not safe to use: \(problem)"))
        }
        return try log.read()
    }

    /// The snapshot file, open, or nil when there is none.
    func openSnapshotFile() throws(StoreError) -> FileSystem.OpenFile? {
        if let problem = untrusted() { throw StoreError(path: path, problem: .unreadable("not safe to use: \(problem)")) }
        do {
            switch try FileSystem.kind(of: path) {
            case .missing: return nil
            case .directory:
                throw StoreError(
                    path: path,
                    problem: .unreadable(
                        "it is a folder, not a file; to keep the store in it, name a file there: --file '\(path.hasSuffix("/") ? path : path + "/")tasks.json'"
                    ))
            case .other: throw StoreError(path: path, problem: .unreadable("it is not a regular file"))
            case .file:
                let file = try FileSystem.OpenFile(path)
                try file.check(limit: StoreLimits.readBytes)
                return file
            }
        } catch let error as StoreError {
            throw error
        } catch let failure as FileSystem.Failure {
            throw unreadable(failure)
        } catch {
            throw StoreError(path: path, problem: .unreadable("\(error)"))
        }
    }

    func unreadable(_ failure: FileSystem.Failure) -> StoreError {
        StoreError(path: path, problem: .unreadable(failure.reason))
    }

    /// The snapshot in `file`, read through a window (`decodeStoreFast`); only a file the fast
    /// reader gives up on is read whole, for the strict path to read or describe. `contents` is
    /// the log read with it: a damaged snapshot's backup is offered only when that log proves it.
    func decode(_ file: FileSystem.OpenFile, log contents: ChangeLog.Contents?) throws(StoreError) -> StoreSnapshot {
        let damaged = { (reason: DocumentError) in
            StoreError(path: path, problem: .invalid(reason), backupPath: provenBackup(log: contents))
        }
        let fast = JSONParser.decodeStoreFast(file, limit: StoreLimits.readBytes)
        // Only a file the fast reader refused is read whole, for the strict reader.
        var bytes: [UInt8] = []
        if fast == nil {
            do throws(FileSystem.Failure) {
                bytes = try file.readAll(limit: StoreLimits.readBytes)
            } catch {
                throw unreadable(error)
            }
        }
        do throws(DocumentError) {
            let snapshot: StoreSnapshot
            if let fast {
                snapshot = fast
            } else {
                guard !bytes.isEmpty else { throw DocumentError.invalid("the file is empty (0 bytes)") }
                if !bytes.contains(where: { $0 != 0 }) {
                    throw DocumentError.invalid("the file holds only NUL bytes (\(bytes.count)), as a crash or power cut can leave")
                }
                snapshot = try StoreDocument.decodeStrictly(bytes)
            }
            guard snapshot.list.count <= StoreLimits.tasks else {
                throw DocumentError.invalid("it holds \(snapshot.list.count) tasks; HotTask keeps at most \(StoreLimits.tasks)")
            }
            return snapshot
        } catch {
            throw damaged(error)
        }
    }

    /// The backup, if it reads whole and the log beside it is the one it was made for (or the
    /// one it folded): only then does restoring it lose no acknowledged change, and only then
    /// may a message recommend it.
    func provenBackup(log contents: ChangeLog.Contents?) -> String? {
        guard (try? FileSystem.kind(of: backupPath)) == .file,
            let bytes = try? FileSystem.readAll(backupPath, limit: StoreLimits.readBytes, sideFile: true),
            let header = (try? StoreDocument.decode(bytes))?.header, LogStanding(log: contents, snapshot: header).isWhole
        else { return nil }
        return backupPath
    }
}
