import Foundation

/// The one place a change is committed to the log.
///
/// Every writer (the UI's session, `--add`'s quick path, the by-id path of `--done` and its
/// kin, and the full read-change-commit of every other command, import, sync and undo) hands
/// its record here, holding the lock, with the log's records as it read them. Here, and only
/// here, the record is numbered after the last one of its generation, the task-count limit is
/// enforced, crash debris is cleaned, and the line is appended and fsynced. A record too large
/// for the log is refused here, and the caller folds it into a compaction instead.
extension TaskStore {
    /// What `appendRecord` did.
    enum Appended {
        /// The record is committed: its line is in the log and fsynced.
        case committed(LogRecord)
        /// The record is too large to keep in the log: nothing was written; compact instead.
        case tooLarge
    }

    /// Appends `record` to the log as the next record of its generation. `logRecords` are the
    /// log's readable records as read under the lock (any generation); `countAfter` is how many
    /// tasks the list holds with the record applied. `largeRecordLimit`: the size past which the
    /// record is refused (the UI's session allows more; see `StoreSession.largeRecordLimit`).
    func appendRecord(
        _ record: LogRecord, after logRecords: [LogRecord], countAfter: Int, largeRecordLimit: Int = Self.largeRecord
    ) throws(StoreError) -> Appended {
        try ensureRoom(for: countAfter)
        // A record that is certainly large (a big import) is not encoded only to be measured.
        if Self.certainlyLarger(record, than: largeRecordLimit) { return .tooLarge }
        var numbered = record
        numbered.sequence = ChangeLog.nextSequence(after: logRecords, generation: record.generation)
        let line = ChangeLog.encode(numbered)
        guard line.count <= largeRecordLimit else { return .tooLarge }
        removeCrashDebris()
        try withFileErrors { () throws(FileSystem.Failure) in try log.append(line) }
        return .committed(numbered)
    }

    /// Refuses a list longer than a store keeps (the append's and the compaction's one check).
    func ensureRoom(for count: Int) throws(StoreError) {
        guard count <= Self.maximumTaskCount else {
            throw StoreError(
                path: path, problem: .unwritable("the list would hold \(count) tasks; HotTask keeps at most \(Self.maximumTaskCount)"))
        }
    }
}

extension Array where Element == TaskChange {
    /// How many tasks these changes add, less those they delete.
    var netTaskCount: Int {
        reduce(0) { count, change in
            switch change {
            case .add: count + 1
            case .delete: count - 1
            case .set: count
            }
        }
    }
}
