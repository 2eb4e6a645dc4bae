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

        // Right: every mode when it fits beside a usable filter, else only what differs from
        // the default (Manual, completed in place).
        var segments = SortMode.allCases.map { Segment(label: $0.title, active: $0 == state.view.sort) }
        if state.view.completedLast { segments.append(Segment(label: "done last", active: true, isToggle: true)) }
        if segments.totalWidth + 20 > width {
            segments = segments.filter { $0.active && $0.label != SortMode.manual.title }
        }
        var controlStart = width
        if !segments.isEmpty, segments.totalWidth + 8 <= width {
            controlStart = width - 1 - segments.totalWidth
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
        if state.filter.isEmpty {
            let x = grid.put("type to filter ", x: fieldStart, y: y, style: .placeholder, limit: fieldEnd)
            grid.put(" ", x: x, y: y, style: .rule, limit: fieldEnd)
            if focused { grid.cursor = (fieldStart, y) }
            return
        }
        let (first, cursorColumn) = visibleStart(of: state.filter, fieldWidth: fieldEnd - fieldStart)
        let x = grid.put(state.filter.characters[first...], x: fieldStart, y: y, style: .filterText, limit: fieldEnd)
        grid.put(" ", x: x, y: y, style: .rule, limit: fieldEnd)
        if focused { grid.cursor = (fieldStart + cursorColumn, y) }
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
