import FoundationEssentials
import Glibc
import HotTaskCore

extension AppUpdate {
    /// Where K or J takes the task shown at `display` while tasks have subtasks: `row`, the row
    /// next to it past its own family (the row above going up, the first row after its shown
    /// subtasks going down; -1 or the row count at either end), and `sibling`, the task at its
    /// own level that row belongs to, whose whole family it moves past. No sibling: the task is
    /// the first or last of its parent's subtasks, or at its section's end.
    ///
    /// An unfolded parent's own first subtask is never its neighbour, nor the last subtask of
    /// the family above it: a move past either landed inside a family and split it.
    static func familyNeighbour(of display: Int, up: Bool, _ state: AppState) -> (row: Int, sibling: TaskItem?) {
        let tasks = state.tasks
        let count = state.layout.taskCount
        func shown(_ row: Int) -> TaskItem { tasks[state.view.position(ofDisplay: row, in: tasks)] }
        let task = shown(display)
        let parent = tasks.shownParent(of: task)
        var row = display - 1
        if !up {
            let own = Set(tasks.family(of: task).map(\.id))
            row = display + 1
            while row < count, own.contains(shown(row).id) { row += 1 }
        }
        guard row >= 0, row < count else { return (row, nil) }
        // The row's task, or the ancestor of it at the task's own level.
        var candidate = shown(row)
        var seen: Set<UUID> = [candidate.id]
        while tasks.shownParent(of: candidate) != parent, let above = tasks.shownParent(of: candidate), seen.insert(above).inserted,
            let next = tasks.task(withID: above)
        {
            candidate = next
        }
        return (row, tasks.shownParent(of: candidate) == parent && candidate.id != task.id ? candidate : nil)
    }

    /// A subtask at either end of its parent's subtasks stays in the family: said, not moved.
    static func subtaskAtItsEnd(_ task: TaskItem, under parentID: UUID, up: Bool, _ state: inout AppState) {
        let parent = state.tasks.task(withID: parentID).map(quoted) ?? "its parent"
        let out = state.bindings.firstLabel(of: .outdent) ?? "h"
        state.message = Message(
            "\(quoted(task)) is the \(up ? "first" : "last") subtask of \(parent): \(out) takes it out of the family", kind: .warning)
    }
}
