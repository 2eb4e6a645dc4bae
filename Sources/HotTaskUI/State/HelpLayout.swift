import HotTaskCore
import HotTaskSettings

/// Where the help box goes and what it holds at a size, from the state alone: render draws it,
/// update scrolls it (without calling into render).
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

    init(for focus: Focus, bindings: KeyBindings, section: Section, severalLists: Bool = false, notes: [String], _ screen: ScreenLayout) {
        let keys = KeyHelp.entries(for: focus, bindings: bindings, section: section, severalLists: severalLists)
        let width = screen.size.width
        title = " Keys: \(focus.helpTitle) "
        let actionColumn = keys.map { DisplayWidth.of($0.action) }.max() ?? 0
        let widestKeys = keys.map { DisplayWidth.of($0.keys) }.max() ?? 0
        boxWidth = max(8, min(width - 2, max(widestKeys + actionColumn + 6, DisplayWidth.of(title) + 4)))
        // On a narrow screen the keys get at most half the box, so the actions stay readable.
        keyColumn = max(1, min(widestKeys, (boxWidth - 6) / 2))
        let actionWidth = max(1, boxWidth - 6 - keyColumn)
        var rows: [Row] = []
        // The notes first (why the sync failed, the config's problems), word-wrapped, then a
        // blank row, then the keys.
        for note in notes {
            rows += Self.wrap(note, width: boxWidth - 4).map { Row(action: $0, isNote: true) }
        }
        if !notes.isEmpty { rows.append(Row()) }
        for entry in keys {
            let keyLines = Self.wrap(entry.keys, width: keyColumn)
            let actionLines = Self.wrap(entry.action, width: actionWidth)
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

extension HelpLayout {
    /// The help overlay's layout for the state, when it is open.
    static func of(_ state: AppState) -> HelpLayout? {
        state.help.map {
            HelpLayout(
                for: $0, bindings: state.bindings, section: state.newTaskSection, severalLists: state.hasSeveralLists,
                notes: (state.syncStatus.flatMap { $0.detail ?? $0.failure }.map { ["Sync failed: " + $0] } ?? [])
                    + state.configProblems.map { "Config " + $0 }, state.screen)
        }
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
