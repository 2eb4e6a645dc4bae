import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// Changes to tasks. Each key makes `TaskChange`s by task id: applied to the list and the view
/// together, recorded for undo, and sent to the store.
extension AppUpdate {
    /// Applies changes to the list, then follows each row edit in the view (the view's binary
    /// search reads the list as it is after each edit). `clock` nil: the UI's own change, shown
    /// at once and stamped by the store when it is saved.
    static func perform(_ changes: [TaskChange], clock: Clock? = nil, addsOnlyNewTasks: Bool = false, _ state: inout AppState) {
        // Many at once (clearing the completed tasks, its undo): one pass over the list and the
        // view made again once, where row by row each change shifted arrays of the whole list.
        guard changes.count < Self.changesShownRowByRow else {
            if let removed = state.tasks.applyInOnePass(
                changes, clock: clock ?? .zero, force: clock == nil, addsOnlyNewTasks: addsOnlyNewTasks)
            {
                state.view.rowsRemoved(removed, list: state.tasks)
            } else {
                state.view.listChanged(state.tasks)
            }
            return
        }
        for change in changes {
            let edits = state.tasks.apply(change, clock: clock ?? .zero, force: clock == nil)
            for edit in edits { state.view.apply(edit, list: state.tasks) }
        }
        state.view.editsApplied(state.tasks)
    }

    /// From this many changes on, `perform` applies them in one pass.
    static let changesShownRowByRow = 256

    /// Performs changes a key asked for, records them as one undo step, and saves them.
    static func commit(_ changes: [TaskChange], _ description: String, _ state: inout AppState) -> [Effect] {
        guard !changes.isEmpty else { return [] }
        perform(changes, &state)
        let stepID = state.history.record(UndoStep(changes, description: description))
        return [.save(Save(changes, what: description, stepID: stepID))]
    }

    /// Our changes are in the store with `clock`: they take that stamp, then the records other
    /// processes committed before them are applied field by field (ours are later, so they keep
    /// the fields we set; the others' other fields hold).
    static func takeSaved(_ save: Save, clock: Clock, outside: [LogRecord], _ state: inout AppState) {
        keepingSelection(&state) { state in
            // Many of our own changes back with the store's stamp: only their clocks change, and
            // the view stays (other processes' records are applied, never restamped).
            if save.changes.count < changesShownRowByRow || !state.tasks.restamp(save.changes, clock: clock) {
                perform(save.changes, clock: clock, &state)
            }
            for record in outside { perform(record.changes, clock: record.clock, &state) }
            state.tasks.follow(listsOf: outside)
        }
        followLists(&state)
        if let stepID = save.stepID {
            state.history.stamp(stepID, clock: clock)
            state.history.replaceWas(stepID, after: outside)
        }
        offerSyncsForUndo(outside, &state)
    }

    /// The merge of a sync this UI ran (committed by its hottask-sync) is one step `u` takes
    /// back (the next sync then sends the undo as changes of its own). Another terminal's sync
    /// is never offered: `u` takes back only what this UI did or asked for.
    static func offerSyncsForUndo(_ records: [LogRecord], _ state: inout AppState) {
        guard let origin = state.syncOrigin else { return }
        for record in records where record.isSyncMerge && !record.changes.isEmpty && record.by == origin {
            state.history.record(UndoStep(record.changes, description: "the sync's changes", clock: record.clock))
        }
    }

    static func quoted(_ task: TaskItem) -> String {
        "“\(CaptionRule.shown(task.caption).truncated(toWidth: 40))”"
    }

    /// `text` read by the typed-text rule (`TypedTaskRule`), or nil with the reason in the
    /// footer: `whenEmpty` for whitespace alone, else `refused` and the rule's own words.
    /// `replacing`: the caption an edit replaces, whose length the edit may keep.
    static func typedTask(
        _ text: String, whenEmpty: String, refused: String, replacing old: String? = nil, now: Date, _ state: inout AppState
    ) -> TypedTaskRule.Reading? {
        do throws(CaptionError) {
            return try TypedTaskRule.read(text, takingTags: state.plusTags, now: now, local: state.dates.local, replacing: old)
        } catch .empty {
            state.message = Message(whenEmpty, kind: .warning)
        } catch {
            state.message = Message("\(refused): \(error)", kind: .warning)
        }
        return nil
    }

    static func addTask(_ state: inout AppState, now: Date, id: UUID) -> [Effect] {
        // The rule `--add` uses too: `+word` and `@word` are tags, `due:WORD` the due date.
        guard
            let typed = typedTask(
                state.input.text, whenEmpty: "Nothing to add — type a task first", refused: "Not added", now: now, &state)
        else { return [] }
        var task = TaskItem(
            id: id, caption: typed.caption, section: state.newTaskSection, createdAt: now, due: typed.due, tags: typed.tags,
            list: newTaskList(state))
        // Under the task `o` chose, after its subtasks (it may have gone meanwhile: then on top).
        let parent = state.addingUnder.flatMap { state.tasks.task(withID: $0) }
        if let parent { task.section = parent.section }
        let change = parent.map { state.tasks.adding(task, under: $0) } ?? state.tasks.adding(onTop: task)
        let effects = commit([change], "Added \(quoted(change.task))" + (parent.map { " under \(quoted($0))" } ?? ""), &state)
        state.input.clear()
        let section = change.task.section
        let index = state.tasks.position(of: change.task.id).map { state.tasks.index(ofPosition: $0) } ?? 0
        // Select the new task so the person sees it land, wherever the list was scrolled.
        if let display = state.view.display(ofIndex: index, in: section, of: state.tasks) {
            state.selection = display
        } else {
            state.message = Message("Added \(quoted(change.task)) — the filter hides it")
        }
        return effects
    }

