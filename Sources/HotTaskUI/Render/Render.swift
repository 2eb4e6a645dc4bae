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
        drawInput(state, screen, &grid)
        drawViewBar(state, screen, &grid)
        drawList(state, screen, &grid)
        drawFooter(state, screen, &grid)
        if let help = HelpLayout.of(state) { drawHelp(help, scroll: state.helpScroll, &grid) }
        return grid
    }

    // MARK: Title: name, summary, gauge

    /// The summary matters most: the gauge's bar goes first when space runs out, then its count.
    private static func drawTitle(_ state: AppState, _ screen: ScreenLayout, _ grid: inout Grid) {
        let width = screen.size.width
        let y = screen.titleRow
        let progress = Progress(state.tasks)
        let x = grid.put(" HotTask ", x: 0, y: y, style: .title) + 1
        let summaryWidth = DisplayWidth.of(progress.summary)
        let count = progress.total > 0 ? "\(progress.completed)/\(progress.total)" : ""
        let room = width - x - summaryWidth - 2  // a space before the gauge and one at the edge
        let countWidth = DisplayWidth.of(count)
        if !count.isEmpty, room >= countWidth + 1 + gaugeSegments {
            var filled = (progress.completed * gaugeSegments + progress.total / 2) / progress.total
            if progress.completed > 0 { filled = max(filled, 1) }
            var gx = grid.put(count + " ", x: width - 1 - gaugeSegments - countWidth - 1, y: y, style: .plain)
            gx = grid.put(String(repeating: "▰", count: filled), x: gx, y: y, style: .gaugeDone)
            grid.put(String(repeating: "▱", count: gaugeSegments - filled), x: gx, y: y, style: .gaugeTodo)
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
        let fieldStart = grid.put(BarGeometry.prompt, x: 0, y: y, style: focused ? .prompt : .promptInactive)
        let markerX = width - DisplayWidth.of(BarGeometry.addMarker) - 1
        let fieldEnd = markerX - 1
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

    // MARK: Footer

    private static func drawFooter(_ state: AppState, _ screen: ScreenLayout, _ grid: inout Grid) {
        let y = screen.footerRow
        let width = screen.size.width
        var limit = width
        let shown = state.layout.taskCount
        if shown > 0 {
            let position = "\(state.selection + 1)/\(shown)"
            let positionX = width - DisplayWidth.of(position) - 1
            if positionX > width / 2 {
                grid.put(position, x: positionX, y: y, style: .footerText)
                limit = positionX - 1
            }
        }
        if let sync = state.syncStatus {
            let x = limit - DisplayWidth.of(sync.summary) - 1
            if x > width / 2 {
                grid.put(sync.summary, x: x, y: y, style: sync.failure == nil || sync.running ? .footerText : .warning)
                limit = x - 1
            }
        }
        // A question waiting for its answer comes first: the next key is taken as the answer.
        if case .clearCompleted(let count) = state.confirmation {
            let question = "Clear \(count) completed \(count == 1 ? "task" : "tasks")? y to clear, any other key keeps them"
            grid.put(question.truncated(toWidth: limit), x: 0, y: y, style: .warning, limit: limit)
            return
        }
        if let saveError = state.saveError {
            grid.put("Not saved: \(saveError)".truncated(toWidth: limit), x: 0, y: y, style: .error, limit: limit)
            return
        }
        if let message = state.message {
            let style: CellStyle = message.kind == .info ? .info : message.kind == .warning ? .warning : .error
            grid.put(message.fitting(limit), x: 0, y: y, style: style, limit: limit)
            return
        }
        if state.saveWaiting {
            // Changes shown but not on disk yet: said until they are, never left to guess.
            grid.put("Saving… the store is busy; trying again".truncated(toWidth: limit), x: 0, y: y, style: .warning, limit: limit)
            return
        }
        var x = 0
        let hints = KeyHelp.hints(for: state.focus, bindings: state.bindings)
        // The room the hints leave, in full: `u` then says what it would take back (this UI's own
        // last change, never another program's) when the screen is wide enough.
        var spare = limit
        for (key, action) in hints {
            let needed = DisplayWidth.of(key) + 1 + DisplayWidth.of(action) + 2
            guard needed <= spare else { break }
            spare -= needed
        }
        for (key, hint) in hints {
            var action = hint
            if hint == "undo", spare >= 12, let step = state.history.undoSteps.last {
                action = "undo " + step.description.truncated(toWidth: min(spare - 1, 40))
            }
            let needed = DisplayWidth.of(key) + 1 + DisplayWidth.of(action)
            guard x + needed <= limit else { break }
            x = grid.put(key, x: x, y: y, style: .footerKey)
            x = grid.put(" " + action + "  ", x: x, y: y, style: .footerText, limit: limit)
        }
    }
}
