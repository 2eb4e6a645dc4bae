import FoundationEssentials
import Glibc
import HotTaskCore

extension AppUpdate {
    /// `o`: the input row adds subtasks under the selected task, each after its subtasks,
    /// until the input is left; the row says under which.
    static func startSubtask(_ state: inout AppState) {
        guard let position = state.selectedPosition else {
            state.message = Message("No task to add a subtask under", kind: .warning)
            return
        }
        let parent = state.tasks[position]
        state.addingUnder = parent.id
        // What is added shows under it: a folded parent opens.
        if state.view.folds.isFolded(parent.id) { setFolds(state.view.folds.folded.subtracting([parent.id]), selecting: parent.id, &state) }
        state.focus = .input
    }
}

extension AppUpdate {
    /// The folds remembered from the last run (those of tasks that have subtasks now).
    public static func restoreFolds(_ folded: Set<UUID>, _ state: inout AppState) {
        setFolds(folded.intersection(state.view.folds.parents), selecting: state.selectedTask?.id, &state)
    }

    /// `z`: hides or shows the selected task's subtasks; on a subtask without any, folds its
    /// parent (as vim's `za` closes the fold around the cursor) and selects it.
    static func toggleFold(_ state: inout AppState) {
        guard let task = state.selectedTask else { return }
        state.tasks.prepareIDLookups()
        let key = state.bindings.firstLabel(of: .fold) ?? "z"
        var folded = state.view.folds.folded
        if state.view.folds.counts(of: task.id) != nil {
            if folded.remove(task.id) == nil {
                folded.insert(task.id)
                state.message = Message("Folded \(quoted(task)) — \(key) shows its subtasks")
            }
            setFolds(folded, selecting: task.id, &state)
        } else if let parentID = state.tasks.shownParent(of: task), let parent = state.tasks.task(withID: parentID) {
            folded.insert(parentID)
            setFolds(folded, selecting: parentID, &state)
            state.message = Message("Folded \(quoted(parent)) — \(key) shows its subtasks")
        } else {
            state.message = Message("\(quoted(task)) has no subtasks to fold", kind: .warning)
        }
    }

    /// `Z`: unfolds every family when any is folded, else folds them all.
    static func toggleAllFolds(_ state: inout AppState) {
        guard state.view.folds.hasSubtasks else {
            state.message = Message("No task has subtasks to fold", kind: .warning)
            return
        }
        let unfolding = !state.view.folds.hidden.isEmpty
        let selected = state.selectedTask?.id
        setFolds(unfolding ? [] : state.view.folds.parents, selecting: selected, &state)
        state.message = Message(unfolding ? "Every subtask shown" : "Every family folded")
    }

    /// Folds these tasks, keeping the selected one selected, or the fold it went into.
    static func setFolds(_ folded: Set<UUID>, selecting id: UUID?, _ state: inout AppState) {
        state.view.setFolds(folded, list: state.tasks)
        guard var id else { return }
        // Out of a fold that hides it, up to the folded task it is under.
        for _ in 0..<64 where state.view.folds.hidden.contains(id) && !state.view.isFiltering {
            guard let task = state.tasks.task(withID: id), let up = state.tasks.shownParent(of: task) else { break }
            id = up
        }
        select(id: id, &state)
    }

    /// `l` or Ctrl/Alt-→: the selected task under the nearest task above it at its level (in
    /// its section), after that task's subtasks; its own subtasks go with it.
    static func indent(_ state: inout AppState) -> [Effect] {
        guard let position = state.selectedPosition else { return [] }
        // Parents are looked up one by one here: by the id index, not a scan each.
        state.tasks.prepareIDLookups()
        let task = state.tasks[position]
        let level = state.tasks.shownParent(of: task)
        var above: TaskItem?
        // Up the rows shown: a sibling, or the parent (then it is the first of its level).
        var display = state.selection - 1
        while display >= 0, state.selection - display <= Self.indentSearchRows {
            let place = state.view.place(ofDisplay: display, in: state.tasks)
            guard place.section == task.section else { break }
            let candidate = state.tasks.tasks(in: place.section)[place.index]
            if candidate.id == level { break }
            if state.tasks.shownParent(of: candidate) == level {
                above = candidate
                break
            }
            display -= 1
        }
        guard let above, let changes = state.tasks.reparenting(at: position, under: above, afterFamilyOf: above) else {
            state.message = Message("No task above \(quoted(task)) at its level to go under", kind: .warning)
            return []
        }
        // Into a fold it would vanish: the new parent opens.
        if state.view.folds.isFolded(above.id) { state.view.setFolds(state.view.folds.folded.subtracting([above.id]), list: state.tasks) }
        let description = "Moved \(quoted(task)) under \(quoted(above))"
        let effects = commit(changes, description, &state)
        select(id: task.id, &state)
        state.message = Message(description + " — u to undo")
        return effects
    }

    /// How far up `indent` looks for the task to go under (a sort can put it far away).
    static let indentSearchRows = 2_000

    /// `h` or Ctrl/Alt-←: the selected subtask up a level, after its parent's family; its own
    /// subtasks go with it.
    static func outdent(_ state: inout AppState) -> [Effect] {
        guard let position = state.selectedPosition else { return [] }
        state.tasks.prepareIDLookups()
        let task = state.tasks[position]
        guard let parentID = state.tasks.shownParent(of: task), let parent = state.tasks.task(withID: parentID) else {
            state.message = Message("\(quoted(task)) is not a subtask: it is at the top level", kind: .warning)
            return []
        }
        let grandparent = state.tasks.shownParent(of: parent).flatMap { state.tasks.task(withID: $0) }
        let changes = state.tasks.reparenting(at: position, under: grandparent, afterFamilyOf: parent) ?? []
        let description = "Moved \(quoted(task)) " + (grandparent.map { "up, under \(quoted($0))" } ?? "out from under \(quoted(parent))")
        let effects = commit(changes, description, &state)
        select(id: task.id, &state)
        state.message = Message(description + " — u to undo")
        return effects
    }
}
