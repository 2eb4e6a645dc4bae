import Foundation
import HotTaskCore

/// What the flags do, one method per kind of request. Each says what it did through `output`.
struct CommandLineActions {
    let store: TaskStore
    let output: CommandOutput
    /// How the lines that say what was done write a due date.
    var dates = DueDisplay(now: Date())
    private var warned = false

    init(store: TaskStore, output: CommandOutput) {
        self.store = store
        self.output = output
    }

    /// Adds, edits, completes, reopens, moves and deletes as one record in the change log.
    /// Captions and handles are all checked before anything changes; handles name tasks as
    /// they were before.
    /// Returns the tasks it added, once they are in the store (`--add … --json` prints them).
    @discardableResult
    mutating func change(
        adding captions: [String], section: Section, editing: (handle: String, caption: String?)? = nil,
        due: DueInput.Request? = nil, completing: [String], reopening: [String], moving: [String], deleting: [String]
    ) throws -> [TaskItem] {
        let cleaned = try captions.map { raw in
            do {
                return try CaptionRule.clean(raw)
            } catch {
                throw UserFacingError(.refused, "cannot add \(quoted(raw)): \(error)")
            }
        }
        let newCaption = try editing.flatMap { edit in
            try edit.caption.map { caption in
                do {
                    return try CaptionRule.clean(caption)
                } catch {
                    throw UserFacingError(.refused, "--edit \(edit.handle): cannot use \(quoted(caption)): \(error)")
                }
            }
        }
        let now = Timestamp.now()
        let newDue = due.flatMap(\.date)
        let newTasks = cleaned.map { TaskItem(caption: $0, section: section, createdAt: now, due: newDue) }
        let addedLines = cleaned.map { "Added to \(section.title): \($0)\(newDue.map { " (due \(dates.text($0)))" } ?? "")" }
        let dueEdit = editing == nil ? nil : due
        if editing == nil && completing.isEmpty && reopening.isEmpty && moving.isEmpty && deleting.isEmpty {
            // Only adds: the cost does not grow with the list.
            try store.addOnTop(newTasks, what: addedLines.joined(separator: "; "))
            reportWarnings()
            addedLines.forEach { output.status($0) }
            return newTasks
        }
        var asked = CommandChanges()
        if let editing, let newCaption { asked.caption = (editing.handle, newCaption) }
        if let editing, let dueEdit { asked.due = (editing.handle, dueEdit) }
        asked.completing = completing
        asked.reopening = reopening
        asked.moving = moving
        asked.deleting = deleting
        let handles = (editing.map { [$0.handle] } ?? []) + completing + reopening + moving + deleting
        if newTasks.isEmpty, let report = try changeByID(handles, asked, now: now) {
            reportWarnings()
            report.forEach { output.status($0) }
            return []
        }
        let report = try store.update { state throws -> (changes: [TaskChange], what: String, undoes: Clock?, result: [String]) in
            var list = state.list
            // Handles name the tasks as they were, before this command's adds.
            var ids: [String: UUID] = [:]
            for (flag, given) in [
                ("--edit", editing.map { [$0.handle] } ?? []), ("--done", completing), ("--undone", reopening), ("--move", moving),
                ("--delete", deleting),
            ] {
                for handle in given {
                    do {
                        ids[handle] = list[try list.position(ofHandle: handle)].id
                    } catch {
                        throw UserFacingError(.refused, "\(flag) \(handle): \(error)")
                    }
                }
            }
            var changes: [TaskChange] = []
            for task in newTasks.reversed() {
                let add = list.adding(onTop: task)
                list.apply(add, clock: .zero, force: true)
                changes.append(add)
            }
            var target = WholeListTarget(list, ids: ids)
            let planned = try plan(asked, on: &target, now: now)
            let lines = addedLines + planned.lines
            return (changes + planned.changes, lines.joined(separator: "; "), nil, lines)
        }
        reportWarnings()
        report.forEach { output.status($0) }
        return newTasks
    }

    /// The same changes when every handle is an id: only the named tasks are read (see
    /// `PointLookup`), so the cost does not grow with the list. nil when the store must be read
    /// whole instead.
    private func changeByID(_ handles: [String], _ asked: CommandChanges, now: Date) throws -> [String]? {
        do {
            return try store.updateByID(handles) { lookup -> (changes: [TaskChange], what: String, result: [String]) in
                var target = NamedTasksTarget(lookup)
                let planned = try plan(asked, on: &target, now: now)
                return (planned.changes, planned.lines.joined(separator: "; "), planned.lines)
            }
        } catch let refusal as PointLookupRefusal {
            let flag =
                asked.caption?.handle == refusal.handle || asked.due?.handle == refusal.handle
                ? "--edit"
                : asked.completing.contains(refusal.handle)
                    ? "--done"
                    : asked.reopening.contains(refusal.handle)
                        ? "--undone"
                        : asked.moving.contains(refusal.handle) ? "--move" : "--delete"
            throw UserFacingError(.refused, "\(flag) \(refusal.handle): \(refusal.reason)")
        }
    }

