import Foundation
import HotTaskCore

/// The UI's only way to change: `update(&state, event, now:)` edits the state value and returns
/// what the run loop must do. Pure: no terminal, no file, no clock (the time comes in `now`).
public enum AppUpdate {
    public static func update(_ state: inout AppState, _ event: Event, now: Date) -> [Effect] {
        var effects: [Effect]
        switch event {
        case .keyPressed(let key):
            state.message = nil
            effects = handleGlobal(key, &state) ?? (state.focus == .input
                ? handleInputKey(key, &state, now: now) : handleListKey(key, &state, now: now))
        case .resized(let size):
            state.size = size
            effects = []
        case .wheelScrolled(let lines):
            scrollView(by: lines, &state)
            effects = []
        case .saveFailed(let reason):
            state.saveError = reason
            effects = []
        case .saveSucceeded:
            state.saveError = nil
            effects = []
        case .tasksChangedOutside(let tasks):
            // Stay on the same task wherever it moved (a lookup only on this rare event).
            let selectedID = state.selectedTask?.id
            state.tasks = tasks
            if let selectedID, let position = tasks.position(of: selectedID) { state.selection = position }
            effects = []
        }
        keepSelectionInView(&state)
        return effects
    }

    // MARK: Keys

    /// Keys that mean the same wherever the focus is.
    private static func handleGlobal(_ key: Key, _ state: inout AppState) -> [Effect]? {
        switch key {
        case .control("c"), .control("q"): return [.quit]
        case .control("z"): return [.suspend]
        case .control("l"): return [.redraw]
        case .tab, .backTab:
            state.focus = state.focus == .input ? .list : .input
            return []
        default: return nil
        }
    }

    private static func handleInputKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        switch key {
        case .character(let character): state.input.insert(character)
        case .enter: return addTask(&state, now: now)
        case .backspace: state.input.deleteBackward()
        case .delete, .control("d"): state.input.deleteForward()
        case .left, .control("b"): state.input.moveLeft()
        case .right, .control("f"): state.input.moveRight()
        case .home, .control("a"): state.input.moveToStart()
        case .end, .control("e"): state.input.moveToEnd()
        case .control("k"): state.input.deleteToEnd()
        case .control("u"): state.input.deleteToStart()
        case .control("w"): state.input.deleteWordBackward()
        case .up, .down, .pageUp, .pageDown: moveSelection(key, &state)
        default: break
        }
        return []
    }

    private static func handleListKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        switch key {
        case .up, .down, .pageUp, .pageDown, .home, .end: moveSelection(key, &state)
        case .character("k"): moveSelection(.up, &state)
        case .character("j"): moveSelection(.down, &state)
        case .character("g"): moveSelection(.home, &state)
        case .character("G"): moveSelection(.end, &state)
        case .character(" "), .character("x"): return toggleCompleted(&state, now: now)
        case .character("m"): return moveToOtherSection(&state, now: now)
        case .character("d"), .delete: return deleteSelected(&state)
        case .character("i"), .enter, .escape: state.focus = .input
        case .character("q"): return [.quit]
        case .character:
            state.message = Message("Press i or Tab to type a new task", kind: .warning)
        default: break
        }
        return []
    }

    // MARK: Changes to tasks

    private static func addTask(_ state: inout AppState, now: Date) -> [Effect] {
        let caption: String
        do {
            caption = try CaptionRule.clean(state.input.text)
        } catch .empty {
            state.message = Message("Nothing to add — type a task first", kind: .warning)
            return []
        } catch {
            state.message = Message("Not added: \(error)", kind: .warning)
            return []
        }
        state.tasks.insertOnTop(TaskItem(caption: caption, section: .priority, createdAt: now))
        state.input.clear()
        // Select the new task so the person sees it land, wherever the list was scrolled.
        state.selection = 0
        return [.save(state.tasks)]
    }

    private static func toggleCompleted(_ state: inout AppState, now: Date) -> [Effect] {
        guard let task = state.selectedTask else { return [] }
        state.tasks.setCompleted(!task.completed, at: state.selection, now: now)
        return [.save(state.tasks)]
    }

    private static func moveToOtherSection(_ state: inout AppState, now: Date) -> [Effect] {
        guard let task = state.selectedTask else { return [] }
        state.selection = state.tasks.moveToOtherSection(at: state.selection, now: now)
        state.message = Message("Moved “\(task.caption.truncated(toWidth: 40))” to \(task.section.other.title)")
        return [.save(state.tasks)]
    }

    private static func deleteSelected(_ state: inout AppState) -> [Effect] {
        guard let task = state.selectedTask else { return [] }
        state.tasks.remove(at: state.selection)
        state.selection = min(state.selection, max(0, state.tasks.count - 1))
        state.message = Message("Deleted “\(task.caption.truncated(toWidth: 40))”")
        return [.save(state.tasks)]
    }

    // MARK: Selection and scrolling

    private static func moveSelection(_ key: Key, _ state: inout AppState) {
        guard !state.tasks.isEmpty else { return }
        let page = max(1, state.screen.listHeight - 1)
        let last = state.tasks.count - 1
        switch key {
        case .up: state.selection -= 1
        case .down: state.selection += 1
        case .pageUp: state.selection -= page
        case .pageDown: state.selection += page
        case .home: state.selection = 0
        case .end: state.selection = last
        default: break
        }
        state.selection = min(max(state.selection, 0), last)
    }

    /// The wheel moves the view; the selection follows only if it would leave the screen.
    private static func scrollView(by lines: Int, _ state: inout AppState) {
        let layout = state.layout
        let height = state.screen.listHeight
        state.scrollOffset = min(max(0, state.scrollOffset + lines), max(0, layout.rowCount - height))
        guard !state.tasks.isEmpty else { return }
        let row = layout.row(ofTask: state.selection)
        if row < state.scrollOffset {
            state.selection = layout.task(nearRow: state.scrollOffset, searchingDown: true) ?? state.selection
        } else if row >= state.scrollOffset + height {
            state.selection = layout.task(nearRow: state.scrollOffset + height - 1, searchingDown: false) ?? state.selection
        }
    }

    /// Clamps the selection and scrolls just enough to show it (and its section's header when
    /// it is the first task), after every event, resizes included.
    static func keepSelectionInView(_ state: inout AppState) {
        let layout = state.layout
        let height = state.screen.listHeight
        state.selection = min(max(state.selection, 0), max(0, state.tasks.count - 1))
        var offset = min(max(0, state.scrollOffset), max(0, layout.rowCount - height))
        if !state.tasks.isEmpty {
            let row = layout.row(ofTask: state.selection)
            let isFirstInSection = state.selection == 0 || state.selection == layout.priorityCount
            let top = isFirstInSection ? row - 1 : row
            if top < offset { offset = top }
            if row >= offset + height { offset = row - height + 1 }
        }
        state.scrollOffset = offset
    }
}
