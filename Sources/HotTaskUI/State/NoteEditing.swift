import Foundation
import HotTaskCore

/// A task's note edited in the person's own editor (`$VISUAL`, else `$EDITOR`, else `vi`), as
/// `git commit` and `task edit` do: the run loop gives the terminal to it and takes it back.
public enum NoteEditing {
    /// What to open: the task, and the text to start from.
    public struct Request: Equatable, Sendable {
        public let taskID: UUID
        /// The caption, for the file's name and the first comment line.
        public let caption: String
        public let text: String
    }

    /// How it went.
    public enum Outcome: Equatable, Sendable {
        /// The editor exited 0: the file's text now.
        case edited(taskID: UUID, text: String)
        /// The editor could not be run or failed: why, and the text it left (kept for the next try).
        case failed(taskID: UUID, reason: String, text: String?)

        public var taskID: UUID {
            switch self {
            case .edited(let id, _), .failed(let id, _, _): id
            }
        }
    }

    /// The text left by an editor that failed, kept for the next `n` on the same task.
    struct Kept: Equatable, Sendable {
        var taskID: UUID
        var text: String
    }
}

extension AppUpdate {
    /// `n`: the selected task's note in the editor (the text a failed edit left, if any).
    static func startNote(_ state: inout AppState) -> [Effect] {
        guard let task = state.selectedTask else {
            state.message = Message("No task to write a note for", kind: .warning)
            return []
        }
        let text = state.keptNote.flatMap { $0.taskID == task.id ? $0.text : nil } ?? task.note
        return [.editNote(NoteEditing.Request(taskID: task.id, caption: task.caption, text: text))]
    }

    /// The editor ended: the note is saved as one change (undo takes it back), or kept when
    /// the editor failed or the note is too long.
    static func noteEdited(_ outcome: NoteEditing.Outcome, _ state: inout AppState) -> [Effect] {
        switch outcome {
        case .failed(let id, let reason, let text):
            if let text { state.keptNote = NoteEditing.Kept(taskID: id, text: text) }
            let key = state.bindings.firstLabel(of: .note) ?? "n"
            state.message = Message(
                "The editor failed (\(reason)); the note is unchanged\(text == nil ? "" : ", your text is kept: \(key) opens it again")",
                kind: .error, shorter: ["Editor failed; note unchanged\(text == nil ? "" : ", text kept (\(key))")"])
            return []
        case .edited(let id, let text):
            guard let position = state.tasks.position(of: id) else {
                state.keptNote = NoteEditing.Kept(taskID: id, text: text)
                state.message = Message("That task was deleted elsewhere; the note was not saved", kind: .warning)
                return []
            }
            let note: String
            do {
                note = try NoteRule.clean(text)
            } catch {
                state.keptNote = NoteEditing.Kept(taskID: id, text: text)
                state.message = Message("Not saved: \(error)", kind: .error, shorter: ["Not saved: the note is too long"])
                return []
            }
            state.keptNote = nil
            let task = state.tasks[position]
            guard let change = state.tasks.noting(at: position, to: note) else {
                state.message = Message("Note unchanged")
                return []
            }
            let what =
                note.isEmpty ? "Note cleared: \(quoted(task))" : task.note.isEmpty ? "Note added: \(quoted(task))" : "Note changed: \(quoted(task))"
            let effects = commit([change], what, &state)
            select(id: id, &state)
            state.message = Message(what)
            return effects
        }
    }
}
