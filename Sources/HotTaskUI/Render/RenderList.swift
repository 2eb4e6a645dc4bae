import FoundationEssentials
import Glibc
import HotTaskCore

/// The list rows: section headers, tasks (with filter matches highlighted, or the caption
/// editor on the selected row) and hints. Only rows on screen are looked at.
extension AppRender {
    static func drawList(_ state: AppState, _ screen: ScreenLayout, _ grid: inout Grid) {
        let layout = state.layout
        let width = screen.size.width
        let filtering = state.view.isFiltering
        let dates = state.dates
        // Every list shown at once: each task says which it is in.
        let showsListNames = state.currentList == nil && state.hasSeveralLists
        var promptRow: Int?
        defer {
            if state.focus == .due { drawDueForms(screen, promptRow: promptRow, "Forms: " + DueInput.forms, &grid) }
            if state.focus == .repeating { drawDueForms(screen, promptRow: promptRow, "Rules: " + RepeatInput.forms, &grid) }
        }
        for screenRow in 0..<screen.listHeight {
            let row = state.scrollOffset + screenRow
            guard row < layout.rowCount else { break }
            let y = screen.listTop + screenRow
            guard y < screen.footerRow else { break }
            switch layout.content(ofRow: row) {
            case .header(let section):
                // Of the list shown: its own count, or (while a filter is on too) one pass to count it.
                let shown = state.view.count(in: section, of: state.tasks)
                let stored = state.view.onlyList
                let count: String
                if !filtering {
                    count = "\(stored == nil ? state.tasks.count(in: section) : shown)"
                } else {
                    let total = stored.map { stored in state.tasks.tasks(in: section).count { $0.list == stored } } ?? state.tasks.count(in: section)
                    // The matches: not the rows shown above them for context.
                    count = "\(shown - state.view.context[section]) of \(total)"
                }
                grid.put("\(section.title) (\(count))", x: 0, y: y, style: .header)
            case .hint(let section):
                let hint =
                    filtering
                    ? "No matches here"
                    : section == .priority
                        ? "Nothing here yet — type a task above and press Enter"
                        : "Nothing here — press m on a task to move it here"
                grid.put(hint.truncated(toWidth: width - 4), x: 4, y: y, style: .hint)
            case .spacer:
                break
            case .task(let display):
                let task = state.tasks[state.view.position(ofDisplay: display, in: state.tasks)]
                let selected = display == state.selection
                if selected, state.focus == .editing {
                    drawEditor(state, task, y: y, width: width, &grid)
                } else if selected, state.focus == .repeating {
                    let preview = RepeatEntry.preview(state.editor.text, task: task, dates: dates)
                    drawRowPrompt(state, task, label: "Repeat", captionShare: 4, preview: preview, y: y, width: width, &grid)
                    promptRow = y
                } else if selected, state.focus == .listing {
                    let preview = ListEntry.preview(state.editor.text, names: state.listSummary.names)
                    drawRowPrompt(state, task, label: "List", captionShare: 3, preview: preview, y: y, width: width, &grid)
                    promptRow = y
                } else if selected, state.focus == .due {
                    let preview = DueEntry.preview(state.editor.text, dates: dates)
                    drawRowPrompt(state, task, label: "Due", captionShare: 3, preview: preview, y: y, width: width, &grid)
                    promptRow = y
                } else {
                    let list = showsListNames ? state.tasks.listName(of: task) : nil
                    // A subtask is indented under its parent, two columns a level (at most a
                    // quarter of the row, so the caption keeps its room): only where it is shown
                    // in its family, not where a sort or a filter put it under another task.
                    let depth =
                        inFamily(display, task, state) ? min(state.tasks.subtaskDepth(of: task), max(0, width / 8)) : 0
                    drawTask(
                        task, selected: selected, state.focus, query: state.view.query, dates: dates, list: list, depth: depth,
                        family: familyMark(of: task, state.view.folds), context: state.view.context.contains(task.id), y: y, width: width, &grid)
                }
            case .details(let display):
                let task = state.tasks[state.view.position(ofDisplay: display, in: state.tasks)]
                let text = detailsLine(of: task, now: state.now, zone: state.zone)
                let selected = display == state.selection && state.focus == .list
                // Under the caption, past "› [ ] ".
                grid.put(text.truncated(toWidth: width - 7), x: 6, y: y, style: .hint)
                if selected { grid.paint(y: y, from: 0, to: width, style: .selectedDone) }
            }
        }
    }

