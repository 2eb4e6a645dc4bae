import HotTaskCore

/// The rule under the input doubles as the list's header bar: the filter on the left (while
/// it is open or kept) and the sort modes on the right, like a segmented control.
///
///     ─ / caf ──────────────────────────────────── [Manual] Newest  Oldest  A–Z ─
extension AppRender {
    static let filterPrompt = "/ "

    static func drawViewBar(_ state: AppState, _ screen: ScreenLayout, _ grid: inout Grid) {
        let y = screen.ruleRow
        let width = screen.size.width
        grid.put(String(repeating: "─", count: width), x: 0, y: y, style: .rule)

        let (segments, controlStart) = sortControl(state, width: width)
        if controlStart < width {
            var x = grid.put(" ", x: controlStart - 1, y: y, style: .rule)
            for segment in segments {
                if segment.isToggle { x = grid.put(" ", x: x, y: y, style: .rule) }
                x = grid.put(
                    segment.active ? "[\(segment.label)]" : " \(segment.label) ", x: x, y: y,
                    style: segment.active ? .segmentActive : .segment)
            }
        }

        // Left: the filter.
        guard state.focus == .filter || state.view.isFiltering else { return }
        let focused = state.focus == .filter
        let fieldStart = grid.put(" " + filterPrompt, x: 1, y: y, style: focused ? .prompt : .promptInactive)
        let fieldEnd = controlStart - 2
        guard fieldEnd > fieldStart + 1 else { return }
        grid.put(String(repeating: " ", count: fieldEnd - fieldStart), x: fieldStart, y: y, style: .rule)
        if state.filter.isEmpty {
            let x = grid.put("type to filter ", x: fieldStart, y: y, style: .placeholder, limit: fieldEnd)
            grid.put(" ", x: x, y: y, style: .rule, limit: fieldEnd)
            if focused { grid.cursor = (fieldStart, y) }
            return
        }
        let (cursorX, end) = drawField(state.filter, from: fieldStart, to: fieldEnd, y: y, style: .filterText, &grid)
        grid.put(String(repeating: "─", count: max(0, fieldEnd - end - 1)), x: end + 1, y: y, style: .rule)
        if focused { grid.cursor = (cursorX, y) }
    }

    /// The sort control's segments and the column it starts at (the width when not shown):
    /// every mode when it fits beside a usable filter, else only what differs from the
    /// default (Manual, completed in place).
    private static func sortControl(_ state: AppState, width: Int) -> ([Segment], Int) {
        var segments = SortMode.allCases.map { Segment(label: $0.title, active: $0 == state.view.sort) }
        if state.view.completedLast { segments.append(Segment(label: "done last", active: true, isToggle: true)) }
        if segments.totalWidth + 20 > width {
            segments = segments.filter { $0.active && $0.label != SortMode.manual.title }
        }
        guard !segments.isEmpty, segments.totalWidth + 8 <= width else { return (segments, width) }
        return (segments, width - 1 - segments.totalWidth)
    }

    /// Columns of each line editor's field, for `update` to keep its cursor in view.
    static func fieldWidths(_ state: AppState) -> (input: Int, filter: Int, editor: Int) {
        let width = state.size.width
        let filterStart = 1 + DisplayWidth.of(" " + filterPrompt)
        let filterEnd = sortControl(state, width: width).1 - 2
        return (width - DisplayWidth.of(prompt) - DisplayWidth.of(addMarker) - 2, filterEnd - filterStart, width - 7)
    }
}

/// One label of the sort control: "[Active]" or " Other ", all the same width per label.
private struct Segment {
    let label: String
    let active: Bool
    /// A toggle rather than a mode: set apart by a space.
    var isToggle = false

    var width: Int { DisplayWidth.of(label) + 2 + (isToggle ? 1 : 0) }
}

extension [Segment] {
    fileprivate var totalWidth: Int { reduce(0) { $0 + $1.width } }
}
