import FoundationEssentials
import Glibc

/// What `change` did: a line per add and step, and the tasks it added, once they are stored.
public struct ChangeOutcome: Sendable {
    public let lines: [String]
    public let added: [TaskItem]
    /// The store was read the quick way, which it takes only when the log has no damaged line:
    /// there are no log warnings to look for.
    public let logKnownClean: Bool
}

/// `--add`, `--edit`, `--due`, `--done`, `--undone`, `--move` and `--delete` as one record in
/// the change log. Captions and handles are all checked before anything changes; handles name
/// tasks as they were before the command's adds. `under`: the handle of the parent the adds
/// (or else the edited task) go under; `none` makes the edited task top-level again.
extension TaskStore {
    public func change(
        adding captions: [String], to section: Section, editing: (handle: String, caption: String?)? = nil,
        due: DueInput.Request? = nil, note: String? = nil, repeating: RepeatRule? = nil, tagging: [String] = [], untagging: [String] = [],
        plusTags: Bool = true, inList: String? = nil, under: String? = nil,
        completing: [String], reopening: [String], moving: [String], deleting: [String], dates: DueDisplay
    ) throws -> ChangeOutcome {
        // Typed text is read by the one rule the app's input row uses (`TypedTaskRule`): `+word`
        // and `@word` are tags (unless the config says not), `due:WORD` the due date; `--tag`
        // adds more tags, and `--due` wins over the typed date.
        let now = Timestamp.now()
        let tagged = try captions.map { raw in
            do {
                return try TypedTaskRule.read(raw, takingTags: plusTags, now: now, local: dates.local)
            } catch {
                throw UserFacingError(.refused, "cannot add \(quotedCaption(raw)): \(error)")
            }
        }
        let edited = try editing.flatMap { edit in
            try edit.caption.map { caption in
                do {
                    return try TypedTaskRule.read(caption, takingTags: plusTags, now: now, local: dates.local)
                } catch {
                    throw UserFacingError(.refused, "--edit \(edit.handle): cannot use \(quotedCaption(caption)): \(error)")
                }
            }
        }
        let newCaption = edited?.caption
        let (adding, removing): ([String], [String])
        do {
            adding = try TagRule.cleanAll(tagging)
            removing = try untagging.map(TagRule.clean)
        } catch {
            throw UserFacingError(.refused, "--tag: \(error)")
        }
        let newNote = try note.map { text in
            do {
                return try NoteRule.clean(text)
            } catch {
                throw UserFacingError(.refused, "--note: cannot use the note: \(error)")
            }
        }
        let today = DueDate.localDay(of: now, in: dates.local)
        let newDue = due.flatMap(\.date)
        // A new repeating task without a due date takes the rule's first day from today.
        let firstRepeat = repeating.flatMap { $0.isNone ? nil : $0.first(onOrAfter: today) }
        var newTasks: [TaskItem] = []
        for typed in tagged {
            let (caption, words, typedDue) = (typed.caption, typed.tags, typed.due)
            var tags = words.filter { !removing.contains($0) }
            for tag in adding where !tags.contains(tag) { tags.append(tag) }
            guard tags.count <= StoreLimits.tagsPerTask else {
                throw UserFacingError(.refused, "cannot add \(quotedCaption(caption)): \(TagError.tooMany(tags.count))")
            }
            newTasks.append(
                TaskItem(
                    caption: caption, section: section, createdAt: now,
                    due: (newDue ?? typedDue).map { (repeating ?? .none).onOccurrence($0) } ?? firstRepeat, note: newNote ?? "", tags: tags,
                    repeatRule: repeating ?? .none))
        }
        let withNote = newNote.map { !$0.isEmpty } ?? false ? " (with a note)" : ""
        var listLabel = ""
        var underLabel = ""
        var addedLines: [String] {
            newTasks.map { task in
                "Added to \(task.section.title)\(listLabel)\(underLabel): \(CaptionRule.shown(task.caption))\(task.tags.map { " " + TagRule.label($0) }.joined())"
                    + "\(task.due.map { " (due \(dates.text($0))" + (task.repeatRule.isNone ? "" : ", " + task.repeatRule.words) + ")" } ?? "")\(withNote)"
            }
        }
        let dueEdit = editing == nil ? nil : due ?? edited?.due.map(DueInput.Request.set)
        let parentHandle = under.flatMap { Self.isTopLevelWord($0) ? nil : $0 }
        let onlyAdds = under == nil && editing == nil && completing.isEmpty && reopening.isEmpty && moving.isEmpty && deleting.isEmpty
        var asked = CommandChanges()
        if let editing, let newCaption { asked.caption = (editing.handle, newCaption) }
        if let editing, let dueEdit { asked.due = (editing.handle, dueEdit) }
        if let editing, let newNote { asked.note = (editing.handle, newNote) }
        if let editing, let repeating { asked.repeating = (editing.handle, repeating, today) }
        let editTags = (edited?.tags ?? []) + adding
        if let editing, !editTags.isEmpty || !removing.isEmpty { asked.tags = (editing.handle, editTags, removing) }
        asked.completing = completing
        asked.reopening = reopening
        asked.moving = moving
        asked.deleting = deleting
        if let editing, under != nil, newTasks.isEmpty { asked.under = (editing.handle, parentHandle) }
        // Each flag with the handles it names: a handle that names no task is refused naming its flag.
        let named: [(flag: String, handles: [String])] = [
            ("--edit", editing.map { [$0.handle] } ?? []), ("--done", completing), ("--undone", reopening), ("--move", moving),
            ("--delete", deleting), ("--under", parentHandle.map { [$0] } ?? []),
        ]
        let handles = named.flatMap(\.handles)
        // Adds read only the header and the log, changes by id only the tasks they name (and,
        // for a change its subtasks follow, every subtask: `FamilyLookup`): no task is decoded
        // that is not needed. Anything else reads it whole, as does `--under`, which places a
        // family after another's and so needs its neighbours.
        let withFamily = !completing.isEmpty || !moving.isEmpty || !deleting.isEmpty || (inList != nil && editing != nil)
        let byID = newTasks.isEmpty && under == nil
        let reads: ReadPlan = onlyAdds ? .header : byID ? .ids(handles) : .everything
        return try transaction(reads) { txn in
            // The list named, as the store has it: a name no list has is refused, never made.
            if let inList {
                let (name, stored) = try txn.list(named: inList, flag: "--in")
                for index in newTasks.indices { newTasks[index].list = stored }
                if let editing { asked.list = (editing.handle, stored, name) }
                listLabel = " of \(quotedCaption(name))"
            }
            if onlyAdds {
                let committed = try txn.commit(try txn.addingOnTop(newTasks), what: addedLines.joined(separator: "; "))
                return ChangeOutcome(lines: addedLines, added: newTasks, logKnownClean: committed.list == nil)
            }
            if byID, let lookup = try lookUp(named, withFamily: withFamily, in: txn) {
                var target = NamedTasksTarget(lookup)
                let planned = try plan(asked, on: &target, now: now, dates: dates)
                try txn.commit(planned.changes, what: planned.lines.joined(separator: "; "))
                return ChangeOutcome(lines: planned.lines, added: [], logKnownClean: true)
            }
            var list = try txn.whole().list
            // Handles name the tasks as they were, before this command's adds.
            var ids: [String: UUID] = [:]
            for (flag, given) in named {
                for handle in given {
                    do {
                        ids[handle] = list[try list.position(ofHandle: handle)].id
                    } catch {
                        throw UserFacingError(.refused, "\(flag) \(handle): \(error)")
                    }
                }
            }
            let changes: [TaskChange]
            if let parentHandle, !newTasks.isEmpty, let id = ids[parentHandle], let parent = list.task(withID: id) {
                // Subtasks go after their parent's family, in its section and list.
                let target = WholeListTarget(list, ids: ids)
                let keys = target.keys(newTasks.count, afterFamilyOf: parent, moving: [])
                changes = zip(newTasks, keys).map { task, key in
                    var task = task
                    (task.parent, task.section, task.list, task.order) = (parent.id, parent.section, parent.list, key)
                    return .add(task)
                }
                newTasks = changes.compactMap { if case .add(let task) = $0 { task } else { nil } }
                underLabel = ", under \(quotedCaption(CaptionRule.shown(parent.caption)))"
            } else {
                changes = try txn.addingOnTop(newTasks)
            }
            for add in changes { list.apply(add, clock: .zero, force: true) }
            var target = WholeListTarget(list, ids: ids, bounds: try txn.topBounds())
            let planned = try plan(asked, on: &target, now: now, dates: dates)
            let lines = addedLines + planned.lines
            try txn.commit(changes + planned.changes, what: lines.joined(separator: "; "))
            return ChangeOutcome(lines: lines, added: newTasks, logKnownClean: false)
        }
    }

