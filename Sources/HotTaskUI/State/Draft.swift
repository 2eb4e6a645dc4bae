import FoundationEssentials
import Glibc
import HotTaskCore

/// Text typed and not yet added or saved: what the new-task input holds, and an open caption
/// edit. Kept on every way out and put back on the next start, so that quitting never loses
/// half a sentence.
public struct Draft: Equatable, Sendable {
    public var input: String
    /// The task whose caption was being edited, and the edited text.
    public var captionEdit: (taskID: UUID, text: String)?

    public init(input: String = "", captionEdit: (taskID: UUID, text: String)? = nil) {
        self.input = input
        self.captionEdit = captionEdit
    }

    public var isEmpty: Bool { input.isEmpty && captionEdit == nil }

    public static func == (a: Draft, b: Draft) -> Bool {
        a.input == b.input && a.captionEdit?.taskID == b.captionEdit?.taskID && a.captionEdit?.text == b.captionEdit?.text
    }
}

extension AppState {
    /// What quitting now would lose. An edit that changed nothing loses nothing.
    public var draft: Draft {
        var draft = Draft(input: input.text)
        if focus == .editing, let id = editingTaskID {
            // The edited task is the selected one (found in O(1)); by id only when it moved.
            let selected = selectedTask
            let current = (selected?.id == id ? selected?.caption : tasks.position(of: id).map { tasks[$0].caption }).map(CaptionRule.oneLine)
            if editor.text != current { draft.captionEdit = (id, editor.text) }
        }
        return draft
    }
}

extension AppUpdate {
    /// Puts a draft kept at the last quit back: the input's text in the input, an open edit
    /// open again on its task (in the input when that task is gone), and says so.
    static func restore(_ draft: Draft, _ state: inout AppState) {
        guard !draft.isEmpty else { return }
        state.input = LineEditor(draft.input)
        if let edit = draft.captionEdit {
            if state.tasks.position(of: edit.taskID) != nil {
                select(id: edit.taskID, &state)
                state.editor = LineEditor(edit.text)
                state.editingTaskID = edit.taskID
                state.focus = .editing
            } else {
                keepInInput(edit.text, &state)
            }
        }
        let what = draft.captionEdit == nil ? "the text you were typing" : "your unsaved edit"
        state.message = Message(
            "Restored \(what) when HotTask last closed", kind: .info,
            shorter: ["Restored \(what)", "Draft restored"])
        keepSelectionInView(&state)
        followCursors(&state)
    }
}
