import FoundationEssentials
import Glibc

/// `--import FILE`: read and parse the file before the store's lock is taken, then merge (or
/// replace) in one record, and keep what the file said as the base of the next import and
/// what it held that HotTask does not model (`CarriedFields`).
extension TaskStore {
    /// Imports `path` ("-" for standard input, a folder of .ics files, or a file) read as
    /// `format`; `into` (`--in`) names the list the new tasks go to, whatever lists the file
    /// names. Refusals are `UserFacingError`s that change nothing.
    public func importTasks(
        from path: String, as asked: ImportFormat, replacing: Bool, into: String? = nil, dates: DueDisplay
    ) throws -> [CommandMessage] {
        let format = asked.batchFormat
        let name = path == "-" ? "standard input" : path
        if path != "-", access(path, F_OK) != 0, errno == ENOENT {
            throw UserFacingError(.refused, "cannot import \(path): there is no such file or folder; check the path. Nothing was changed")
        }
        // Refused from its count, before a parse that takes seconds and memory to say the same.
        if path != "-", ImportCount.exceeds(StoreLimits.tasks, path: path) {
            throw UserFacingError(.refused, "cannot import \(path): \(ImportBatch.tooManyTasks). Nothing was changed")
        }
        var archiveName: String?
        // Read and parsed before the store's lock is taken: a large file takes seconds, and
        // other writers wait for the lock only so long. The bytes are dropped once parsed.
        let read = try { () throws -> ImportBatch in
            if path != "-", let batch = ImportBatch.hotTaskDocument(at: path, as: format) { return batch }
            if path != "-" {
                do {
                    if let batch = try ImportBatch.taskwarriorExport(at: path, as: format) { return batch }
                } catch {
                    throw UserFacingError(.refused, "cannot import \(name): \(error). Nothing was changed")
                }
            }
            if path != "-", VdirFolder.isFolder(path) { return try Self.importFolder(path, format: format) }
            let bytes = try Self.readInput(path)
            do {
                let batch = try ImportBatch.parse(bytes, as: format, fileName: path == "-" ? nil : path)
                guard batch.format == .todoTxt, path != "-" else { return batch }
                let fileName = URL(fileURLWithPath: path).lastPathComponent
                // Completions todo.sh archived arrive too (and the next export keeps them done).
                guard let archive = TodoTxtFormat.archivePath(besides: path), FileManager.default.fileExists(atPath: archive) else {
                    var named = batch
                    named.todoTxtLines?.files[0].name = fileName
                    return named
                }
                archiveName = archive
                return try TodoTxtFormat.batch(files: [(fileName, bytes), ("done.txt", try Self.readInput(archive))])
            } catch let error as DocumentError {
                throw UserFacingError(.refused, "cannot import \(name): \(error). Nothing was changed")
            }
        }()
        let losses = read.losses
        let source = "\(read.format.rawValue) \(name)" + (archiveName.map { " and its archive \($0)" } ?? "")
        guard read.tasks.count <= StoreLimits.tasks else {
            throw UserFacingError(
                .refused,
                "cannot import \(source): it holds \(read.tasks.count) tasks; HotTask keeps at most \(StoreLimits.tasks). Nothing was changed"
            )
        }
        // The todo.txt file read, by its real path: lines gone from the one HotTask last read or
        // wrote are deletions.
        let todoTxtFile = read.format == .todoTxt && path != "-" ? Self.realPath(path) : nil
        // Held only until the plan takes it: its tasks are gone before the commit writes the store.
        var parsed: ImportBatch? = consume read
        var importBase = ImportBase()
        // Lines whose task is unclear, ids given twice: said even with --quiet.
        var notes: [String] = []
        var carriedRecords: CarriedSaid?
        var messages: [CommandMessage] = []
        // One transaction: the two side files are read under the store's lock, and committed
        // with the import's record (`ExchangeFiles`), so that neither an import running at the
        // same time nor a kill can leave them disagreeing with the store.
        let line = try transaction(.everything) { txn throws -> String in
            let state = try txn.whole()
            // What a killed import left pending is put in place, or away, first.
            settleExchange(generation: state.header?.generation, records: state.history)
            // The plan takes the batch: its tasks are gone before the commit writes the store.
            guard let taken = parsed.take() else { throw UserFacingError(.refused, "cannot import \(source): it was read once already") }
            // Read before anything changes: records that cannot be read stop the import.
            let carriedBefore = try carriedBeforeImport(of: taken, source: source)
            // Loaded once the store is read, not held through the read (6 MB at 100,000 tasks).
            do {
                importBase = try ImportBase.load(besides: self)
            } catch {
                throw UserFacingError(.refused, "cannot import \(source): \(error). Move it away and import again. Nothing was changed")
            }
            // The next import's bases are written ahead under this token and put in place by
            // the commit; the base is written on a thread of its own as the merge goes on.
            let token = Generation.random()
            var baseWrite: ImportBase.PendingWrite?
            var committing = false
            // Refused before the commit (the files unwritable included): what was written under
            // the token goes, the base once its thread is done.
            defer {
                if let baseWrite, !committing {
                    _ = try? baseWrite.written()
                    discardExchange(token)
                }
            }
            func commit(_ changes: consuming [TaskChange], _ line: String) throws -> String {
                // The base's thread first: it holds the file's tasks until it is done, and they
                // need not be held beside the records made here (4.5 MB of a Taskwarrior import
                // of 100,000 tasks, at its peak). Its failure is said by `writeExchange`.
                _ = try? baseWrite?.written()
                // Made, written and let go before the commit writes the store (a set of 4.5 MB
                // at 100,000 tasks, held beside the changes and the list they make).
                func carried() -> CarriedFields? {
                    let carried = carriedRecords.flatMap { said in carriedBefore.map { Self.recorded(said, onto: $0) } }
                    carriedRecords = nil
                    return carried?.changed == true ? carried : nil
                }
                let written = try writeExchange(token: token, base: baseWrite, carried: carried(), source: source)
                // A commit that fails leaves its files pending, not removed: a failed fsync or
                // rename may still have committed, and only the store can say (the next
                // import, export or fold settles them by it).
                committing = true
                try txn.commit(consume changes, what: line, lists: placement.change, exchange: written)
                return line
            }
            // todo.txt lines find the tasks they were exported from.
            var batch = state.list.resolvingIdentity(of: consume taken, base: importBase)
            // Taskwarrior and todo.txt hold no subtask relation (DECISIONS): a task read keeps
            // its own, in the merge and in the base (recorded without it, a subtask's line
            // removed later looked changed here and was kept).
            // One map of the relations: a look-up by id may be a scan (a re-import of 20,000 lines
            // was quadratic).
            if batch.format == .taskwarrior || batch.format == .todoTxt, state.list.hasSubtasks {
                let parents = Dictionary(state.list.all.compactMap { task in task.parent.map { (task.id, $0) } }, uniquingKeysWith: { a, _ in a })
                for index in batch.tasks.indices { batch.tasks[index].parent = parents[batch.tasks[index].id] }
            }
            // New tasks go to the list --in names, else to the lists the file names (a vdir's
            // made in this same record).
            let placement: TaskList.ImportPlacement
            if let into {
                let stored = state.list.lists.stored(for: try TaskStore.existingList(into, in: state.list, flag: "--in"))
                for index in batch.tasks.indices { batch.tasks[index].list = stored }
                placement = TaskList.ImportPlacement()
            } else {
                placement = state.list.placing(&batch)
            }
            notes += placement.unknown.map { name in
                "the file names the list \(quotedCaption(name)), which this store does not have: its new tasks went to the default list \(quotedCaption(state.list.lists.defaultName)) (make the list with --new-list before importing to keep them apart)"
            }
            let made =
                placement.made.isEmpty
                ? "" : "; made the list\(placement.made.count == 1 ? "" : "s") " + placement.made.map(quotedCaption).joined(separator: ", ")
            notes += batch.todoTxtLines?.notes ?? []
            // What the file said is the base of the next import of it (see ImportBase).
            // The file's ids sorted once, for the base and the merge (2.4 MB at 100,000 tasks).
            let fileIDs = SortedIDs(batch.tasks)
            baseWrite = pendingBase(batch.tasks, ids: fileIDs, onto: importBase, token: token)
            if carriedBefore != nil { carriedRecords = carriedSaid(by: batch, todoTxtFile: todoTxtFile) }
            notes += Self.cycleNotes(in: batch.tasks)
            if replacing {
                let line = "Replaced \(state.list.count) tasks with \(batch.tasks.count) from \(source) (skipped \(batch.skipped))\(made)"
                return try commit(state.list.replacing(with: batch.tasks), line)
            }
            let removed = todoTxtFile.flatMap { file in
                carriedBefore.map { Self.removedLines(of: batch, file: file, carried: $0, base: importBase, list: state.list) }
            }
            var (changes, counts) = state.list.importing(batch, ids: fileIDs, base: importBase, dates: dates)
            // The file's tasks are in the changes now, and its lines' facts are used: not held
            // while the commit writes the store.
            batch.tasks = []
            batch.todoTxtLines = nil
            if let removed {
                changes += removed.map(TaskChange.delete)
                counts.deleted = removed.count
                if !removed.isEmpty {
                    let names = DeletionGuard.list(removed.map { CaptionRule.shown($0.caption) }, limit: 10)
                    notes.append(
                        "deleted \(removed.count) task\(removed.count == 1 ? "" : "s") whose line was removed from \(path) since HotTask last read or wrote it: \(names) (hottask --undo brings \(removed.count == 1 ? "it" : "them") back)"
                    )
                }
            }
            if counts.deletedHere > 0, batch.format == .taskwarrior || batch.format == .todoTxt {
                let tasks = "\(counts.deletedHere) task\(counts.deletedHere == 1 ? "" : "s")"
                notes.append(
                    batch.format == .taskwarrior
                        ? "skipped \(tasks) deleted here that Taskwarrior still has; an export to Taskwarrior deletes \(counts.deletedHere == 1 ? "it" : "them") there"
                        : "skipped \(tasks) deleted here that the file still has; an export to it leaves \(counts.deletedHere == 1 ? "it" : "them") out"
                )
            }
            let added = changes.reduce(0) { $0 + ($1.isAdd ? 1 : 0) }  // counted, not copied (28 MB)
            guard state.list.count + added <= StoreLimits.tasks else {
                throw UserFacingError(
                    .refused,
                    "cannot import \(source): the list would hold \(state.list.count + added) tasks; HotTask keeps at most \(StoreLimits.tasks). Nothing was changed"
                )
            }
            // Handed over, not held here too while the store is written (15 MB at 100,000 tasks).
            return try commit(consume changes, "Imported from \(source): \(counts)\(made)")
        }
        messages.append(.status(line))
        // What the file held that HotTask did not keep is a note: said even with --quiet.
        messages += losses.sentences.map(CommandMessage.note)
        messages += notes.map(CommandMessage.note)
        return messages
    }

