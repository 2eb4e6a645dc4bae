import HotTaskCore

/// The help overlay: every key of one focus in a box drawn over the screen, under the whole
/// reason the last sync failed (the footer has room for a line of it). Long lines wrap; when
/// the box is taller than the screen it scrolls (↑↓ PgUp PgDn Home End, the wheel), and any
/// other key closes it.
extension AppRender {
    /// Where the box goes and what it holds at a size: render draws it, update scrolls it.
    struct HelpLayout {
        struct Row {
            var keys = ""
            var action = ""
            var isNote = false
        }

        let title: String
        let left: Int
        let top: Int
        let boxWidth: Int
        let keyColumn: Int
        /// Every row of the box's content, wrapped to its width.
        let rows: [Row]
        /// How many rows the screen shows at once.
        let room: Int

        var maximumScroll: Int { max(0, rows.count - room) }
        var boxHeight: Int { min(room, rows.count) + 2 }

        init(for focus: Focus, bindings: KeyBindings, section: Section, syncFailure: String?, _ screen: ScreenLayout) {
            let keys = KeyHelp.entries(for: focus, bindings: bindings, section: section)
            let width = screen.size.width
            title = " Keys: \(focus.helpTitle) "
            let actionColumn = keys.map { DisplayWidth.of($0.action) }.max() ?? 0
            let widestKeys = keys.map { DisplayWidth.of($0.keys) }.max() ?? 0
            boxWidth = max(8, min(width - 2, max(widestKeys + actionColumn + 6, DisplayWidth.of(title) + 4)))
            // On a narrow screen the keys get at most half the box, so the actions stay readable.
            keyColumn = max(1, min(widestKeys, (boxWidth - 6) / 2))
            let actionWidth = max(1, boxWidth - 6 - keyColumn)
            var rows: [Row] = []
            // The sync's reason first, word-wrapped, then a blank row, then the keys.
            if let syncFailure {
                rows += AppRender.wrap("Sync failed: " + syncFailure, width: boxWidth - 4).map { Row(action: $0, isNote: true) }
                rows.append(Row())
            }
            for entry in keys {
                let keyLines = AppRender.wrap(entry.keys, width: keyColumn)
                let actionLines = AppRender.wrap(entry.action, width: actionWidth)
                for line in 0..<max(1, keyLines.count, actionLines.count) {
                    rows.append(Row(keys: line < keyLines.count ? keyLines[line] : "", action: line < actionLines.count ? actionLines[line] : ""))
                }
            }
            self.rows = rows
            // Rows 1...footer-1 are free, two of them for the borders.
            room = max(1, screen.footerRow - 1 - 2)
            left = (width - boxWidth) / 2
            top = 1 + max(0, (screen.footerRow - 1 - (min(room, rows.count) + 2)) / 2)
        }
    }

    static func helpLayout(_ state: AppState) -> HelpLayout? {
        state.help.map {
            HelpLayout(
                for: $0, bindings: state.bindings, section: state.newTaskSection,
                syncFailure: state.syncStatus.flatMap { $0.detail ?? $0.failure }, state.screen)
        }
    }

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

    /// Words into lines of at most `width` columns; a word longer than a line is broken
    /// across lines, never cut.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if DisplayWidth.of(candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            for character in word {
                if !line.isEmpty, DisplayWidth.of(line) + DisplayWidth.of(character) > width {
                    lines.append(line)
                    line = ""
                }
                line.append(character)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension AppUpdate {
    /// Opens the help overlay on `focus`'s keys, at its top.
    static func openHelp(_ focus: Focus, _ state: inout AppState) {
        state.help = focus
        state.helpScroll = 0
    }

    /// A key while the help is open: scrolls it when it is taller than the screen; false when
    /// the key is not a scrolling one (it then closes the help).
    static func scrollHelp(_ key: Key, _ state: inout AppState) -> Bool {
        guard let help = AppRender.helpLayout(state), help.maximumScroll > 0 else { return false }
        guard let scroll = scrolled(state.helpScroll, by: key, page: max(1, help.room - 1), last: help.maximumScroll) else { return false }
        state.helpScroll = scroll
        return true
    }

    /// The wheel over the help scrolls it.
    static func scrollHelp(lines: Int, _ state: inout AppState) {
        guard let help = AppRender.helpLayout(state) else { return }
        state.helpScroll = min(max(0, state.helpScroll + lines), help.maximumScroll)
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
