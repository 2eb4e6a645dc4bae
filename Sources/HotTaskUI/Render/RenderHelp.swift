import HotTaskCore

/// The help overlay: every key of one focus in a box drawn over the screen, under the whole
/// reason the last sync failed (the footer has room for a line of it). Any key closes it.
extension AppRender {
    static func drawHelp(
        for focus: Focus, bindings: KeyBindings, section: Section, syncFailure: String? = nil, _ screen: ScreenLayout, _ grid: inout Grid
    ) {
        let keys = KeyHelp.entries(for: focus, bindings: bindings, section: section)
        let width = screen.size.width
        let title = " Keys: \(focus.helpTitle) "
        let footer = " any key closes "
        let actionColumn = keys.map { DisplayWidth.of($0.action) }.max() ?? 0
        let widestKeys = keys.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let boxWidth = min(width - 2, max(widestKeys + actionColumn + 6, DisplayWidth.of(title) + 4))
        // On a narrow screen the keys get at most half the box, so the actions stay readable.
        let keyColumn = min(widestKeys, (boxWidth - 6) / 2)
        // The sync's reason first, word-wrapped, then a blank row, then the keys.
        let noteRows = syncFailure.map { wrap("Sync failed: " + $0, width: boxWidth - 4) + [""] } ?? []
        let entries = noteRows.map { KeyHelp.Entry("", $0) } + keys
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
            if line < noteRows.count {
                grid.put(entry.action.truncated(toWidth: inner - 2), x: left + 2, y: y, style: .warning)
                continue
            }
            let x = grid.put(entry.keys.truncated(toWidth: keyColumn), x: left + 2, y: y, style: .overlayKey)
            let actionX = max(x + 1, left + 2 + keyColumn + 2)
            grid.put(entry.action.truncated(toWidth: left + boxWidth - 2 - actionX), x: actionX, y: y, style: .overlay)
        }
        border(top + boxHeight - 1, "└", "┘", footer)
        grid.cursor = nil
    }

    /// Words into lines of at most `width` columns (a word longer than a line is cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if DisplayWidth.of(candidate) <= width {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = String(word).truncated(toWidth: width)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
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
        }
    }
}
