import HotTaskCore

/// The help overlay: every key of one focus in a box drawn over the screen, under the whole
/// reason the last sync failed (the footer has room for a line of it). Long lines wrap; when
/// the box is taller than the screen it scrolls (↑↓ PgUp PgDn Home End, the wheel), and any
/// other key closes it.
extension AppRender {
    static func drawHelp(_ help: HelpLayout, scroll: Int, _ grid: inout Grid) {
        let scroll = min(max(0, scroll), help.maximumScroll)
        let (left, top, boxWidth, boxHeight) = (help.left, help.top, help.boxWidth, help.boxHeight)
        let inner = boxWidth - 2
        let shown = boxHeight - 2
        // The bottom border says how to scroll when there is more than fits.
        var footers = [" any key closes "]
        if help.maximumScroll > 0 {
            let span = "\(scroll + 1)–\(scroll + shown) of \(help.rows.count)"
            footers = [
                " \(span) · ↑↓ PgUp PgDn scroll · other keys close ", " \(span) · ↑↓ scroll, other keys close ", " \(span) · ↑↓ scroll ",
                " ↑↓ scroll ", "",
            ]
        }
        let footer = footers.first { DisplayWidth.of($0) <= inner - 2 } ?? ""

        func border(_ y: Int, _ leftCorner: String, _ rightCorner: String, _ label: String) {
            var x = grid.put(leftCorner + "─", x: left, y: y, style: .overlay)
            x = grid.put(label.truncated(toWidth: inner - 2), x: x, y: y, style: .overlayKey)
            x = grid.put(String(repeating: "─", count: max(0, left + boxWidth - 1 - x)), x: x, y: y, style: .overlay)
            grid.put(rightCorner, x: left + boxWidth - 1, y: y, style: .overlay)
        }
        border(top, "┌", "┐", help.title)
        for line in 0..<shown {
            let y = top + 1 + line
            // ▲ and ▼ on the right edge where rows are hidden above or below.
            var edge = "│"
            if line == 0 && scroll > 0 { edge = "▲" }
            if line == shown - 1 && scroll < help.maximumScroll { edge = "▼" }
            grid.put("│" + String(repeating: " ", count: inner), x: left, y: y, style: .overlay)
            grid.put(edge, x: left + boxWidth - 1, y: y, style: edge == "│" ? .overlay : .overlayKey)
            let row = help.rows[scroll + line]
            if row.isNote {
                grid.put(row.action, x: left + 2, y: y, style: .warning, limit: left + boxWidth - 2)
                continue
            }
            grid.put(row.keys, x: left + 2, y: y, style: .overlayKey, limit: left + 2 + help.keyColumn)
            grid.put(row.action, x: left + 2 + help.keyColumn + 2, y: y, style: .overlay, limit: left + boxWidth - 2)
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
        case .due: "setting a due date"
        case .repeating: "setting a repeat rule"
        case .listing: "moving a task to another list"
        case .history: "history"
        case .calendar: "calendar of due dates"
        }
    }
}
