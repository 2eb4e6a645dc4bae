import HotTaskCore

/// Draws a state into a grid. Pure, and its cost depends on the screen size, not on the number
/// of tasks: only the rows on screen are looked at.
public enum AppRender {
    static let gaugeSegments = 10

    public static func render(_ state: AppState, size: Size) -> Grid {
        var grid = Grid(size: size)
        let screen = ScreenLayout(size)
        guard !screen.isTooSmall else {
            // The longest wording that fits the width there is.
            let need = ScreenLayout.minimum
            let wordings = [
                "Terminal too small (\(size.width)×\(size.height)); HotTask needs \(need.width)×\(need.height)",
                "Too small: \(size.width)×\(size.height), needs \(need.width)×\(need.height)",
                "\(size.width)×\(size.height) < \(need.width)×\(need.height)", "Too small", "Small",
            ]
            let text = wordings.first { DisplayWidth.of($0) <= size.width } ?? ""
            grid.put(text, x: 0, y: 0, style: .warning)
            return grid
        }
        var state = state
        if state.size != size {
            state.size = size
            AppUpdate.keepSelectionInView(&state)
        }
        drawTitle(state, screen, &grid)
        // A view takes the screen between the title and the footer.
        if state.focus == .history, let chart = state.chart {
            drawHistory(chart, state, &grid)
        } else if state.focus == .calendar, let calendar = state.dueCalendar {
            drawCalendar(calendar, state, &grid)
        } else {
            drawInput(state, screen, &grid)
            drawViewBar(state, screen, &grid)
            drawList(state, screen, &grid)
        }
        drawFooter(state, screen, &grid)
        if state.showsConfigProblems { drawConfigProblems(state.configProblems, screen, &grid) }
        if let help = HelpLayout.of(state) { drawHelp(help, scroll: state.helpScroll, &grid) }
        return grid
    }

    // MARK: Title: name, summary, gauge

    /// The summary matters most: the gauge's bar goes first when space runs out, then its count.
    private static func drawTitle(_ state: AppState, _ screen: ScreenLayout, _ grid: inout Grid) {
        let width = screen.size.width
        let y = screen.titleRow
        let progress = currentProgress(state)
        let x = grid.put(state.currentList.map { " \($0) " } ?? " HotTask ", x: 0, y: y, style: .title) + 1
        let summaryWidth = DisplayWidth.of(progress.summary)
        let count = progress.total > 0 ? "\(progress.completed)/\(progress.total)" : ""
        let room = width - x - summaryWidth - 2  // a space before the gauge and one at the edge
        let countWidth = DisplayWidth.of(count)
        if !count.isEmpty, room >= countWidth + 1 + gaugeSegments {
            var filled = (progress.completed * gaugeSegments + progress.total / 2) / progress.total
            if progress.completed > 0 { filled = max(filled, 1) }
            var gx = grid.put(count + " ", x: width - 1 - gaugeSegments - countWidth - 1, y: y, style: .plain)
            // The charts' choice: block characters, or ASCII without them (LANG=C, NO_COLOR).
            gx = grid.put(String(repeating: state.blocks ? "▰" : "#", count: filled), x: gx, y: y, style: .gaugeDone)
            grid.put(String(repeating: state.blocks ? "▱" : "-", count: gaugeSegments - filled), x: gx, y: y, style: .gaugeTodo)
        } else if !count.isEmpty, room >= countWidth {
            grid.put(count, x: width - 1 - countWidth, y: y, style: .plain)
        }
        grid.put(progress.summary.truncated(toWidth: width - x - 1), x: x, y: y, style: .plain)
    }

    // MARK: Input row

