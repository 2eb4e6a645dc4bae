import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// What `hottask --recover` did.
public struct RecoveryReport: Sendable, Equatable {
    /// True when the store read whole and nothing was touched.
    public var wasWhole = false
    /// Tasks in the recovered list.
    var taskCount = 0
    /// Readable records of the log replayed on the recovered base.
    var recordsKept = 0
    /// Files renamed aside, never deleted: (the file, where it is now).
    var setAside: [(from: String, to: String)] = []
    /// What could not be kept, in sentences.
    var notKept: [String] = []

    /// What `--recover` says of it for `store`: what it kept and set aside, then each thing it
    /// could not keep as a note.
    public func messages(for store: TaskStore) -> [CommandMessage] {
        guard !wasWhole else { return [.status("Nothing to recover: \(store.path) and its change log read whole; nothing was changed")] }
        return [.status("Recovered \(store.path): \(taskCount) tasks, with \(recordsKept) changes read from the log")]
            + setAside.map { .status("Set aside (not deleted): \($0.from) is now \($0.to)") }
            + notKept.map { .note("could not keep \($0)") }
    }

    public static func == (left: RecoveryReport, right: RecoveryReport) -> Bool {
        left.wasWhole == right.wasWhole && left.taskCount == right.taskCount && left.recordsKept == right.recordsKept
            && left.setAside.map(\.to) == right.setAside.map(\.to) && left.notKept == right.notKept
    }
}

extension TaskStore {
    /// Makes a store whose snapshot or log is damaged whole again, keeping every change that
    /// can still be read: the snapshot (or, when it cannot be read, the backup) with every
    /// readable record of the log on top, each by its stamp (so a record the base holds already
    /// changes nothing). Damaged files are renamed aside with the time in their name, never
    /// deleted; the result is written as a new snapshot under the lock. A store that reads
    /// whole is left alone.
    public func recover(now: Date = Date()) throws(StoreError) -> RecoveryReport {
        try storeTransaction(.nothing) { txn throws(StoreError) -> RecoveryReport in
            if (try? read()) != nil { return RecoveryReport(wasWhole: true) }
            // A log another user could have written is not replayed here either.
            if let problem = FileSystem.untrusted(journalPath) {
                throw StoreError(path: journalPath, problem: .unreadable("not safe to use: \(problem)"))
            }
            var report = RecoveryReport()
            let suffix = ".damaged-" + Self.fileTime(now)
            // A hard link under a new name, then the old name removed: never over a file
            // already set aside (a second recovery in the same second gets "-2").
            func setAside(_ file: String) throws(StoreError) {
                var target = file + suffix
                var attempt = 1
                while link(file, target) != 0 {
                    guard errno == EEXIST, attempt < 100 else {
                        throw StoreError(path: file, problem: .unwritable("cannot set it aside as \(target): \(FileSystem.reason())"))
                    }
                    attempt += 1
                    target = file + suffix + "-\(attempt)"
                }
                unlink(file)
                report.setAside.append((file, target))
            }

            // The base: the snapshot if it reads, else the backup if it reads, else nothing.
            var base: StoreSnapshot?
            switch try? FileSystem.kind(of: path) {
            case .file?:
                if let snapshot = readWhole(path) {
                    base = snapshot
                } else {
                    try setAside(path)
                }
            case .missing?: break
            default:
                throw StoreError(path: path, problem: .unreadable("it is not a regular file; move it away and try again"))
            }
            if base == nil {
                if let backup = readWhole(backupPath) {
                    base = backup
                    if !report.setAside.isEmpty {
                        report.notKept.append(
                            "what only the damaged snapshot held (the backup \(backupPath) and the log were used in its place)")
                    }
                } else {
                    if (try? FileSystem.kind(of: backupPath)) == .file { try setAside(backupPath) }
                    if !report.setAside.isEmpty {
                        report.notKept.append("the tasks of the damaged snapshot: there is no readable backup; only the log's changes were kept")
                    }
                }
            }

            // Every readable record of the log on top; the log itself is set aside.
            let contents: ChangeLog.Contents?
            do {
                contents = try log.read()
            } catch {
                // Never "no changes": what it holds is only in the file set aside.
                contents = nil
                report.notKept.append("the change log could not be read (\(error)); its changes are only in the file set aside")
            }
            let records = contents?.records ?? []
            var list = base?.list ?? TaskList()
            if let contents, !contents.legacyAdds.isEmpty {
                list.applyAll(contents.legacyAdds.map { .add($0) }, clock: base?.header?.clock ?? .zero)
            }
            list.applyAll(records: records.map { ($0.changes, $0.clock) })
            list.follow(listsOf: records)
            report.recordsKept = records.count
            if let contents, !contents.damaged.isEmpty {
                report.notKept.append(
                    "\(contents.damaged.count) damaged line\(contents.damaged.count == 1 ? "" : "s") of the log (still in the file set aside)")
            }
            if let contents, !contents.missing.isEmpty {
                report.notKept.append("the changes of the records missing from the log (\(contents.missing.joined(separator: "; ")))")
            }
            // A log with no record left cannot say what it lost: only that it may have.
            if let header = base?.header, case .damaged(let reason) = LogStanding(log: contents, snapshot: header), records.isEmpty {
                let latest = Timestamp.format(header.clock.date)
                report.notKept.append("any change acknowledged after \(latest), when the snapshot was made: the log \(reason)")
            }
            if (try? FileSystem.kind(of: journalPath)) == .file { try setAside(journalPath) }

            try txn.replace(.recovered(list, base: base, records: records))
            report.taskCount = list.count
            return report
        }
    }

    /// A store file read and decoded whole, or nil.
    private func readWhole(_ file: String) -> StoreSnapshot? {
        guard (try? FileSystem.kind(of: file)) == .file, let bytes = try? FileSystem.readAll(file, limit: StoreLimits.readBytes, sideFile: true)
        else {
            return nil
        }
        return try? StoreDocument.decode(bytes)
    }

    /// `20261125T143000Z`: the time in a set-aside file's name.
    private static func fileTime(_ date: Date) -> String {
        let seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        var copy = seconds
        gmtime_r(&copy, &parts)
        let day = (Int(parts.tm_year) + 1900).zeroPadded(4) + (Int(parts.tm_mon) + 1).zeroPadded(2) + Int(parts.tm_mday).zeroPadded(2)
        return day + "T" + Int(parts.tm_hour).zeroPadded(2) + Int(parts.tm_min).zeroPadded(2) + Int(parts.tm_sec).zeroPadded(2) + "Z"
    }
}