    /// Whether the task shown at `display` is a subtask right below its family: the row above,
    /// in the same section, is its parent or one of the parent's subtasks at any depth.
    static func inFamily(_ display: Int, _ task: TaskItem, _ state: AppState) -> Bool {
        guard let parent = task.parent, display > 0,
            state.view.place(ofDisplay: display - 1, in: state.tasks).section == state.view.place(ofDisplay: display, in: state.tasks).section
        else { return false }
        var next: UUID? = state.tasks[state.view.position(ofDisplay: display - 1, in: state.tasks)].id
        for _ in 0..<64 {
            guard let id = next else { return false }
            if id == parent { return true }
            next = state.tasks.task(withID: id)?.parent
        }
        return false
    }

    /// A parent's mark after its caption: folded (▸) or open (▾), and its subtasks done of all.
    static func familyMark(of task: TaskItem, _ folds: SubtaskFolds) -> String? {
        folds.counts(of: task.id).map { "\(folds.isFolded(task.id) ? foldedMark : openMark) \($0.done)/\($0.all)" }
    }

    static let foldedMark = "▸"
    static let openMark = "▾"

    private static func drawTask(
        _ task: TaskItem, selected: Bool, _ focus: Focus, query: String, dates: DueDisplay, list: String? = nil, depth: Int = 0,
        family: String? = nil, context: Bool = false, y: Int, width: Int, _ grid: inout Grid
    ) {
        let style: CellStyle
        switch (selected, focus == .list, task.completed) {
        case (true, true, false): style = .selected
        case (true, true, true): style = .selectedDone
        case (true, false, _): style = .selectedInactive
        // A filter's context row, an ancestor of what it found: dim.
        case (false, _, _) where context: style = .hint
        case (false, _, true): style = .taskDone
        case (false, _, false): style = .plain
        }
        let marker = selected ? "› " : "  "
        var x = grid.put(marker, x: 0, y: y, style: style)
        if depth > 0 { x = grid.put(String(repeating: "  ", count: depth), x: x, y: y, style: style) }
        x = grid.put(task.completed ? "[x] " : "[ ] ", x: x, y: y, style: style)
        // The due date keeps its place at the right of the row, which ends at `dueColumnEnd`
        // (near the captions on a wide screen); the caption is cut two columns before it. A
        // note's mark follows the caption, and the tags (dim) take what room is left: they give
        // way first. A repeating task's date has ↻ before it.
        let due = task.due.map { date in
            var label = dueLabel(date, completed: task.completed, selected: selected && focus == .list, dates: dates)
            if !task.repeatRule.isNone { label.text = repeatMark + " " + label.text }
            return label
        }
        let dueX = due.map { dueColumnEnd(width) - DisplayWidth.of($0.text) } ?? width
        let end = due == nil ? width - 1 : dueX - dueGap
        let mark = (task.note.isEmpty ? "" : " " + noteMark) + (family.map { "  " + $0 } ?? "")
        let markFits = end - x >= DisplayWidth.of(mark) + 1
        // On one line, whatever a file or a server gave (line breaks, tabs, no title at all).
        let caption = CaptionRule.shown(task.caption).truncated(toWidth: max(0, end - x - (markFits ? DisplayWidth.of(mark) : 0)))
        var start = caption.startIndex
        for match in TaskFilter.matchRanges(of: query, in: caption) {
            x = grid.put(caption[start..<match.lowerBound], x: x, y: y, style: style)
            x = grid.put(caption[match], x: x, y: y, style: selected ? .matchSelected : .match)
            start = match.upperBound
        }
        x = grid.put(caption[start...], x: x, y: y, style: style)
        if markFits { x = grid.put(mark, x: x, y: y, style: style) }
        let tags = task.tags
        // The list's name (all lists shown) goes with the tags, dim, and gives way as they do.
        if !tags.isEmpty || list != nil, end - x >= 3 {
            let text = (tags.map { " " + TagRule.label($0) }.joined() + (list.map { "  · " + $0 } ?? "")).truncated(toWidth: end - x)
            x = grid.put(text, x: x, y: y, style: selected && focus == .list ? .selectedDone : .hint)
        }
        if selected { grid.paint(y: y, from: x, to: width, style: style) }
        if let due { grid.put(due.text, x: max(x, dueX), y: y, style: due.style ?? style) }
    }

    /// Columns between a cut caption and its due date, with colour or without.
    static let dueGap = 2
    /// How wide a row with a due date gets: on a wider screen its date stays at this column,
    /// near the caption, rather than 100 columns away at the right edge.
    static let rowWidthCap = 100

    /// The column after a row's due date: the right edge (less one column), or the cap.
    static func dueColumnEnd(_ width: Int) -> Int {
        min(width - 1, rowWidthCap)
    }

