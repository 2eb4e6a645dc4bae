import Foundation
import HotTaskCore

extension AppUpdate {
    /// `o`: the input row adds subtasks under the selected task, each after its subtasks,
    /// until the input is left; the row says under which.
    static func startSubtask(_ state: inout AppState) {
        guard let position = state.selectedPosition else {
            state.message = Message("No task to add a subtask under", kind: .warning)
            return
        }
        state.addingUnder = state.tasks[position].id
        state.focus = .input
    }
}