    /// Space: the row stays selected, even when "completed last" sends the task away, so that
    /// Space, Space... completes one task after another.
    static func toggleCompleted(_ state: inout AppState, now: Date) -> [Effect] {
        guard let position = state.selectedPosition else { return [] }
        let task = state.tasks[position]
        if !task.completed, task.repeatRule.isNone, let reason = state.unsteppable[task.id] {
            // Completing it would complete the whole series in the calendar (issue 52).
            state.message = Message(
                "Not completed: " + TaskStore.unsteppableMessage(caption: task.caption, reason: reason, here: false), kind: .warning)
            return []
        }
        let changes = state.tasks.completingWithSubtasks(!task.completed, at: position, now: now, local: state.dates.local)
        guard !changes.isEmpty else { return [] }
        // A repeating task moves on to its next occurrence, and says when that is.
        let next =
            task.completed
            ? nil
            : ChangeRules.nextOccurrence(of: task, doneOn: DueDate.localDay(of: now, in: state.dates.local)).map {
                " — next: " + state.dates.occurrenceText($0.due)
            }
        let subtasks = changes.count - 1
        let family =
            subtasks == 0
            ? ""
            : next != nil
                ? " (its \(subtasks) subtask\(subtasks == 1 ? "" : "s") open again)"
                : " (and its \(subtasks) open subtask\(subtasks == 1 ? "" : "s"))"
        let what = (task.completed ? "Reopened " : "Completed ") + quoted(task) + family + (next ?? "")
        let effects = commit(changes, what, &state)
        if next != nil || subtasks > 0 { state.message = Message(what) }
        return effects
    }

    static func moveToOtherSection(_ state: inout AppState, now: Date) -> [Effect] {
        guard let position = state.selectedPosition else { return [] }
        let task = state.tasks[position]
        let target = task.section.other
        guard let changes = state.tasks.movingWithSubtasks(from: position, to: target) else {
            state.message = Message(subtaskStays(task), kind: .warning)
            return []
        }
        let subtasks = changes.count - 1
        let description = "Moved \(quoted(task))\(subtasks > 0 ? " and its \(subtasks) subtask\(subtasks == 1 ? "" : "s")" : "") to \(target.title)"
        let effects = commit(changes, description, &state)
        select(index: 0, in: target, &state)
        state.message = Message(description + " — u to undo")
        return effects
    }

    /// Shift-↑/↓ or K/J: one place up or down among the tasks shown; past the edge of a
    /// section into the other one (at its end going up, on top going down).
    static func reorder(up: Bool, _ state: inout AppState, now: Date) -> [Effect] {
        guard state.view.isManualOrder else {
            state.message = Message("Reordering needs Manual order: press s (and c if completed are last)", kind: .warning)
            return []
        }
        guard let position = state.selectedPosition else { return [] }
        let layout = state.layout
        let display = state.selection
        let section = layout.section(ofTask: display)
        let task = state.tasks[position]
        var neighbour = up ? display - 1 : display + 1
        if state.view.folds.hasSubtasks {
            // A family moves whole, past the whole family next to it at its own level.
            state.tasks.prepareIDLookups()
            let next = familyNeighbour(of: display, up: up, state)
            if let sibling = next.sibling, sibling.section == task.section {
                let changes = state.tasks.reorderingWithSubtasks(at: position, past: sibling, down: !up)
                let effects = commit(changes, "Reordered \(quoted(task))", &state)
                select(id: task.id, &state)
                return effects
            }
            if let parent = state.tasks.shownParent(of: task) {
                subtaskAtItsEnd(task, under: parent, up: up, &state)
                return []
            }
            neighbour = next.row  // a task of its own at its section's end
        }
        let target: (section: Section, index: Int)
        if neighbour >= 0, neighbour < layout.taskCount, layout.section(ofTask: neighbour) == section {
            // Take the neighbour's place: before it going up, after it going down (its index
            // drops by one once the task has left).
            target = (section, state.view.place(ofDisplay: neighbour, in: state.tasks).index)
        } else if up, section == .bonus {
            target = (.priority, state.tasks.count(in: .priority))
        } else if !up, section == .priority {
            target = (.bonus, 0)
        } else {
            state.message = Message(up ? "Already at the top" : "Already at the bottom", kind: .warning)
            return []
        }
        if target.section != task.section {
            // Into the other section a family goes whole, with m; a subtask stays with its parent.
            if state.tasks.isSubtask(at: position) {
                state.message = Message(subtaskStays(task), kind: .warning)
                return []
            }
            if !state.tasks.family(of: task).isEmpty {
                state.message = Message("\(quoted(task)) has subtasks: m moves it to \(target.section.title) with them", kind: .warning)
                return []
            }
        }
        let change = state.tasks.moving(from: position, to: target.section, index: target.index)
        let effects = commit(change.map { [$0] } ?? [], "Reordered \(quoted(task))", &state)
        select(index: target.index, in: target.section, &state)
        return effects
    }

