import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// The UI's only way to change: `update(&state, event, now:, newID:)` edits the state value and
/// returns what the run loop must do. Pure: no terminal, no file, no clock, no randomness (the
/// time comes in `now`, the id a new task would get in `newID`).
///
/// The keys of each focus are handled in their own files: `UpdateInput`, `UpdateList`,
/// `UpdateFilter`, `UpdateEditing`; changes to tasks and undo in `UpdateChanges`.
public enum AppUpdate {
    public static func update(_ state: inout AppState, _ event: Event, now: Date, newID: UUID = UUID()) -> [Effect] {
        var effects: [Effect] = []
        state.now = now
        switch event {
        case .started(let startup):
            state.showsDetails = startup.showsDetails
            if let draft = startup.draft { restore(draft, &state) }
            if !startup.configProblems.isEmpty {
                state.configProblems = startup.configProblems
                state.showsConfigProblems = true
                let count = startup.configProblems.count
                let problems = count == 1 ? "a problem" : "\(count) problems"
                state.message = Message(
                    "The config file has \(problems) (above; F1 shows \(count == 1 ? "it" : "them") again)", kind: .error,
                    shorter: ["Config: \(problems); F1 shows \(count == 1 ? "it" : "them")", "Config: \(problems)"])
            }
            state.syncSchedule = startup.syncSchedule
            state.syncOrigin = startup.syncOrigin
            state.watchesStore = startup.watchesStore
            state.activity = startup.activity
            state.blocks = startup.blocks
            state.lastTimeCheck = now
        case .keyPressed(let key):
            state.message = nil
            state.showsConfigProblems = false
            if isCompletionsOwnSpace(key, state) {
                state.tabCycle = nil
                break
            }
            if key != .tab { state.tabCycle = nil }
            effects = handleKey(key, &state, now: now, newID: newID)
        case .pasted(let text, let cut):
            state.tabCycle = nil
            state.message = nil
            state.showsConfigProblems = false
            paste(text, cutBefore: cut, &state)
        case .clicked(let column, let row):
            state.tabCycle = nil
            state.message = nil
            state.showsConfigProblems = false
            effects = click(column: column, row: row, &state, now: now, newID: newID)
        case .resized(let size):
            state.size = size
        case .wheelScrolled(let lines):
            // A prompt on a row (a caption edit, a due date, a repeat rule) must stay under the
            // selection: Enter saves to the task it was opened on.
            if state.help != nil {
                scrollHelp(lines: lines, &state)
            } else if ![.editing, .due, .repeating, .listing, .history, .calendar].contains(state.focus) {
                scrollView(by: lines, &state)
            }
        case .saved(let save, let clock, let outside):
            state.saveError = nil
            state.saveWaiting = false
            takeSaved(save, clock: clock, outside: outside, &state)
            state.syncSchedule?.changed(now: now)
            effects.append(.compactIfNeeded)
        case .saveWaiting:
            // Waiting for the lock is not failing: an earlier failure is over.
            state.saveError = nil
            state.saveWaiting = true
        case .compactionFailed(let reason):
            state.message = Message("Could not fold the store's log: \(reason) (your changes are saved in it)", kind: .warning)
        case .saveFailed(let reason):
            state.saveError = reason
        case .saveRefused(let save, let reason):
            state.saveError = nil
            state.saveWaiting = false
            saveRefused(save, reason: reason, &state)
        case .storeRecovered:
            state.saveError = nil
        case .changedOutside(let records):
            keepingSelection(&state) { state in
                for record in records { perform(record.changes, clock: record.clock, &state) }
                state.tasks.follow(listsOf: records)
            }
            followLists(&state)
            offerSyncsForUndo(records, &state)
            closePromptIfItsTaskWent(&state)
        case .synced(let status):
            // Why a sync failed is said once; the footer keeps "sync failed HH:MM" after.
            if let failure = status.failure, status.failure != state.syncStatus?.failure {
                state.message = Message("Sync failed: \(failure)", kind: .warning)
            }
            state.syncStatus = status
            state.syncSchedule?.finished(succeeded: status.failure == nil, now: now)
        case .unsteppable(let series):
            state.unsteppable = series
        case .syncProgress(let sent, let total):
            state.syncStatus = SyncStatus(
                summary: "syncing \(sent)/\(total)", failure: state.syncStatus?.failure, detail: state.syncStatus?.detail, running: true)
        case .timerFired:
            effects = timerFired(&state, now: now)
        case .storeChanged:
            state.lastOutsideLook = now
            effects = [.lookForOutsideChanges]
        case .storeUnwatched:
            state.watchesStore = false
        case .stillUnsaved(let saves):
            keepingSelection(&state) { state in
                for save in saves { perform(save.changes, &state) }
            }
        case .noteEdited(let outcome):
            effects = noteEdited(outcome, &state)
        case .frameShown:
            // The filter's folded captions, made once a frame is on screen: the first frame
            // (and the one after a list read whole) never waits for them.
            state.view.foldCaptions(state.tasks)
        case .reloaded(let tasks, let activity):
            keepingSelection(&state) { state in
                state.tasks = tasks
                state.view.listChanged(tasks)
            }
            if let activity { state.activity = activity }
            closePromptIfItsTaskWent(&state)
        }
        refreshView(after: event, &state)
        // The lists' names, again only when the tasks changed (from counts the list keeps).
        state.listSummary.follow(state.tasks)
        keepSelectionInView(&state)
        followCursors(&state)
        // `o` chose a parent for the input's next tasks: only while the input has the keys.
        if state.focus != .input { state.addingUnder = nil }
        return effects
    }

