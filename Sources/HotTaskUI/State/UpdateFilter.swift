import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// The filter line: each key narrows both sections; Enter keeps the filter, Esc clears it.
extension AppUpdate {
    static func handleFilterKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        let before = state.filter.text
        if editLine(key, &state.filter, killed: &state.killed) {
            if state.filter.text != before { applyFilter(&state) }
            return []
        }
        if key == .tab, completeTag(\.filter, filter: true, &state) != nil {
            if state.filter.text != before { applyFilter(&state) }
            return []
        }
        switch key {
        case .enter, .tab, .backTab:
            if state.view.isFiltering {
                // Opened from the input row: the keys land in the list, where letters are commands.
                if state.filterOrigin?.focus == .input {
                    state.message = Message("Filter kept — " + keysGo(to: .list), shorter: ["Filter kept: keys go to the list"])
                }
                state.focus = .list
            } else {
                clearFilter(&state)
            }
        case .escape: clearFilter(&state)
        case .up, .down, .pageUp, .pageDown: moveSelection(key, &state)
        default: break
        }
        return []
    }

    /// `/` or Ctrl-F. Remembers where the person was the first time, for Esc.
    static func openFilter(_ state: inout AppState) {
        if state.filterOrigin == nil {
            state.filterOrigin = FilterOrigin(
                focus: state.focus, selectedTaskID: state.selectedTask?.id, scrollOffset: state.scrollOffset)
        }
        state.filter.moveToEnd()
        state.focus = .filter
    }

    /// After each change of the filter text: the first matches are shown, wherever they are
    /// in the list (not only rows that happened to be on screen).
    static func applyFilter(_ state: inout AppState) {
        state.view.setQuery(state.filter.text, list: state.tasks, dates: state.dates)
        if state.filter.isEmpty {
            restoreOrigin(&state)
        } else {
            state.selection = 0
            state.scrollOffset = 0
            // The first match, not an ancestor shown above it for context.
            let count = state.view.count(of: state.tasks)
            while state.selection + 1 < count,
                state.view.context.contains(state.tasks[state.view.position(ofDisplay: state.selection, in: state.tasks)].id)
            {
                state.selection += 1
            }
        }
    }

    /// Esc: no filter, and the selection and scroll from before it opened.
    static func clearFilter(_ state: inout AppState) {
        state.filter.clear()
        state.view.setQuery("", list: state.tasks, dates: state.dates)
        restoreOrigin(&state)
        state.focus = state.filterOrigin?.focus ?? .list
        state.filterOrigin = nil
    }

    private static func restoreOrigin(_ state: inout AppState) {
        guard let origin = state.filterOrigin else { return }
        state.scrollOffset = origin.scrollOffset
        if let id = origin.selectedTaskID, let position = state.tasks.position(of: id) {
            select(
                index: state.tasks.index(ofPosition: position), in: state.tasks.section(ofPosition: position), &state)
        }
    }
}
