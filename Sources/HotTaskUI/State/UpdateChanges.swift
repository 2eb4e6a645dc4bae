import Foundation
import HotTaskCore

/// Changes to tasks. Each is a list of `TaskChange`s: applied to the list and the view
/// together, recorded for undo, and saved.
extension AppUpdate {
    /// Applies changes one by one to the list and then the view (the view's binary search
    /// reads the list as it is after each change).
    static func perform(_ changes: [TaskChange], _ state: inout AppState) {
        for change in changes {
            state.tasks.apply(change)
            state.view.apply(change, list: state.tasks)
        }
    }

    /// Performs changes a key asked for, records them as one undo step, and saves.
    static func commit(_ changes: [TaskChange], _ description: String, _ state: inout AppState) -> [Effect] {
        guard !changes.isEmpty else { return [] }
        perform(changes, &state)
        state.history.record(UndoStep(changes, description: description))
        return [.save(state.tasks)]
    }

    static func quoted(_ task: TaskItem) -> String {
        "“\(task.caption.truncated(toWidth: 40))”"
    }

    /// `text` under the caption rule, or nil with the reason in the footer: `whenEmpty` for
    /// whitespace alone, else `refused` and the rule's own words.
    static func caption(_ text: String, whenEmpty: String, refused: String, _ state: inout AppState) -> String? {
        do {
            return try CaptionRule.clean(text)
        } catch .empty {
            state.message = Message(whenEmpty, kind: .warning)
        } catch {
            state.message = Message("\(refused): \(error)", kind: .warning)
        }
        return nil
    }

    static func addTask(_ state: inout AppState, now: Date) -> [Effect] {
        guard
            let caption = caption(
                state.input.text, whenEmpty: "Nothing to add — type a task first", refused: "Not added", &state)
        else { return [] }
        let section = state.newTaskSection
        let task = TaskItem(caption: caption, section: section, createdAt: now)
        let effects = commit([.inserted(task, at: 0)], "Added \(quoted(task))", &state)
        state.input.clear()
        // Select the new task so the person sees it land, wherever the list was scrolled.
        if let display = state.view.display(ofIndex: 0, in: section, of: state.tasks) {
            state.selection = display
        } else {
            state.message = Message("Added \(quoted(task)) — the filter hides it")
        }
        return effects
    }

    /// Space: the row stays selected, even when "completed last" sends the task away, so that
    /// Space, Space... completes one task after another.
    static func toggleCompleted(_ state: inout AppState, now: Date) -> [Effect] {
        guard let position = state.selectedPosition else { return [] }
        let task = state.tasks[position]
        guard let change = state.tasks.completing(!task.completed, at: position, now: now) else { return [] }
        return commit([change], (task.completed ? "Reopened " : "Completed ") + quoted(task), &state)
    }

    static func moveToOtherSection(_ state: inout AppState, now: Date) -> [Effect] {
        guard let position = state.selectedPosition else { return [] }
        let task = state.tasks[position]
        let target = task.section.other
        let changes = state.tasks.moving(from: position, to: target, index: 0, now: now)
        let description = "Moved \(quoted(task)) to \(target.title)"
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
        let neighbour = up ? display - 1 : display + 1
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
        let task = state.tasks[position]
        let changes = state.tasks.moving(from: position, to: target.section, index: target.index, now: now)
        let effects = commit(changes, "Reordered \(quoted(task))", &state)
        select(index: target.index, in: target.section, &state)
        return effects
    }

    static func deleteSelected(_ state: inout AppState) -> [Effect] {
        guard let position = state.selectedPosition else { return [] }
        let task = state.tasks[position]
        let description = "Deleted \(quoted(task))"
        let effects = commit([.removed(task, at: state.tasks.index(ofPosition: position))], description, &state)
        state.message = Message(description + " — u to undo")
        return effects
    }

    static func askToClearCompleted(_ state: inout AppState) {
        let count = state.tasks.completedCount
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
        replay(step.changes.inverse, &state)
        state.message = Message("Undone: \(step.description) — ^R to redo")
        return [.save(state.tasks)]
    }

    static func redo(_ state: inout AppState) -> [Effect] {
        guard let step = state.history.popRedo() else {
            state.message = Message("Nothing to redo", kind: .warning)
            return []
        }
        replay(step.changes, &state)
        state.message = Message("Redone: \(step.description) — u to undo")
        return [.save(state.tasks)]
    }

    /// Performs undone or redone changes and selects the first task they put in place (the
    /// top of what an undone "clear completed" restores); the selection stays where it was
    /// when they only remove.
    private static func replay(_ changes: [TaskChange], _ state: inout AppState) {
        perform(changes, &state)
        let placed = changes.first {
            if case .removed = $0 { return false }
            return true
        }
        if let placed { select(index: placed.index, in: placed.section, &state) }
    }
}
