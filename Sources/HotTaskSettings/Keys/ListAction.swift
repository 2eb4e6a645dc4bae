/// What a key does in the list. The raw values are the names used in the config file's
/// `[keys]` table, so a person can rebind every list action by name.
package enum ListAction: String, CaseIterable, Sendable {
    case up, down
    case pageUp = "page_up"
    case pageDown = "page_down"
    case first, last
    case jumpPriority = "jump_priority"
    case jumpBonus = "jump_bonus"
    case toggle, move
    /// A new task from the input row under the selected one, as its subtask.
    case addSubtask = "add_subtask"
    /// Hide or show the selected task's subtasks; every family at once.
    case fold
    case foldAll = "fold_all"
    /// The selected task under the task above it, at its level; up a level, after its parent.
    case indent, outdent
    case reorderUp = "reorder_up"
    case reorderDown = "reorder_down"
    case edit, delete
    /// Set or clear the selected task's due date.
    case due
    /// Set or stop the selected task's repeat rule.
    case repeatRule = "repeat"
    /// Open the selected task's note in `$VISUAL` or `$EDITOR`.
    case note
    case clearCompleted = "clear_completed"
    case undo, redo, filter, sort
    case completedLast = "completed_last"
    /// A second, dimmer line under each task: when it was added and completed.
    case details
    /// The next list, the one before (the last stop is every list at once).
    case nextList = "next_list"
    case previousList = "previous_list"
    /// Move the selected task to another list (a prompt that finds the list as you type).
    case moveToList = "move_to_list"
    /// The history view (completions per day, open tasks, a year's heat map), and the month
    /// calendar of due dates: views over the list that Esc or q leave.
    case history, calendar
    /// Back to the new-task input.
    case input
    case help, quit

    /// The config file's name for the action.
    package var name: String { rawValue }
}