    /// Scrolls each line editor sideways only as far as its cursor needs, remembering where,
    /// so that the text does not jump as the cursor moves.
    static func followCursors(_ state: inout AppState) {
        guard !state.screen.isTooSmall else { return }
        let widths = BarGeometry.fieldWidths(state)
        state.input.follow(width: widths.input)
        state.filter.follow(width: widths.filter)
        state.editor.follow(width: widths.editor)
    }

    // MARK: Keys

    private static func handleKey(_ key: Key, _ state: inout AppState, now: Date, newID: UUID) -> [Effect] {
        switch key {
        case .control("c"), .control("q"): return [.quit]
        case .control("z"): return [.suspend]
        case .control("l"): return [.redraw]
        default: break
        }
        if state.help != nil {
            // Any key but one that scrolls it closes the help, and does nothing else.
            if !scrollHelp(key, &state) { state.help = nil }
            return []
        }
        if let confirmation = state.confirmation {
            state.confirmation = nil
            return answer(confirmation, key, &state)
        }
        if key == .function(1) {
            openHelp(state.focus, &state)
            return []
        }
        switch state.focus {
        case .input: return handleInputKey(key, &state, now: now, newID: newID)
        case .list: return handleListKey(key, &state, now: now)
        case .filter: return handleFilterKey(key, &state)
        case .editing: return handleEditingKey(key, &state, now: now)
        case .due: return handleDueKey(key, &state, now: now)
        case .repeating: return handleRepeatKey(key, &state, now: now)
        case .listing: return handleListingKey(key, &state, now: now)
        case .history: return handleHistoryKey(key, &state)
        case .calendar: return handleCalendarKey(key, &state)
        }
    }

    /// Keys that edit a line the same way in the input, the filter and the caption editor.
    /// Returns false when `key` is not one of them. Kills go to `killed`, which the three lines
    /// share, so that text cut from one can be yanked into another.
    static func editLine(_ key: Key, _ editor: inout LineEditor, killed: inout String) -> Bool {
        switch key {
        case .character(let character): editor.insert(character)
        case .backspace: editor.deleteBackward()
        case .delete, .control("d"): editor.deleteForward()
        case .left, .control("b"): editor.moveLeft()
        case .right: editor.moveRight()
        case .wordLeft, .alt("b"): editor.moveWordLeft()
        case .wordRight, .alt("f"): editor.moveWordRight()
        case .home, .control("a"): editor.moveToStart()
        case .end, .control("e"): editor.moveToEnd()
        case .control("k"): editor.deleteToEnd(killed: &killed)
        case .control("u"): editor.deleteToStart(killed: &killed)
        case .control("w"), .altBackspace: editor.deleteWordBackward(killed: &killed)
        case .alt("d"): editor.deleteWordForward(killed: &killed)
        case .control("y"): editor.yank(killed)
        case .control("_"): editor.undo()
        default: return false
        }
        return true
    }