    /// The planned changes and the line the command prints for each step: written once for
    /// both ways of reading the store.
    private func plan(_ asked: CommandChanges, on target: inout some ChangeTarget, now: Date) throws -> (changes: [TaskChange], lines: [String]) {
        let planned: (changes: [TaskChange], steps: [CommandChanges.Step])
        do {
            planned = try asked.plan(on: &target, now: now)
        } catch {
            throw UserFacingError(.refused, "\(quoted(error.task.caption)) is given to both --done and --undone")
        }
        let lines = planned.steps.map { step -> String in
            switch step {
            case .edited(let from, let to): "Edited: \(from) → \(to)"
            case .alreadyCaptioned(let caption): "Already so: \(caption)"
            case .dated(let task, let request): dueLine(task, request)
            case .completed(let task, let changed): "\(changed ? "Completed" : "Already completed"): \(task.caption)"
            case .reopened(let task, let changed): "\(changed ? "Reopened" : "Already open"): \(task.caption)"
            case .moved(let task, let section): "Moved to \(section.title): \(task.caption)"
            case .deleted(let task): "Deleted: \(task.caption)"
            }
        }
        return (planned.changes, lines)
    }

    /// `--undo`: takes back the last change in the log that is not an undo or undone already,
    /// whoever made it. A field changed again since is left as it is, and said so.
    mutating func undoLastChange() throws {
        let report = try store.update { state throws -> (changes: [TaskChange], what: String, undoes: Clock?, result: [String]) in
            var undone = Set<Clock>()
            var target: LogRecord?
            for record in state.history.reversed() {
                if let undoes = record.undoes {
                    undone.insert(undoes)
                    continue
                }
                if undone.contains(record.clock) { continue }
                target = record
                break
            }
            // A change compaction could not keep (too large, or past the history's bounds) is
            // never passed over: undoing an older one instead would not be what was asked.
            let floorNote = state.undoFloor.map {
                "changes made up to \(Timestamp.format($0.date)) were folded into the snapshot without being kept for undo (too large, or past the last 100)"
            }
            guard let target else {
                throw UserFacingError(
                    .refused, "nothing to undo: the change log holds no change that can be taken back" + (floorNote.map { "; \($0)" } ?? ""))
            }
            if let floor = state.undoFloor, let floorNote, target.clock < floor {
                throw UserFacingError(
                    .refused,
                    "cannot undo \(quoted(target.what)): \(floorNote), and one of them is newer, so undoing this would skip it. Nothing was changed")
            }
            let still = StillApplicable(target.changes.inverse, on: state.list)
            let notes = still.skipped.compactMap { skipped -> String? in
                switch skipped {
                case .deletedSince: "a task it changed is deleted now; left deleted"
                case .changedSince(let task): "\(quoted(task.caption)) was changed again since; left as it is"
                case .alreadyThere(let task): "\(quoted(task.caption)) is there already"
                case .goneAlready: nil
                }
            }
            let changes = still.changes
            let lines = ["Undone: \(target.what)"] + notes.map { "  (\($0))" }
            return (changes, "Undo: \(target.what)", target.clock, lines)
        }
        reportWarnings()
        report.forEach { output.status($0) }
    }

    /// `--recover`: makes a damaged store whole, saying what it kept, what it set aside and
    /// what it could not keep (the last on stderr, even with --quiet). True when it changed the store.
    func recover() throws -> Bool {
        let report = try store.recover()
        if report.wasWhole {
            output.status("Nothing to recover: \(store.path) and its change log read whole; nothing was changed")
            return false
        }
        output.status("Recovered \(store.path): \(report.taskCount) tasks, with \(report.recordsKept) changes read from the log")
        for file in report.setAside { output.status("Set aside (not deleted): \(file.from) is now \(file.to)") }
        for sentence in report.notKept { HotTaskCommand.fail("note: could not keep \(sentence)") }
        return true
    }

