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
        case .control("f"): openFilter(&state)
        case .control("r"): return redo(&state)
        case .function(2): startEditing(&state)
        case .function(3): startDue(&state)
        default: break
        }
        return []
    }
}
