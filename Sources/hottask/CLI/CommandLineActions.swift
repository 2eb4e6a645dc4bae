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
            let tookQuickWay = try store.addOnTop(newTasks, what: addedLines.joined(separator: "; ")) == nil
            reportWarnings(knownClean: tookQuickWay)
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
            reportWarnings(knownClean: true)
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

    /// Says on stderr which log lines a read had to skip (once per command).
    /// `knownClean`: the store was read the quick way, which it takes only when the log has no
    /// damaged line, so there is nothing to say and no need to read the log again.
    mutating func reportWarnings(knownClean: Bool = false) {
        guard !warned else { return }
        warned = true
        if knownClean { return }
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
        let styled = { ListFormatter.wantsStyle(isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment) }
        if byDue && !asJSON {
            ListFormatter.writeByDue(list, styled: styled(), selection: selection, showingIDs: showingIDs, dates: dates) { output.bytes($0) }
        } else if asJSON {
            StoreDocument.encode(selection.isEverything ? list : TaskList(list.all.filter(selection.includes))) { output.bytes($0) }
        } else {
            ListFormatter.write(list, styled: styled(), selection: selection, showingIDs: showingIDs, dates: dates) { output.bytes($0) }
        }
    }

    /// `--import`: the file merged (or the list replaced) in one record (`TaskStore.importTasks`).
    mutating func importTasks(from path: String, format: ImportFormat = .auto, replacing: Bool) throws {
        let messages = try store.importTasks(from: path, as: format, replacing: replacing)
        // Files beside the store that could not be written first, then the log's warnings.
        say(messages.filter { if case .warning = $0 { true } else { false } })
        reportWarnings()
        say(messages.filter { if case .warning = $0 { false } else { true } })
    }

    /// `--export`: the list written in `format` (`TaskStore.export`); "-" is standard output.
    mutating func export(to path: String, format: ExportFormat = .hottask) throws {
        let list = try read()
        say(try store.export(list, as: format, to: path) { output.bytes($0) })
    }

    /// Status lines on stdout; notes and warnings on stderr, even with --quiet.
    private func say(_ messages: [ExchangeMessage]) {
        for message in messages {
            switch message {
            case .status(let line): output.status(line)
            case .note(let note): HotTaskCommand.fail("note: \(note)")
            case .warning(let warning): HotTaskCommand.fail("warning: \(warning)")
            }
        }
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

    /// Control characters are escaped where the message is printed (`MessageText`).
    private func quoted(_ text: String) -> String {
        "'\(text)'"
    }
}
