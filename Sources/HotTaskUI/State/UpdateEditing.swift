import Foundation
import HotTaskCore
import HotTaskSettings

/// Editing the selected caption in place, under the same rule as a new task.
extension AppUpdate {
    static func startEditing(_ state: inout AppState) {
        guard let task = state.selectedTask else {
            state.message = Message("No task to edit", kind: .warning)
            return
        }
        // On one line (a phone's line breaks, a file's tabs); empty for a task without a title.
        state.editor = LineEditor(editorText(for: task, plusTags: state.plusTags))
        state.editingTaskID = task.id
        state.focus = .editing
    }

    static func handleEditingKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        if editLine(key, &state.editor, killed: &state.killed) { return [] }
        if key == .tab, state.plusTags {
            let outcome = TagCompletion.complete(&state.editor, tags: state.tasks.tagsInUse, filter: false)
            state.message = TagCompletion.message(outcome)
            return []
        }
        switch key {
        case .enter: return saveEdit(&state, now: now)
        case .escape:
            state.focus = .list
            state.message = Message("Edit cancelled")
        default: break
        }
        return []
    }

    /// Enter: a caption the rule refuses keeps the editor open with the reason.
    private static func saveEdit(_ state: inout AppState, now: Date) -> [Effect] {
        guard let id = state.editingTaskID, let position = state.tasks.position(of: id) else {
            // Deleted by another program while being edited: keep the words, change nothing.
            state.focus = .list
            keepInInput(state.editor.text, &state)
            state.message = Message("That task was deleted elsewhere; your text is in the new-task input", kind: .warning)
            return []
        }
        let old = state.tasks[position]
        guard
            let caption = caption(
                state.editor.text, whenEmpty: "A task needs some text — type a caption or press Esc to cancel",
                refused: "Not saved", replacing: old.caption, &state)
        else { return [] }
        state.focus = .list
        // Saved as it was shown: the caption keeps what it came with (line breaks, tabs).
        if caption == editorText(for: old, plusTags: state.plusTags) { return [] }
        let change: TaskChange?
        if state.plusTags {
            // The editor shows the tags as +words after the caption: what is there now is the set.
            let (text, words) = TagRule.takingTags(from: caption)
            let kept = TagRule.words(for: old.tags).unwritten
            // A `due:YYYY-MM-DD` word is the due date, as todo.txt reads it (`DueWord`).
            let typed = DueWord.taken(from: (try? CaptionRule.clean(text)) ?? caption)
            change = state.tasks.renaming(
                at: position, to: typed.caption, tags: words + kept.filter { !words.contains($0) }, due: typed.due)
        } else {
            let typed = DueWord.taken(from: caption)
            change = state.tasks.renaming(at: position, to: typed.caption, due: typed.due)
        }
        guard let change else { return [] }
        let effects = commit([change], "Edited \(quoted(old))", &state)
        select(id: old.id, &state)
        if let edited = state.tasks.position(of: old.id).map({ state.tasks[$0] }),
            !TaskFilter.Matcher(state.view.query, dates: state.dates).matches(edited)
        {
            state.message = Message("Saved — the filter now hides “\(caption.truncated(toWidth: 40))”")
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
}
