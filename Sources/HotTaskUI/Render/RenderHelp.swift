import HotTaskCore

/// The help overlay: every key of one focus in a box drawn over the screen. Any key closes it.
extension AppRender {
    static func drawHelp(for focus: Focus, bindings: KeyBindings, section: Section, _ screen: ScreenLayout, _ grid: inout Grid) {
        let entries = KeyHelp.entries(for: focus, bindings: bindings, section: section)
        let width = screen.size.width
        let title = " Keys: \(focus.helpTitle) "
        let footer = " any key closes "
        let actionColumn = entries.map { DisplayWidth.of($0.action) }.max() ?? 0
        let widestKeys = entries.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let boxWidth = min(width - 2, max(widestKeys + actionColumn + 6, DisplayWidth.of(title) + 4))
        // On a narrow screen the keys get at most half the box, so the actions stay readable.
        let keyColumn = min(widestKeys, (boxWidth - 6) / 2)
        // Rows 1...footer-1 are free; show what fits, with "…" when entries are cut.
        let room = max(0, screen.footerRow - 1 - 2)
        let shown = entries.count <= room ? entries.count : max(0, room - 1)
        let boxHeight = min(room, entries.count) + 2
        let left = (width - boxWidth) / 2
        let top = 1 + max(0, (screen.footerRow - 1 - boxHeight) / 2)
        let inner = boxWidth - 2

        func border(_ y: Int, _ leftCorner: String, _ rightCorner: String, _ label: String) {
            var x = grid.put(leftCorner + "─", x: left, y: y, style: .overlay)
            x = grid.put(label.truncated(toWidth: inner - 2), x: x, y: y, style: .overlayKey)
            x = grid.put(String(repeating: "─", count: max(0, left + boxWidth - 1 - x)), x: x, y: y, style: .overlay)
            grid.put(rightCorner, x: left + boxWidth - 1, y: y, style: .overlay)
        }
        border(top, "┌", "┐", title)
        for line in 0..<(boxHeight - 2) {
            let y = top + 1 + line
            grid.put("│" + String(repeating: " ", count: inner) + "│", x: left, y: y, style: .overlay)
            guard line < shown else {
                grid.put("…", x: left + 2, y: y, style: .overlay)
                continue
            }
            let entry = entries[line]
            let x = grid.put(entry.keys.truncated(toWidth: keyColumn), x: left + 2, y: y, style: .overlayKey)
            let actionX = max(x + 1, left + 2 + keyColumn + 2)
            grid.put(entry.action.truncated(toWidth: left + boxWidth - 2 - actionX), x: actionX, y: y, style: .overlay)
        }
        border(top + boxHeight - 1, "└", "┘", footer)
        grid.cursor = nil
    }
}

extension Focus {
    /// What the help overlay calls this focus.
    var helpTitle: String {
        switch self {
        case .input: "new task input"
        case .list: "list"
        case .filter: "filter"
        case .editing: "editing a caption"
        }
    }
}
