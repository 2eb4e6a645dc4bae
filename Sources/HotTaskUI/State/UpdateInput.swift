import Foundation
import HotTaskCore
import HotTaskSettings

extension AppUpdate {
    /// The new-task input: editing keys, Enter adds; arrows scroll the list meanwhile.
    static func handleInputKey(_ key: Key, _ state: inout AppState, now: Date, newID: UUID) -> [Effect] {
        if editLine(key, &state.input, killed: &state.killed) { return [] }
        switch key {
        case .enter: return addTask(&state, now: now, id: newID)
        case .up, .down, .pageUp, .pageDown: moveSelection(key, &state)
        case .tab where state.plusTags:
            if completeTag(\.input, filter: false, &state) != nil { return [] }
            state.focus = .list
        case .tab, .backTab: state.focus = .list
        // Esc takes back `o`: the keys go back to the list, the typed text stays in the input.
        case .escape where state.addingUnder != nil:
            let parent = state.addingUnder.flatMap { state.tasks.task(withID: $0) }
            state.focus = .list
            state.message = Message("No subtask added" + (parent.map { " under \(quoted($0))" } ?? ""))
        case .control("f"): openFilter(&state)
        case .control("r"): return redo(&state)
        case .function(2): startEditing(&state)
        case .function(3): startDue(&state)
        default: break
        }
        return []
    }
}