    /// A row's due date and its style: overdue (an open task's day or time has passed) is
    /// marked by "!" and a style that is bold and underlined as well as red, so that it shows
    /// without colour too; today's is bold. Nil style: the row's own. On the selected row the
    /// date keeps the selection bar's background, so the bar is unbroken.
    static func dueLabel(_ due: DueDate, completed: Bool, selected: Bool = false, dates: DueDisplay) -> (text: String, style: CellStyle?) {
        let text = dates.text(due)
        guard !completed else { return (text, nil) }
        switch dates.standing(due) {
        case .overdue: return ("! " + text, selected ? .overdueSelected : .overdue)
        case .today: return (text, selected ? nil : .dueToday)
        case .later: return (text, selected ? nil : .due)
        }
    }

    /// A prompt on the selected row (the due date, the repeat rule): the task's caption stays in
    /// view (cut to `1 / captionShare` of the row at most), then the label, the entry (at least 8
    /// columns) and what it reads as in what is left.
    private static func drawRowPrompt(
        _ state: AppState, _ task: TaskItem, label: String, captionShare: Int, preview: (text: String, valid: Bool), y: Int, width: Int,
        _ grid: inout Grid
    ) {
        var x = grid.put("› ", x: 0, y: y, style: .selected)
        x = grid.put(task.completed ? "[x] " : "[ ] ", x: x, y: y, style: .selected)
        let caption = CaptionRule.shown(task.caption)
        x = grid.put(caption.truncated(toWidth: min(DisplayWidth.of(caption), max(4, (width - x) / captionShare))), x: x, y: y, style: .selected)
        x = grid.put("  \(label): ", x: x, y: y, style: .selected)
        let previewWidth = min(DisplayWidth.of(preview.text), max(0, width - x - 10))
        let fieldEnd = width - 1 - (previewWidth > 0 ? previewWidth + 1 : 0)
        grid.paint(y: y, from: x, to: fieldEnd, style: .editField)
        let style: CellStyle = state.editor.isAllSelected ? .editSelection : .editField
        let cursor = drawField(state.editor, from: x, to: fieldEnd, y: y, style: style, &grid).cursor
        if previewWidth > 0 {
            grid.put(preview.text.truncated(toWidth: previewWidth), x: fieldEnd + 1, y: y, style: preview.valid ? .info : .error)
        }
        grid.cursor = (cursor, y)
    }

    /// While the due or repeat prompt is open, the forms it takes, wrapped over the last rows of the list
    /// (above the prompt's row when that is where it stands).
    static func drawDueForms(_ screen: ScreenLayout, promptRow: Int?, _ forms: String, _ grid: inout Grid) {
        let width = screen.size.width
        let lines = HelpLayout.wrap(forms, width: width - 2)
        var top = screen.footerRow - lines.count
        if let promptRow, promptRow >= top { top = promptRow - lines.count }
        guard top > screen.listTop else { return }
        for (index, line) in lines.enumerated() {
            grid.put(String(repeating: " ", count: width), x: 0, y: top + index, style: .plain)
            grid.put(line, x: 1, y: top + index, style: .hint)
        }
    }

    /// A task's second line: "added 3 days ago · done today · ✎ the note ↵ on one line".
    static func detailsLine(of task: TaskItem, now: Date, zone: ZoneInfo) -> String {
        var text = "added " + RelativeTime.words(for: task.createdAt, now: now, zone: zone)
        if task.completed {
            text += " · done" + (task.completedAt.map { " " + RelativeTime.words(for: $0, now: now, zone: zone) } ?? "")
        }
        if !task.note.isEmpty { text += " · " + noteMark + " " + NoteRule.oneLine(task.note) }
        return text
    }

    /// The mark of a repeating task, before its due date.
    static let repeatMark = "↻"

    /// The mark of a task with a note (after its caption, and before the note in its details).
    static let noteMark = "✎"

    /// The selected row while its caption is edited: the editor, scrolled sideways like the
    /// input, with the cursor in it.
    private static func drawEditor(_ state: AppState, _ task: TaskItem, y: Int, width: Int, _ grid: inout Grid) {
        var x = grid.put("› ", x: 0, y: y, style: .selected)
        x = grid.put(task.completed ? "[x] " : "[ ] ", x: x, y: y, style: .selected)
        let fieldEnd = width - 1
        grid.paint(y: y, from: x, to: fieldEnd, style: .editField)
        grid.cursor = (drawField(state.editor, from: x, to: fieldEnd, y: y, style: .editField, &grid).cursor, y)
    }
}
