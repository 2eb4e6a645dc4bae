import HotTaskCore

/// The rule under the input doubles as the list's header bar: the filter on the left (while
/// it is open or kept) and the sort modes on the right, like a segmented control.
///
///     ─ / caf ──────────────────────────────────── [Manual] Newest  Oldest  A–Z ─
extension AppRender {
    static func drawViewBar(_ state: AppState, _ screen: ScreenLayout, _ grid: inout Grid) {
        let y = screen.ruleRow
        let width = screen.size.width
        grid.put(String(repeating: "─", count: width), x: 0, y: y, style: .rule)

        let (segments, controlStart) = BarGeometry.sortControl(state, width: width)
        if controlStart < width {
            var x = grid.put(" ", x: controlStart - 1, y: y, style: .rule)
            for segment in segments {
                if segment.isToggle { x = grid.put(" ", x: x, y: y, style: .rule) }
                x = grid.put(
                    segment.active ? "[\(segment.label)]" : " \(segment.label) ", x: x, y: y,
                    style: segment.active ? .segmentActive : .segment)
            }
        }

        // Left: the filter, else the lists.
        guard state.focus == .filter || state.view.isFiltering else {
            drawListBar(state, until: controlStart - 1, y: y, &grid)
            return
        }
        let focused = state.focus == .filter
        let fieldStart = grid.put(" " + BarGeometry.filterPrompt, x: 1, y: y, style: focused ? .prompt : .promptInactive)
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
}

extension AppRender {
    /// The progress of the list shown: every task's when all lists are, else that list's.
    static func currentProgress(_ state: AppState) -> Progress {
        guard let name = state.currentList else { return Progress(state.tasks) }
        let count = state.tasks.count(ofListNamed: name)
        return Progress(completed: count.completed, total: count.total)
    }

    /// The lists on the rule's left while no filter is there: each name, the shown one in
    /// brackets, and "All" last; nothing for a store of one list.
    static func drawListBar(_ state: AppState, until end: Int, y: Int, _ grid: inout Grid) {
        let names = state.listSummary.names
        guard names.count > 1 else { return }
        var x = 1
        for name in names.map({ Optional($0) }) + [nil] {
            let label = name ?? "All"
            let active = name == state.currentList
            let text = active ? "[\(label)]" : " \(label) "
            guard x + DisplayWidth.of(text) + 1 < end else { return }
            x = grid.put(text, x: x, y: y, style: active ? .segmentActive : .segment)
        }
    }
}