    mutating func importTasks(from path: String, format: ImportFormat = .auto, replacing: Bool) throws {
        let name = path == "-" ? "standard input" : path
        var archiveName: String?
        // Read and parsed before the store's lock is taken: a large file takes seconds, and
        // other writers wait for the lock only so long. The bytes are dropped once parsed.
        var parsed: ImportBatch? = try { () throws -> ImportBatch in
            if path != "-", let batch = ImportBatch.hotTaskDocument(at: path, as: format.batchFormat) { return batch }
            if path != "-", VdirFolder.isFolder(path) { return try importFolder(path, format: format) }
            let bytes = try readInput(path)
            do {
                let batch = try ImportBatch.parse(bytes, as: format.batchFormat, fileName: path == "-" ? nil : path)
                guard batch.format == .todoTxt, path != "-" else { return batch }
                let fileName = URL(fileURLWithPath: path).lastPathComponent
                // Completions todo.sh archived arrive too (and the next export keeps them done).
                guard let archive = TodoTxtFormat.archivePath(besides: path), FileManager.default.fileExists(atPath: archive) else {
                    var named = batch
                    named.todoTxtLines?.files[0].name = fileName
                    return named
                }
                archiveName = archive
                return try TodoTxtFormat.batch(files: [(fileName, bytes), ("done.txt", try readInput(archive))])
            } catch let error as DocumentError {
                throw UserFacingError(.refused, "cannot import \(name): \(error). Nothing was changed")
            }
        }()
        let losses = parsed!.losses
        let source = "\(parsed!.format.rawValue) \(name)" + (archiveName.map { " and its archive \($0)" } ?? "")
        guard parsed!.tasks.count <= TaskStore.maximumTaskCount else {
            throw UserFacingError(
                .refused,
                "cannot import \(source): it holds \(parsed!.tasks.count) tasks; HotTask keeps at most \(TaskStore.maximumTaskCount). Nothing was changed"
            )
        }
        // Read before anything changes: records that cannot be read stop the import.
        let carriedBefore = try carriedBeforeImport(of: parsed!, source: source)
        var importBase = ImportBase()
        // Lines whose task is unclear, ids given twice: said even with --quiet.
        var notes: [String] = []
        var carriedRecords: CarriedSaid?
        let (line, said) = try store.update {
            state throws -> (changes: [TaskChange], what: String, undoes: Clock?, result: (String, ImportBase.Said)) in
            // Loaded once the store is read, not held through the read (6 MB at 100,000 tasks).
            do {
                importBase = try ImportBase.load(besides: store)
            } catch {
                throw UserFacingError(.refused, "cannot import \(source): \(error). Move it away and import again. Nothing was changed")
            }
            // The plan takes the batch: its tasks are gone before the commit writes the store.
            guard let taken = parsed.take() else { throw UserFacingError(.refused, "cannot import \(source): it was read once already") }
            // todo.txt lines find the tasks they were exported from.
            let batch = state.list.resolvingIdentity(of: taken, base: importBase)
            notes = batch.todoTxtLines?.notes ?? []
            // What the file said is the base of the next import of it (see ImportBase).
            let said = ImportBase.Said(batch.tasks)
            if carriedBefore != nil { carriedRecords = carriedSaid(by: batch) }
            if replacing {
                let line = "Replaced \(state.list.count) tasks with \(batch.tasks.count) from \(source) (skipped \(batch.skipped))"
                return (state.list.replacing(with: batch.tasks), line, nil, (line, said))
            }
            let (changes, counts) = state.list.importing(batch, base: importBase)
            let added = changes.reduce(0) { $0 + ($1.isAdd ? 1 : 0) }  // counted, not copied (28 MB)
            guard state.list.count + added <= TaskStore.maximumTaskCount else {
                throw UserFacingError(
                    .refused,
                    "cannot import \(source): the list would hold \(state.list.count + added) tasks; HotTask keeps at most \(TaskStore.maximumTaskCount). Nothing was changed"
                )
            }
            let line = "Imported from \(source): \(counts)"
            return (changes, line, nil, (line, said))
        }
        importBase.record(said)
        save(importBase)
        if let carriedRecords, let carriedBefore { record(carriedRecords, onto: carriedBefore) }
        reportWarnings()
        output.status(line)
        // What the file held that HotTask did not keep is a warning: said even with --quiet.
        for sentence in losses.sentences { HotTaskCommand.fail("note: \(sentence)") }
        for note in notes { HotTaskCommand.fail("note: \(note)") }
    }

    /// Records `tasks` as what an exchanged file says of them (a warning if it cannot be saved).
    private func record<Tasks: Sequence<TaskItem>>(_ tasks: Tasks, onto base: ImportBase) {
        var base = base
        base.record(ImportBase.Said(tasks))
        save(base)
    }