    private static func drawInput(_ state: AppState, _ screen: ScreenLayout, _ grid: inout Grid) {
        let y = screen.inputRow
        let width = screen.size.width
        let focused = state.focus == .input
        var fieldStart = grid.put(BarGeometry.prompt, x: 0, y: y, style: focused ? .prompt : .promptInactive)
        let markerX = width - DisplayWidth.of(BarGeometry.addMarker) - 1
        let fieldEnd = markerX - 1
        // `o`: where the typed task goes, its parent's caption cut to a third of the row.
        if let parent = state.addingUnder.flatMap({ state.tasks.task(withID: $0) }) {
            let caption = CaptionRule.shown(parent.caption).truncated(toWidth: max(4, width / 3))
            fieldStart = grid.put("under “\(caption)”: ", x: fieldStart, y: y, style: .placeholder, limit: fieldEnd)
        }
        let canAdd = CaptionRule.accepts(state.input.text)
        grid.put(BarGeometry.addMarker, x: markerX, y: y, style: canAdd ? .addEnabled : .addDisabled)

        if state.input.isEmpty {
            grid.put("Type a new task and press Enter", x: fieldStart, y: y, style: .placeholder, limit: fieldEnd)
            if focused { grid.cursor = (fieldStart, y) }
            return
        }
        let (cursorX, _) = drawField(state.input, from: fieldStart, to: fieldEnd, y: y, style: .plain, &grid)
        if focused { grid.cursor = (cursorX, y) }
    }

    /// A line editor's text in the field `start..<end` of row `y`: scrolled sideways only as
    /// far as its cursor needs, with "…" where text is hidden on either side. Returns the
    /// cursor's column and the column after the last one drawn.
    static func drawField(
        _ editor: LineEditor, from start: Int, to end: Int, y: Int, style: CellStyle, _ grid: inout Grid
    ) -> (cursor: Int, end: Int) {
        var editor = editor
        let window = editor.follow(width: end - start)
        var x = start
        if window.clippedLeft { x = grid.put("…", x: x, y: y, style: .placeholder) }
        let limit = window.clippedRight ? end - 1 : end
        x = grid.put(editor.characters[window.start...], x: x, y: y, style: style, limit: limit)
        if window.clippedRight { x = grid.put("…", x: end - 1, y: y, style: .placeholder) }
        return (start + window.cursorColumn, x)
    }

    // MARK: Config problems

    /// The config file's problems in a box over the bottom of the list, at start until the next
    /// key: every one, wrapped to the width (as many as the list's rows hold; the help overlay
    /// lists them all again).
    private static func drawConfigProblems(_ problems: [String], _ screen: ScreenLayout, _ grid: inout Grid) {
        let width = screen.size.width
        let inner = width - 4
        let lines = problems.flatMap { HelpLayout.wrap($0, width: inner) }
        let height = min(lines.count, screen.listHeight - 2)
        guard height > 0 else { return }
        let top = screen.footerRow - height - 2
        let title = " Config problems: used without these "
        var x = grid.put("┌─", x: 0, y: top, style: .overlay)
        x = grid.put(title.truncated(toWidth: width - 4), x: x, y: top, style: .overlayKey)
        grid.put(String(repeating: "─", count: max(0, width - 1 - x)) + "┐", x: x, y: top, style: .overlay)
        for (row, line) in lines.prefix(height).enumerated() {
            grid.put("│ " + line.padding(toWidth: inner) + " │", x: 0, y: top + 1 + row, style: .overlay)
        }
        grid.put("└" + String(repeating: "─", count: max(0, width - 2)) + "┘", x: 0, y: top + height + 1, style: .overlay)
    }

    // MARK: Footer

