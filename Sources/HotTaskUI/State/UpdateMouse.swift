import FoundationEssentials
import Glibc
import HotTaskCore

/// A click of the left mouse button: on a task it selects it (and gives the list the keys), on
/// its checkbox it toggles it, twice on its caption it edits it; on a sort label it sorts so; on
/// the input row it puts the keys and the cursor there, on `[Add]` it adds. The wheel is
/// `scrollView`'s. Nothing a click does is not also a key's.
extension AppUpdate {
    /// Two clicks on one task within this time are a double-click.
    static let doubleClickWindow: TimeInterval = 0.4

    static func click(column: Int, row: Int, _ state: inout AppState, now: Date, newID: UUID) -> [Effect] {
        // Like a key, a click closes the help or answers a question (with "no").
        if state.help != nil {
            state.help = nil
            return []
        }
        if let confirmation = state.confirmation {
            state.confirmation = nil
            return answer(confirmation, .escape, &state)
        }
        let screen = state.screen
        guard !screen.isTooSmall else { return [] }
        // An open prompt is not left behind by a stray click: Enter and Esc end it.
        switch state.focus {
        case .editing:
            state.message = Message("Enter saves the edit, Esc cancels it")
            return []
        case .due:
            state.message = Message("Enter sets the due date, Esc cancels it")
            return []
        case .repeating:
            state.message = Message("Enter sets the repeat rule, Esc cancels it")
            return []
        case .listing:
            state.message = Message("Enter moves the task to the list, Esc cancels it")
            return []
        case .history, .calendar:
            // The views are for looking: a click does nothing there (Esc or q leaves them).
            return []
        case .input, .list, .filter: break
        }
        let lastClick = state.lastClick
        state.lastClick = nil
        if row == screen.inputRow {
            return clickInput(column: column, &state, now: now, newID: newID)
        }
        if row == screen.ruleRow {
            clickViewBar(column: column, &state)
            return []
        }
        guard row >= screen.listTop, row < screen.listTop + screen.listHeight, row < screen.footerRow else { return [] }
        let content = state.layout.content(ofRow: state.scrollOffset + row - screen.listTop)
        switch content {
        case .task(let display), .details(let display):
            leaveFilterLine(&state)
            state.selection = display
            // Typing in the input, a click on a task: the next letters are commands now.
            if state.focus != .list { state.message = Message("Selected — " + keysGo(to: .list), shorter: ["Selected: keys go to the list"]) }
            state.focus = .list
            guard case .task = content, let task = state.selectedTask else { return [] }
            // "› [ ] ": the checkbox is columns 2 to 4.
            if (2...4).contains(column) { return toggleCompleted(&state, now: now) }
            if let lastClick, lastClick.taskID == task.id, lastClick.row == row, now.timeIntervalSince(lastClick.at) <= doubleClickWindow,
                now >= lastClick.at
            {
                state.message = nil
                startEditing(&state)
                return []
            }
            state.lastClick = LastClick(taskID: task.id, row: row, at: now)
        default:
            break  // headers, hints and spacers select nothing
        }
        return []
    }

    /// A click on the view bar: a sort label sorts so, "done last" turns completed-last on or
    /// off, as `s` and `c` would.
    private static func clickViewBar(column: Int, _ state: inout AppState) {
        let (segments, start) = BarGeometry.sortControl(state, width: state.size.width)
        var x = start
        for segment in segments {
            if segment.isToggle { x += 1 }
            let label = x..<(x + segment.width - (segment.isToggle ? 1 : 0))
            x = label.upperBound
            guard label.contains(column) else { continue }
            leaveFilterLine(&state)
            if segment.isToggle {
                setOrder(state.view.sort, completedLast: !state.view.completedLast, &state)
            } else if let mode = SortMode.allCases.first(where: { $0.title == segment.label }) {
                setOrder(mode, completedLast: state.view.completedLast, &state)
            }
            return
        }
    }

    private static func clickInput(column: Int, _ state: inout AppState, now: Date, newID: UUID) -> [Effect] {
        leaveFilterLine(&state)
        state.focus = .input
        let fieldStart = DisplayWidth.of(BarGeometry.prompt)
        let markerStart = state.size.width - DisplayWidth.of(BarGeometry.addMarker) - 1
        if column >= markerStart {
            return column < markerStart + DisplayWidth.of(BarGeometry.addMarker) ? addTask(&state, now: now, id: newID) : []
        }
        state.input.place(atColumn: column - fieldStart, width: BarGeometry.fieldWidths(state).input)
        return []
    }

    /// Clicked away from the filter line: as Enter there, the filter is kept (or closed
    /// when empty).
    private static func leaveFilterLine(_ state: inout AppState) {
        if state.focus == .filter { _ = handleFilterKey(.enter, &state) }
    }
}