    // MARK: Selection and scrolling

    static func moveSelection(_ key: Key, _ state: inout AppState) {
        let count = state.layout.taskCount
        guard count > 0 else { return }
        let page = max(1, (state.screen.listHeight - 1) / state.layout.rowsPerTask)
        state.selection = scrolled(state.selection, by: key, page: page, last: count - 1) ?? state.selection
    }

    /// Runs `change` (outside changes) and keeps the same task selected wherever it moved.
    /// Undo steps name tasks by id, so they stay valid.
    static func keepingSelection(_ state: inout AppState, _ change: (inout AppState) -> Void) {
        let selectedID = state.selectedTask?.id
        change(&state)
        if let selectedID { select(id: selectedID, &state) }
    }

    /// Selects the task with this id if the view shows it.
    static func select(id: UUID, _ state: inout AppState) {
        guard let position = state.tasks.position(of: id) else { return }
        select(index: state.tasks.index(ofPosition: position), in: state.tasks.section(ofPosition: position), &state)
    }

    /// Selects the task at `index` of `section` if the view shows it (after a change).
    static func select(index: Int, in section: Section, _ state: inout AppState) {
        if let display = state.view.display(ofIndex: index, in: section, of: state.tasks) {
            state.selection = display
        }
    }

    /// The wheel moves the view; the selection follows only if it would leave the screen.
    private static func scrollView(by lines: Int, _ state: inout AppState) {
        let layout = state.layout
        let height = state.screen.listHeight
        state.scrollOffset = min(max(0, state.scrollOffset + lines), max(0, layout.rowCount - height))
        guard layout.taskCount > 0 else { return }
        let row = layout.row(ofTask: state.selection)
        if row < state.scrollOffset {
            state.selection = layout.task(nearRow: state.scrollOffset, searchingDown: true) ?? state.selection
        } else if layout.lastRow(ofTask: state.selection) >= state.scrollOffset + height {
            // The task whose last row is on screen.
            let bottom = state.scrollOffset + height - layout.rowsPerTask
            state.selection = layout.task(nearRow: bottom, searchingDown: false) ?? state.selection
        }
    }

    /// Clamps the selection and scrolls just enough to show it (and its section's header when
    /// it is the first task), after every event, resizes included.
    static func keepSelectionInView(_ state: inout AppState) {
        let layout = state.layout
        let height = state.screen.listHeight
        state.selection = min(max(state.selection, 0), max(0, layout.taskCount - 1))
        var offset = min(max(0, state.scrollOffset), max(0, layout.rowCount - height))
        if layout.taskCount > 0 {
            let row = layout.row(ofTask: state.selection)
            let lastRow = layout.lastRow(ofTask: state.selection)
            let isFirstInSection = state.selection == 0 || state.selection == layout.priorityCount
            let top = isFirstInSection ? row - 1 : row
            // On a screen too short for all three, the caption wins over its section's
            // header, and the header over the details row.
            if lastRow >= offset + height { offset = lastRow - height + 1 }
            if top < offset { offset = top }
            if row >= offset + height { offset = row - height + 1 }
        }
        state.scrollOffset = offset
    }
}

extension AppUpdate {
    /// A position in `0...last` after ↑ ↓ PgUp PgDn Home End (a page is `page` rows); nil for
    /// any other key. The list's selection and the help's scroll move alike.
    static func scrolled(_ position: Int, by key: Key, page: Int, last: Int) -> Int? {
        let moved: Int
        switch key {
        case .up: moved = position - 1
        case .down: moved = position + 1
        case .pageUp: moved = position - page
        case .pageDown: moved = position + page
        case .home: moved = 0
        case .end: moved = last
        default: return nil
        }
        return min(max(moved, 0), last)
    }
}
