import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

extension AppUpdate {
    /// The list: selection, changes to the selected task, view (sort, filter) and undo.
    /// Keys are looked up in the state's bindings, so the config file can move any action.
    static func handleListKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        // Esc always clears a kept filter first, whatever it is bound to.
        if key == .escape, state.view.isFiltering {
            clearFilter(&state)
            return []
        }
        guard let action = state.bindings.action(for: key) else {
            if let note = state.bindings.absentNote(for: key) {
                state.message = Message("\(KeyName.label(of: key)) is \(note)", kind: .warning)
            } else if case .character = key {
                let ways = (KeyBindings.fixed[.input] ?? []) + (state.bindings.keys[.input] ?? []).prefix(1)
                let input = ways.map(KeyName.label(of:)).joined(separator: " or ")
                let help = state.bindings.firstLabel(of: .help) ?? "F1"
                state.message = Message("Press \(input) to type a new task, \(help) for keys", kind: .warning)
            }
            return []
        }
        switch action {
        case .up: moveSelection(.up, &state)
        case .down: moveSelection(.down, &state)
        case .pageUp: moveSelection(.pageUp, &state)
        case .pageDown: moveSelection(.pageDown, &state)
        case .first: moveSelection(.home, &state)
        case .last: moveSelection(.end, &state)
        case .jumpPriority: jump(to: .priority, &state)
        case .jumpBonus: jump(to: .bonus, &state)
        case .toggle: return toggleCompleted(&state, now: now)
        case .move: return moveToOtherSection(&state, now: now)
        case .reorderUp: return reorder(up: true, &state, now: now)
        case .reorderDown: return reorder(up: false, &state, now: now)
        case .edit: startEditing(&state)
        case .due: startDue(&state)
        case .repeatRule: startRepeat(&state)
        case .note: return startNote(&state)
        case .delete: return deleteSelected(&state)
        case .clearCompleted: askToClearCompleted(&state)
        case .undo: return undo(&state)
        case .redo: return redo(&state)
        case .filter: openFilter(&state)
        case .sort: setOrder(state.view.sort.next, completedLast: state.view.completedLast, &state)
        case .completedLast: setOrder(state.view.sort, completedLast: !state.view.completedLast, &state)
        case .details: toggleDetails(&state)
        case .nextList: switchList(by: 1, &state)
        case .previousList: switchList(by: -1, &state)
        case .moveToList: startListing(&state)
        case .addSubtask: startSubtask(&state)
        case .fold: toggleFold(&state)
        case .foldAll: toggleAllFolds(&state)
        case .indent: return indent(&state)
        case .outdent: return outdent(&state)
        case .history: openHistory(&state)
        case .calendar: openCalendar(&state)
        case .help: openHelp(.list, &state)
        case .input: state.focus = .input
        case .quit: return [.quit]
        }
        return []
    }

    /// `v`: each task's second line on or off. The selected task stays where it was on
    /// screen; the run loop remembers `showsDetails` for the next start when it quits.
    private static func toggleDetails(_ state: inout AppState) {
        let before = state.layout
        let screenRow = before.taskCount > 0 ? before.row(ofTask: state.selection) - state.scrollOffset : 0
        state.showsDetails.toggle()
        if before.taskCount > 0 { state.scrollOffset = max(0, state.layout.row(ofTask: state.selection) - screenRow) }
        state.message = Message(state.showsDetails ? "Details on: when each task was added and done" : "Details off")
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
    static func setOrder(_ sort: SortMode, completedLast: Bool, _ state: inout AppState) {
        let selected = state.selectedPosition.map { (state.tasks.section(ofPosition: $0), state.tasks.index(ofPosition: $0)) }
        state.view.setOrder(sort, completedLast: completedLast, local: state.dates.local, list: state.tasks)
        if let (section, index) = selected { select(index: index, in: section, &state) }
        let completed = completedLast ? ", completed last" : ""
        state.message = Message(
            "Sort: \(sort.description)\(completed)" + (state.view.isManualOrder ? "" : " — a view; only Manual order is saved"))
    }
}