    /// What to say of subtasks that go round in a cycle in a file or on a server (`Subtasks`
    /// breaks each at its lowest id, the same way every time; the relation is kept).
    static func cycleNotes(in tasks: [TaskItem]) -> [String] {
        guard tasks.contains(where: { $0.parent != nil }) else { return [] }
        let byID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return Subtasks(tasks).brokenCycles.compactMap { byID[$0] }.map { task in
            "the subtasks of \(quotedCaption(CaptionRule.shown(task.caption))) lead back to it (a cycle): it is shown top-level"
        }
    }

    /// The tasks whose todo.txt line is gone: the file is the one HotTask last read or wrote
    /// (`file`, its real path), which had the task's line, and the task is as that file said it
    /// (the import base): not changed here since. An edit here beats the removal (the next
    /// export writes the line again), and so does a line without an `id:` tag that may be the
    /// task (a note names both). A file with no line at all deletes nothing: an emptied file is
    /// more likely a mistake than every task done with.
    static func removedLines(of batch: ImportBatch, file: String, carried: CarriedFields, base: ImportBase, list: TaskList) -> [TaskItem] {
        guard !batch.tasks.isEmpty, carried.todoTxtFile?.path == file else { return [] }
        let present = Set(batch.tasks.lazy.map(\.id)).union(batch.todoTxtLines?.unclearCandidates ?? [])
        return list.all.filter { task in
            carried.has(task.id, .todoTxt) && !present.contains(task.id) && base[task.id]?.matches(task) == true
        }
    }

