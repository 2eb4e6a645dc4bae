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

        // Right: every mode when it fits beside a usable filter, else the active one alone.
        var segments = SortMode.allCases.map { ($0.title, $0 == state.view.sort) }
        if state.view.completedLast { segments.append(("done last", true)) }
        func segmentsWidth(_ segments: [(String, Bool)]) -> Int {
            segments.reduce(0) { $0 + DisplayWidth.of($1.0) + 2 }
        }
        if segmentsWidth(segments) + 20 > width {
            // Narrow: only what differs from the default (Manual, completed in place).
            segments = segments.filter { $0.1 && $0.0 != SortMode.manual.title }
        }
        var controlStart = width
        if !segments.isEmpty, segmentsWidth(segments) + 8 <= width {
            controlStart = width - 1 - segmentsWidth(segments)
            var x = grid.put(" ", x: controlStart - 1, y: y, style: .rule)
            for (title, active) in segments {
                x = grid.put(active ? "[\(title)]" : " \(title) ", x: x, y: y, style: active ? .segmentActive : .segment)
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
