import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// Editing the selected caption in place, under the same rule as a new task.
extension AppUpdate {
    static func startEditing(_ state: inout AppState) {
        // On one line (a phone's line breaks, a file's tabs); empty for a task without a title.
        openRowPrompt(.editing, noTask: "No task to edit", &state) { task, state in
            LineEditor(editorText(for: task, plusTags: state.plusTags))
        }
    }

    static func handleEditingKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        if key == .tab, state.plusTags {
            _ = completeTag(\.editor, filter: false, &state)
            return []
        }
        return handlePromptKey(key, &state, cancelled: "Edit cancelled") { saveEdit(&$0, now: now) }
    }

    /// Enter: a caption the rule refuses keeps the editor open with the reason.
    private static func saveEdit(_ state: inout AppState, now: Date) -> [Effect] {
        guard let id = state.editingTaskID, let position = state.tasks.position(of: id) else {
            closeDeletedElsewhere(&state)
            return []
        }
        let old = state.tasks[position]
        guard
            let typed = typedTask(
                state.editor.text, whenEmpty: "A task needs some text — type a caption or press Esc to cancel",
                refused: "Not saved", replacing: old.caption, now: now, &state)
        else { return [] }
        closePrompt(nil, &state)
        // Saved as it was shown: the caption keeps what it came with (line breaks, tabs).
        let shown = editorText(for: old, plusTags: state.plusTags)
        if (try? CaptionRule.clean(state.editor.text, replacing: old.caption)) == shown || state.editor.text == shown { return [] }
        let change: TaskChange?
        if state.plusTags {
            // The editor shows the tags as +words after the caption: what is there now is the set;
            // tags it could not show as words stay.
            let kept = TagRule.words(for: old.tags).unwritten
            change = state.tasks.renaming(
                at: position, to: typed.caption, tags: typed.tags + kept.filter { !typed.tags.contains($0) }, due: typed.due)
        } else {
            change = state.tasks.renaming(at: position, to: typed.caption, due: typed.due)
        }
        guard let change else { return [] }
        let effects = commit([change], "Edited \(quoted(old))", &state)
        select(id: old.id, &state)
        if let edited = state.tasks.position(of: old.id).map({ state.tasks[$0] }),
            !TaskFilter.Matcher(state.view.query, dates: state.dates, lists: state.tasks.lists).matches(edited)
        {
            state.message = Message("Saved — the filter now hides “\(typed.caption.truncated(toWidth: 40))”")
        }
        return effects
    }

    /// What the caption editor starts with: the caption on one line, and its tags as `+word`s after it (a
    /// caption's own `+word` written `\\+word`), so that editing them edits the tags.
    static func editorText(for task: TaskItem, plusTags: Bool) -> String {
        let caption = CaptionRule.oneLine(task.caption)
        guard plusTags else { return caption }
        let words = TagRule.words(for: task.tags).text
        return TagRule.escapingTagWords(caption) + (words.isEmpty ? "" : " " + words)
    }

    /// Words that have nowhere else to go end the new-task input (after what is typed there,
    /// a space between), never dropped.
    static func keepInInput(_ text: String, _ state: inout AppState) {
        let typed = state.input.text
        state.input = LineEditor(typed.isEmpty ? text : typed + " " + text)
    }

    // MARK: Prompts

    /// Opens `prompt` on the selected task's row, its line made by `editor`; says `noTask` when
    /// nothing is selected.
    static func openRowPrompt(
        _ prompt: Focus, noTask: String, _ state: inout AppState, editor: (TaskItem, AppState) -> LineEditor
    ) {
        guard let task = state.selectedTask else {
            state.message = Message(noTask, kind: .warning)
            return
        }
        state.editor = editor(task, state)
        state.editingTaskID = task.id
        openPrompt(prompt, &state)
    }

    /// A key in a row prompt: the line editor's keys edit, Enter saves, Esc closes it saying
    /// `cancelled`; anything else does nothing.
    static func handlePromptKey(
        _ key: Key, _ state: inout AppState, cancelled: String, save: (inout AppState) -> [Effect]
    ) -> [Effect] {
        if editLine(key, &state.editor, killed: &state.killed) { return [] }
        switch key {
        case .enter: return save(&state)
        case .escape: closePrompt(cancelled, &state)
        default: break
        }
        return []
    }

    /// Another program deleted the task an open prompt is on: the prompt closes as soon as this
    /// list hears of it, rather than staying on the row that took the task's place, and nothing
    /// is set. A caption being edited keeps its words in the new-task input.
    static func closePromptIfItsTaskWent(_ state: inout AppState) {
        guard [.editing, .due, .repeating, .listing].contains(state.focus), let id = state.editingTaskID, state.tasks.position(of: id) == nil
        else { return }
        closeDeletedElsewhere(&state)
    }

    /// Closes the open prompt whose task was deleted elsewhere, saying what became of the entry.
    static func closeDeletedElsewhere(_ state: inout AppState) {
        let lost: String
        switch state.focus {
        case .editing:
            keepInInput(state.editor.text, &state)
            lost = "your text is in the new-task input"
        case .due: lost = "no due date was set"
        case .listing: lost = "it was not moved"
        default: lost = "no repeat was set"
        }
        state.editingTaskID = nil
        closePrompt("That task was deleted elsewhere; \(lost)", kind: .warning, shorter: "Deleted elsewhere; \(lost)", &state)
    }

    /// Opens a prompt on the selected row (`.editing`, `.due`), remembering where the keys were,
    /// so that Enter and Esc give them back there.
    static func openPrompt(_ prompt: Focus, _ state: inout AppState) {
        if ![.editing, .due, .repeating, .listing].contains(state.focus) { state.promptOrigin = state.focus }
        state.focus = prompt
    }

    /// Ends the open prompt: the keys go back where they were when it opened (the input row for
    /// F2 or F3 there), and the footer says so when that is not the list (`message`, if any,
    /// comes first).
    static func closePrompt(_ message: String?, kind: Message.Kind = .info, shorter: String? = nil, _ state: inout AppState) {
        state.focus = state.promptOrigin
        state.promptOrigin = .list
        if state.focus == .list {
            if let message { state.message = Message(message, kind: kind, shorter: shorter.map { [$0] } ?? []) }
            return
        }
        let note = keysGo(to: state.focus)
        guard let message else {
            state.message = Message(note.prefix(1).uppercased() + note.dropFirst(), kind: kind)
            return
        }
        // The longest wording that fits, the note where the keys went kept as long as it can be.
        let wordings = [message, shorter].compactMap { $0 }
        state.message = Message(
            "\(message) — \(note)", kind: kind, shorter: wordings.dropFirst().map { "\($0) — \(note)" } + wordings)
    }

    /// Where the keys go now, for the footer when the focus moved without the person choosing
    /// it with Tab: after a prompt, a click, a kept filter.
    static func keysGo(to focus: Focus) -> String {
        switch focus {
        case .input: "keys go to the new-task input"
        case .list: "keys go to the list (Tab: the new-task input)"
        case .filter: "keys go to the filter"
        case .editing: "keys edit the caption (Enter saves, Esc cancels)"
        case .due: "keys set the due date (Enter sets, Esc cancels)"
        case .repeating: "keys set the repeat rule (Enter sets, Esc cancels)"
        case .listing: "keys find the list (Enter moves the task, Esc cancels)"
        case .history: "keys go to the history view (Esc leaves it)"
        case .calendar: "keys go to the calendar (Esc leaves it)"
        }
    }
}