    /// Every `.ics` file of the folder, read as one iCalendar file.
    private static func importFolder(_ path: String, format: ImportBatch.Format?) throws -> ImportBatch {
        guard format == nil || format == .iCalendar else {
            throw UserFacingError(
                .refused, "cannot import \(path): it is a folder; only a folder of .ics files (a vdir) is read as one. Nothing was changed")
        }
        // A folder that is no calendar (no .ics in it, nor a vdir's displayname or color) is
        // refused, not read as an empty calendar: "added 0" and exit 0 said nothing was wrong.
        // A folder that cannot be listed is said by the vdir reader, with the reason.
        // A folder of calendars, as todoman and vdirsyncer keep several: one list each.
        let lists = VdirFolder.listFolders(in: path)
        if lists.isEmpty, let names = try? FileManager.default.contentsOfDirectory(atPath: path),
            !names.contains(where: { $0.lowercased().hasSuffix(".ics") || $0 == "displayname" || $0 == "color" })
        {
            throw UserFacingError(
                .refused,
                "cannot import \(path): the folder holds no .ics files, so it is not a calendar folder (a vdir holds one per task); "
                    + "give a calendar folder or an export file. Nothing was changed")
        }
        do {
            if !lists.isEmpty { return try VdirFolder.listsBatch(from: path, subfolders: lists) }
            return try VdirFolder.batch(from: path)
        } catch {
            throw UserFacingError(.refused, "cannot import \(path): \(error). Nothing was changed")
        }
    }

    private static func readInput(_ path: String) throws -> [UInt8] {
        do {
            return try ImportBatch.readFile(path == "-" ? "/dev/stdin" : path)
        } catch {
            throw UserFacingError(.refused, "cannot import \(path == "-" ? "standard input" : path): \(error.reason). Nothing was changed")
        }
    }

    /// Records `tasks` as what an exchanged file says of them (a warning if it cannot be saved).
    func record<Tasks: Sequence<TaskItem>>(_ tasks: Tasks, onto base: ImportBase) -> [CommandMessage] {
        var base = base
        base.record(ImportBase.Said(tasks))
        return save(base)
    }

    private func save(_ base: ImportBase) -> [CommandMessage] {
        do {
            try base.save(besides: self)
            return []
        } catch {
            return [.warning("could not write \(ImportBase.path(besides: self)) (\(error.reason)); a re-import will merge by date")]
        }
    }
}
