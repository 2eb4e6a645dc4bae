import FoundationEssentials
import Glibc
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
        // Esc takes back `o`'s parent and nothing else: the keys stay here, with what was typed
        // (moving them to the list would make the next letters list commands).
        case .escape where state.addingUnder != nil:
            let parent = state.addingUnder.flatMap { state.tasks.task(withID: $0) }
            state.addingUnder = nil
            state.message = Message("Not a subtask" + (parent.map { " of \(quoted($0))" } ?? "") + ": Enter adds a task of its own")
        case .control("f"): openFilter(&state)
        case .control("r"): return redo(&state)
        case .function(2): startEditing(&state)
        case .function(3): startDue(&state)
        default: break
        }
        return []
    }
}