    private func save(_ base: ImportBase) {
        do {
            try base.save(besides: store)
        } catch {
            HotTaskCommand.fail("warning: could not write \(ImportBase.path(besides: store)) (\(error.reason)); a re-import will merge by date")
        }
    }

    /// Says on stderr which log lines a read had to skip (once per command).
    private mutating func reportWarnings() {
        guard !warned else { return }
        warned = true
        for warning in store.logWarnings() { HotTaskCommand.fail("warning: \(warning)") }
    }

    /// `--list`: all tasks, or those `openOnly` and `filter` (the UI's matching) leave; numbered
    /// as in the whole list, so that a number shown works with --done.
    mutating func printList(
        asJSON: Bool, openOnly: Bool = false, filter: String? = nil, showingIDs: Bool = false, overdueOnly: Bool = false,
        byDue: Bool = false, dates: DueDisplay = DueDisplay(now: Date())
    ) throws {
        let list = try read()
        let selection = ListSelection(openOnly: openOnly || byDue, filter: filter, overdueAsOf: overdueOnly ? dates : nil)
        if byDue && !asJSON {
            let styled = ListFormatter.wantsStyle(
                isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
            ListFormatter.writeByDue(list, styled: styled, selection: selection, showingIDs: showingIDs, dates: dates) { output.bytes($0) }
        } else if asJSON {
            StoreDocument.encode(selection.isEverything ? list : TaskList(list.all.filter(selection.includes))) { output.bytes($0) }
        } else {
            let styled = ListFormatter.wantsStyle(
                isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
            ListFormatter.write(list, styled: styled, selection: selection, showingIDs: showingIDs, dates: dates) { output.bytes($0) }
        }
    }

    mutating func export(to path: String, format: ExportFormat = .hottask) throws {
        let list = try read()
        // What files held that HotTask does not model goes back to its format.
        let carried = try carriedForExport(format.carriedFormat, list: list)
        // Written as it is made, in pieces: the whole document is never held (30 MB for
        // 100,000 tasks in HotTask's format, several times that as iCalendar).
        let produce: (_ emit: ([UInt8]) -> Void) -> Void =
            switch format {
            case .hottask: { StoreDocument.encode(list, emit: $0) }
            case .taskwarrior: { list.writeTaskwarriorExport(carried: carried, $0) }
            case .todotxt: { TodoTxtFormat.write(list, carried: carried, emit: $0) }
            case .ics: { ICalendarFormat.write(list, carried: carried, emit: $0) }
            case .vdir: { _ in }
            }
        if format == .vdir {
            try exportFolder(list, carried: carried, to: path)
            return
        }
        if path == "-" {
            produce { output.bytes($0) }
            return
        }
        do {
            try ExportFile.write(to: path, protecting: store.path, produce)
        } catch {
            throw UserFacingError.output("could not write the export file \(path): \(error.reason)")
        }
        if format == .todotxt {
            // todo.txt dates are whole days, so "which side changed" cannot be told by dates:
            // what the file says now is the base its next import is merged against.
            do {
                record([list.priority, list.bonus].joined(), onto: try ImportBase.load(besides: store))
            } catch {
                HotTaskCommand.fail("warning: \(error); it was not updated for this export")
            }
        }
        output.status("Exported \(list.count) tasks to \(path)")
    }

    /// The list as one committed state (no lock needed), with any warnings said once.
    private mutating func read() throws -> TaskList {
        let state = try store.read()
        if !warned {
            warned = true
            for warning in state.warnings { HotTaskCommand.fail("warning: \(warning)") }
        }
        return state.list
    }

    private func readInput(_ path: String) throws -> [UInt8] {
        do {
            return try ImportBatch.readFile(path == "-" ? "/dev/stdin" : path)
        } catch {
            throw UserFacingError(.refused, "cannot import \(path == "-" ? "standard input" : path): \(error.reason). Nothing was changed")
        }
    }

    /// Control characters are escaped where the message is printed (`MessageText`).
    private func quoted(_ text: String) -> String {
        "'\(text)'"
    }
}

/// Buffered stdout that also takes raw bytes (the JSON document).
/// Stdout written in one call per piece: `print` per line costs more than building the whole
/// text of a 100,000-task list.
struct StandardOutput {
    func line(_ text: String) {
        self.text(text + "\n")
    }

    func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { self.bytes($0) }
    }

    private func bytes(_ buffer: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < buffer.count {
            let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe (`| head`): nothing more to say
            }
            offset += written
        }
    }
}