    /// The tasks named by id, when every handle is an id and the store can be read that way
    /// (see `PointLookup`); nil when it must be read whole instead.
    private func lookUp(_ named: [(flag: String, handles: [String])], withFamily: Bool, in txn: StoreTransaction) throws -> PointLookup? {
        do {
            return try txn.lookup(named.flatMap(\.handles), withFamily: withFamily)
        } catch let refusal as PointLookupRefusal {
            let flag = named.first { $0.handles.contains(refusal.handle) }?.flag ?? "--delete"
            throw UserFacingError(.refused, "\(flag) \(refusal.handle): \(refusal.reason)")
        }
    }

    /// The planned changes and the line the command prints for each step: written once for
    /// both ways of reading the store.
    private func plan(
        _ asked: CommandChanges, on target: inout some ChangeTarget, now: Date, dates: DueDisplay
    ) throws -> (changes: [TaskChange], lines: [String]) {
        let planned: (changes: [TaskChange], steps: [CommandChanges.Step])
        do {
            planned = try asked.plan(on: &target, now: now, local: dates.local)
        } catch {
            switch error {
            case .contradiction(let task):
                throw UserFacingError(.refused, "\(quotedCaption(CaptionRule.shown(task.caption))) is given to both --done and --undone")
            case .cycle(let task, let parent):
                throw UserFacingError(
                    .refused,
                    "--under: \(quotedCaption(CaptionRule.shown(parent.caption))) is "
                        + (task.id == parent.id ? "the task itself" : "a subtask of \(quotedCaption(CaptionRule.shown(task.caption)))")
                        + "; name a task outside its family, or none to make it top-level")
            case .subtaskAlone(let task, let parent, let flag):
                let shown = quotedCaption(CaptionRule.shown(task.caption))
                throw UserFacingError(
                    .refused,
                    "\(flag): \(shown) is a subtask\(parent.map { " of \(quotedCaption(CaptionRule.shown($0.caption)))" } ?? ""), "
                        + "and stays in its parent's \(flag == "--in" ? "list" : "section"); \(flag == "--in" ? "move" : "--move") the parent, "
                        + "or make it top-level first (--edit … --under none)")
            }
        }
        // A synced series HotTask cannot step stays open: completing it would complete it all there.
        let completedHere = planned.steps.compactMap { step -> TaskItem? in
            if case .completed(let task, true, _) = step, task.repeatRule.isNone { return task }
            return nil
        }
        let refused = unsteppableSeries(completedHere.map(\.id))
        if let task = completedHere.first(where: { refused[$0.id] != nil }), let reason = refused[task.id] {
            throw UserFacingError(.refused, "--done: " + TaskStore.unsteppableMessage(caption: task.caption, reason: reason))
        }
        for case .tagged(_, let after) in planned.steps where after.count > StoreLimits.tagsPerTask {
            throw UserFacingError(.refused, "--tag: \(TagError.tooMany(after.count))")
        }
        let lines = planned.steps.map { step -> String in
            switch step {
            case .edited(let from, let to): "Edited: \(CaptionRule.shown(from)) → \(to)"
            case .alreadyCaptioned(let caption): "Already so: \(caption)"
            case .dated(let task, let request, let taken): dueLine(task, request, taken: taken, dates: dates)
            case .tagged(let task, let after):
                task.tags == after
                    ? "Tags unchanged: \(CaptionRule.shown(task.caption))"
                    : "Tags of \(CaptionRule.shown(task.caption)): \(after.isEmpty ? "none" : after.map(TagRule.label).joined(separator: " "))"
            case .noted(let task, let note):
                task.note == note
                    ? (note.isEmpty
                        ? "Already without a note: \(CaptionRule.shown(task.caption))" : "Note unchanged: \(CaptionRule.shown(task.caption))")
                    : note.isEmpty
                        ? "Note cleared: \(CaptionRule.shown(task.caption))"
                        : "Note \(task.note.isEmpty ? "added" : "changed"): \(CaptionRule.shown(task.caption))"
            case .completed(let task, let changed, let subtasks):
                "\(changed ? "Completed" : "Already completed"): \(CaptionRule.shown(task.caption))"
                    + (subtasks > 0 ? " (and \(Self.subtaskCount(subtasks, open: true)))" : "")
            case .advanced(let task, let next, let reopened):
                "Completed: \(CaptionRule.shown(task.caption)) (repeats \(task.repeatRule.words); next: \(dates.occurrenceText(next))"
                    + (reopened > 0 ? "; \(Self.subtaskCount(reopened, open: false)) open again)" : ")")
            case .repeated(let task, let after):
                task.repeatRule == after.repeatRule
                    ? (after.repeatRule.isNone
                        ? "Already not repeating: \(CaptionRule.shown(task.caption))"
                        : "Already repeats \(after.repeatRule.words): \(CaptionRule.shown(task.caption))")
                    : after.repeatRule.isNone
                        ? "Repeats no more: \(CaptionRule.shown(task.caption))"
                        : "Repeats \(after.repeatRule.words): \(CaptionRule.shown(task.caption)) (due \(after.due.map(dates.text) ?? "none"))"
            case .reopened(let task, let changed): "\(changed ? "Reopened" : "Already open"): \(CaptionRule.shown(task.caption))"
            case .moved(let task, let section, let subtasks):
                "Moved to \(section.title): \(CaptionRule.shown(task.caption))" + (subtasks > 0 ? " (and \(Self.subtaskCount(subtasks)))" : "")
            case .deleted(let task, let subtasks):
                "Deleted: \(CaptionRule.shown(task.caption))" + (subtasks > 0 ? " (and \(Self.subtaskCount(subtasks)))" : "")
            case .underParent(let task, let parent, let changed):
                switch (parent, changed) {
                case (let parent?, true): "Moved under \(quotedCaption(CaptionRule.shown(parent.caption))): \(CaptionRule.shown(task.caption))"
                case (let parent?, false): "Already under \(quotedCaption(CaptionRule.shown(parent.caption))): \(CaptionRule.shown(task.caption))"
                case (nil, true): "Made top-level: \(CaptionRule.shown(task.caption))"
                case (nil, false): "Already top-level: \(CaptionRule.shown(task.caption))"
                }
            case .listed(let task, let name, let changed):
                "\(changed ? "Moved to" : "Already in") the list \(quotedCaption(name)): \(CaptionRule.shown(task.caption))"
            }
        }
        return (planned.changes, lines)
    }

    /// "its 3 open subtasks", "its 1 subtask".
    private static func subtaskCount(_ count: Int, open: Bool = false) -> String {
        "its \(count) \(open ? "open " : "")subtask\(count == 1 ? "" : "s")"
    }

    /// `--under none`: the word that makes a task top-level again.
    public static func isTopLevelWord(_ handle: String) -> Bool { handle.lowercased() == "none" }

    /// What `--edit N --due WHEN` says it did.
    private func dueLine(_ task: TaskItem, _ request: DueInput.Request, taken: DueInput.Request, dates: DueDisplay) -> String {
        switch taken {
        case .clear:
            return task.due == nil
                ? "Already without a due date: \(CaptionRule.shown(task.caption))" : "Due date cleared: \(CaptionRule.shown(task.caption))"
        case .set(let due):
            // A task repeating on some days says which of them the date asked for became.
            var moved = ""
            if request != taken, case .set(let asked) = request { moved = " (the first of its days from \(dates.text(asked)))" }
            return task.due == due
                ? "Already due \(dates.text(due))\(moved): \(CaptionRule.shown(task.caption))"
                : "Due \(dates.text(due))\(moved): \(CaptionRule.shown(task.caption))"
        }
    }
}
