import Foundation
import HotTaskCore

/// A click of the left mouse button: on a task it selects it (and gives the list the keys),
/// on the input row it puts the keys and the cursor there, on `[Add]` it adds. The wheel is
/// `scrollView`'s. Nothing a click does is not also a key's.
extension AppUpdate {
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
        if state.focus == .editing || state.focus == .due {
            // The edit or the due date is not left behind by a stray click: Enter and Esc end it.
            state.message = Message(state.focus == .due ? "Enter sets the due date, Esc cancels it" : "Enter saves the edit, Esc cancels it")
            return []
        }
        if row == screen.inputRow {
            return clickInput(column: column, &state, now: now, newID: newID)
        }
        guard row >= screen.listTop, row < screen.listTop + screen.listHeight, row < screen.footerRow else { return [] }
        switch state.layout.content(ofRow: state.scrollOffset + row - screen.listTop) {
        case .task(let display), .details(let display):
            leaveFilterLine(&state)
            state.selection = display
            // Typing in the input, a click on a task: the next letters are commands now.
            if state.focus != .list { state.message = Message("Selected — " + keysGo(to: .list), shorter: ["Selected: keys go to the list"]) }
            state.focus = .list
        default:
            break  // headers, hints and spacers select nothing
        }
        return []
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