    static func deleteSelected(_ state: inout AppState) -> [Effect] {
        guard let position = state.selectedPosition else { return [] }
        let task = state.tasks[position]
        let changes = state.tasks.deletingWithSubtasks(at: position)
        let subtasks = changes.count - 1
        let description = "Deleted \(quoted(task))\(subtasks > 0 ? " and its \(subtasks) subtask\(subtasks == 1 ? "" : "s")" : "")"
        let effects = commit(changes, description, &state)
        state.message = Message(description + " — u to undo")
        return effects
    }

    /// Why a subtask does not move by itself.
    static func subtaskStays(_ task: TaskItem) -> String {
        "\(quoted(task)) is a subtask: it stays in its parent's section (move the parent)"
    }

    static func askToClearCompleted(_ state: inout AppState) {
        // A completed task with an open subtask stays (its subtask would lose its parent).
        let count = state.tasks.completedCount - state.tasks.completedWithOpenSubtasks
        guard count > 0 else {
            state.message = Message("No completed tasks to clear", kind: .warning)
            return
        }
        state.confirmation = .clearCompleted(count: count)
    }

    /// The key after a confirmation question: y or Y does it, anything else keeps everything.
    static func answer(_ confirmation: Confirmation, _ key: Key, _ state: inout AppState) -> [Effect] {
        switch confirmation {
        case .clearCompleted(let count):
            guard key == .character("y") || key == .character("Y") else {
                state.message = Message("Nothing cleared")
                return []
            }
            let description = "Cleared \(count) completed \(count == 1 ? "task" : "tasks")"
            let effects = commit(state.tasks.removingCompleted(), description, &state)
            state.message = Message(description + " — u to undo")
            return effects
        }
    }

    // MARK: Undo and redo

    static func undo(_ state: inout AppState) -> [Effect] {
        guard let step = state.history.popUndo() else {
            state.message = Message("Nothing to undo", kind: .warning)
            return []
        }
        return replay(step.changes.inverse, of: step, undoing: true, &state)
    }

    static func redo(_ state: inout AppState) -> [Effect] {
        guard let step = state.history.popRedo() else {
            state.message = Message("Nothing to redo", kind: .warning)
            return []
        }
        return replay(step.changes, of: step, undoing: false, &state)
    }

    /// Performs undone or redone changes by id. A change whose task was changed elsewhere since
    /// (its fields no longer hold what the step left) is skipped, and the message says so. The
    /// first task put in place is selected (the top of what an undone "clear completed"
    /// restores); the selection stays where it was when they only remove.
    private static func replay(_ changes: [TaskChange], of step: UndoStep, undoing: Bool, _ state: inout AppState) -> [Effect] {
        let still = StillApplicable(changes, on: state.tasks)
        let applicable = still.changes
        let changedElsewhere = still.skipped.lazy.compactMap { skipped -> TaskItem? in
            if case .changedSince(let task) = skipped { return task }
            return nil
        }.first
        let verb = undoing ? "Undone" : "Redone"
        guard !applicable.isEmpty else {
            // A step whose tasks another program changed since stays on top, so the next `u`
            // never takes back an older change past it (as `--undo` refuses to). One whose tasks
            // are gone, or back already, has nothing left to take back.
            if changedElsewhere != nil { state.history.putBack(undoing: undoing) }
            state.message = Message(
                changedElsewhere.map { "Not \(verb.lowercased()): \(quoted($0)) was changed in another program since" }
                    ?? "Not \(verb.lowercased()): the tasks are no longer there", kind: .warning)
            return []
        }
        perform(applicable, addsOnlyNewTasks: still.addsOnlyNewTasks, &state)
        if let first = state.tasks.firstPosition(placedBy: applicable) {
            select(index: state.tasks.index(ofPosition: first), in: state.tasks.section(ofPosition: first), &state)
        }
        let note = changedElsewhere.map { " — \(quoted($0)) was changed elsewhere and kept" } ?? ""
        state.message = Message("\(verb): \(step.description)" + (undoing ? " — ^R to redo" : " — u to undo") + note)
        let what = (undoing ? "Undo: " : "Redo: ") + step.description
        return [
            .save(
                Save(
                    applicable, what: what, undoes: undoing ? step.clock : nil, stepID: undoing ? nil : step.id,
                    undoesStep: undoing ? step.id : nil))
        ]
    }
}

extension TaskChange {
    /// The task a change adds, deletes or (for a set) nothing: for messages.
    var task: TaskItem {
        switch self {
        case .add(let task), .delete(let task): task
        case .set(let id, _, _): TaskItem(id: id, caption: "", createdAt: .distantPast)
        }
    }
}
