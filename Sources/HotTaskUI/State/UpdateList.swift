import Foundation
import HotTaskCore

extension AppUpdate {
    /// The list: selection, changes to the selected task, view (sort, filter) and undo.
    static func handleListKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        switch key {
        case .up, .down, .pageUp, .pageDown, .home, .end: moveSelection(key, &state)
        case .character("k"): moveSelection(.up, &state)
        case .character("j"): moveSelection(.down, &state)
        case .character("g"): moveSelection(.home, &state)
        case .character("G"): moveSelection(.end, &state)
        case .character("["): jump(to: .priority, &state)
        case .character("]"): jump(to: .bonus, &state)
        case .character(" "), .character("x"): return toggleCompleted(&state, now: now)
        case .character("m"): return moveToOtherSection(&state, now: now)
        case .character("K"), .shiftUp: return reorder(up: true, &state, now: now)
        case .character("J"), .shiftDown: return reorder(up: false, &state, now: now)
        case .character("e"), .function(2): startEditing(&state)
        case .character("d"), .delete: return deleteSelected(&state)
        case .character("C"): askToClearCompleted(&state)
        case .character("u"): return undo(&state)
        case .control("r"): return redo(&state)
        case .character("/"), .control("f"): openFilter(&state)
        case .character("s"): setOrder(state.view.sort.next, completedLast: state.view.completedLast, &state)
        case .character("c"): setOrder(state.view.sort, completedLast: !state.view.completedLast, &state)
        case .character("?"): state.help = .list
        case .escape where state.view.isFiltering: clearFilter(&state)
        case .character("i"), .enter, .escape, .tab, .backTab: state.focus = .input
        case .character("q"): return [.quit]
        case .character:
            state.message = Message("Press i or Tab to type a new task, ? for keys", kind: .warning)
        default: break
        }
        return []
    }

    /// `[` and `]`: the first task of a section, with its header at the top of the screen.
    private static func jump(to section: Section, _ state: inout AppState) {
        let layout = state.layout
        guard let first = layout.firstTask(of: section) else {
            state.message = Message(
                state.view.isFiltering ? "No matches in \(section.title)" : "\(section.title) has no tasks", kind: .warning)
            return
        }
        state.selection = first
        state.scrollOffset = layout.headerRow(of: section)
    }

    /// A new sort mode or "completed last": sorts once, and keeps the selected task selected.
    private static func setOrder(_ sort: SortMode, completedLast: Bool, _ state: inout AppState) {
        let selected = state.selectedPosition.map { (state.tasks.section(ofPosition: $0), state.tasks.index(ofPosition: $0)) }
        state.view.setOrder(sort, completedLast: completedLast, list: state.tasks)
        if let (section, index) = selected { select(index: index, in: section, &state) }
        let completed = completedLast ? ", completed last" : ""
        state.message = Message(
            "Sort: \(sort.description)\(completed)" + (state.view.isManualOrder ? "" : " — a view; only Manual order is saved"))
    }
}