    private static func drawFooter(_ state: AppState, _ screen: ScreenLayout, _ grid: inout Grid) {
        let y = screen.footerRow
        let width = screen.size.width
        var limit = width
        let inView = state.focus == .history || state.focus == .calendar
        let shown = inView ? 0 : state.layout.taskCount
        // Where the selection is, right-aligned: room kept for it when the list scrolls; when it
        // all fits on the screen, the keys come first and it shows only if there is room left.
        let position = shown > 0 ? "\(state.selection + 1)/\(shown)" : nil
        let positionX = width - DisplayWidth.of(position ?? "") - 1
        var positionDrawn = false
        if let position, state.layout.rowCount > screen.listHeight, positionX > width / 2 {
            grid.put(position, x: positionX, y: y, style: .footerText)
            limit = positionX - 1
            positionDrawn = true
        }
        // The sync's word, else the late position, takes the right end, two columns from the
        // keys as they are from each other (one, and `^C quit synced` read as one phrase).
        var rightEndTaken = positionDrawn
        if let sync = state.syncStatus {
            let x = limit - DisplayWidth.of(sync.summary) - 1
            if x > width / 2 {
                grid.put(sync.summary, x: x, y: y, style: sync.failure == nil || sync.running ? .footerText : .warning)
                limit = x - 2
                rightEndTaken = true
            }
        }
        let end = drawFooterText(state, limit: limit, y: y, &grid)
        if let position, !rightEndTaken, end + 2 <= positionX, positionX > width / 2 {
            grid.put(position, x: positionX, y: y, style: .footerText)
        }
    }

    /// The footer's left part: a question, why a save failed, a message, or the keys that fit.
    /// Returns the column after the last one written.
    private static func drawFooterText(_ state: AppState, limit: Int, y: Int, _ grid: inout Grid) -> Int {
        // A question waiting for its answer comes first: the next key is taken as the answer.
        if case .clearCompleted(let count) = state.confirmation {
            let question = "Clear \(count) completed \(count == 1 ? "task" : "tasks")? y to clear, any other key keeps them"
            return grid.put(question.truncated(toWidth: limit), x: 0, y: y, style: .warning, limit: limit)
        }
        if let saveError = state.saveError {
            return grid.put("Not saved: \(saveError)".truncated(toWidth: limit), x: 0, y: y, style: .error, limit: limit)
        }
        if let message = state.message {
            let style: CellStyle = message.kind == .info ? .info : message.kind == .warning ? .warning : .error
            return grid.put(message.fitting(limit), x: 0, y: y, style: style, limit: limit)
        }
        if state.saveWaiting {
            // Changes shown but not on disk yet: said until they are, never left to guess.
            return grid.put("Saving… the store is busy; trying again".truncated(toWidth: limit), x: 0, y: y, style: .warning, limit: limit)
        }
        // Keys only. `u` once named what it would take back where the width allowed: on a wide
        // screen that was the last message's words again, among the keys, as if left stale.
        // A row prompt looks like its row when colour does not tell them apart (40×12 showed
        // nothing of an open edit, issue 48): the footer names what the keys do first.
        let label = promptLabel(state.focus)
        var x = label.map { grid.put($0 + " ", x: 0, y: y, style: .footerText, limit: limit) } ?? 0
        let start = x
        var hints = KeyHelp.hints(for: state.focus, bindings: state.bindings)
        // Tab goes through the history's charts only when they do not all fit.
        if state.focus == .history, state.size.height - 3 >= historyFullRows { hints.removeAll { $0.action == "next chart" } }
        for hint in KeyHelp.footer(hints, width: limit - start) {
            if x > start { x = grid.put("  ", x: x, y: y, style: .footerText, limit: limit) }
            x = grid.put(hint.keys, x: x, y: y, style: .footerKey, limit: limit)
            x = grid.put(" " + hint.action, x: x, y: y, style: .footerText, limit: limit)
        }
        return x
    }
}

extension AppRender {
    /// What the keys do while a row prompt is open, before its keys in the footer.
    static func promptLabel(_ focus: Focus) -> String? {
        switch focus {
        case .editing: "Editing:"
        case .due: "Due date:"
        case .repeating: "Repeat:"
        case .listing: "List:"
        default: nil
        }
    }
}

extension String {
    /// The text with spaces after it to `width` columns.
    fileprivate func padding(toWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - DisplayWidth.of(self)))
    }
}
