import FoundationEssentials
import Glibc
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
        /// The task's note when the editor opened: a note changed elsewhere meanwhile is not
        /// written over (nil: not checked).
        public var base: String? = nil
        /// `text` is what an earlier editor left, not the note: its file says so in its name, and
        /// an editor that writes nothing drops it.
        public var offersKept = false
    }

    /// How it went.
    public enum Outcome: Equatable, Sendable {
        /// The editor exited 0: the file's text now, the note it was opened on, and the file
        /// that keeps the text until its save is committed.
        case edited(taskID: UUID, text: String, base: String? = nil, file: String? = nil)
        /// The editor could not be run or failed: why, and the text it left (kept for the next try).
        case failed(taskID: UUID, reason: String, text: String?)
        /// The editor ended well but the text cannot be the note (too long, its task deleted or
        /// its note changed elsewhere meanwhile): why, the text (kept for the next try) and the
        /// file that keeps it.
        case refused(taskID: UUID, reason: String, text: String, file: String)
        /// The editor ended well without writing the file (vim's `:q!`): nothing changes, and a
        /// kept text it was offered is dropped.
        case notWritten(taskID: UUID)

        public var taskID: UUID {
            switch self {
            case .edited(let id, _, _, _), .failed(let id, _, _), .refused(let id, _, _, _), .notWritten(let id): id
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
    /// `n`: the selected task's note in the editor (the text a failed edit left, if any: kept
    /// for its task, or offered on any task when its own was deleted elsewhere).
    static func startNote(_ state: inout AppState) -> [Effect] {
        guard let task = state.selectedTask else {
            state.message = Message("No task to write a note for", kind: .warning)
            return []
        }
        let kept = state.keptNote.flatMap { $0.taskID == task.id || state.tasks.position(of: $0.taskID) == nil ? $0.text : nil }
        return [
            .editNote(
                NoteEditing.Request(taskID: task.id, caption: task.caption, text: kept ?? task.note, base: task.note, offersKept: kept != nil))
        ]
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
        case .notWritten:
            let dropped = state.keptNote != nil
            state.keptNote = nil
            state.message = Message(
                dropped ? "Note unchanged: the editor wrote nothing, so the kept text is dropped" : "Note unchanged: the editor wrote nothing",
                shorter: ["Note unchanged"])
            return []
        case .refused(let id, let reason, let text, let file):
            state.keptNote = NoteEditing.Kept(taskID: id, text: text)
            let key = state.bindings.firstLabel(of: .note) ?? "n"
            state.message = Message(
                "Note not saved: \(reason); your text is kept in \(file), and \(key) opens it again", kind: .warning,
                shorter: ["Note not saved; your text is kept (\(key))"])
            return []
        case .edited(let id, let text, let base, let file):
            let key = state.bindings.firstLabel(of: .note) ?? "n"
            let keptIn = file.map { " in \($0)" } ?? ""
            guard let position = state.tasks.position(of: id) else {
                state.keptNote = NoteEditing.Kept(taskID: id, text: text)
                state.message = Message(
                    "That task was deleted elsewhere; your note is kept\(keptIn): \(key) on any task opens it again", kind: .warning,
                    shorter: ["Task deleted elsewhere; note kept (\(key))"])
                return []
            }
            // Another program changed the note while the editor was open: neither is lost.
            if let base, state.tasks[position].note != base, state.tasks[position].note != text {
                state.keptNote = NoteEditing.Kept(taskID: id, text: text)
                state.message = Message(
                    "The note was changed elsewhere while you wrote; yours is kept\(keptIn): \(key) opens it on the new note's place",
                    kind: .warning, shorter: ["Note changed elsewhere; yours kept (\(key))"])
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
            // What this UI has not seen yet is checked in the store, as the save commits.
            let effects = commit([change], what, &state).map { effect -> Effect in
                guard case .save(var save) = effect, let base else { return effect }
                save.condition = .note(of: id, was: base, becomes: note)
                save.keptFile = file
                return .save(save)
            }
            select(id: id, &state)
            state.message = Message(what)
            return effects
        }
    }
}

extension AppUpdate {
    /// The store refused a save whose condition no longer held (the note was changed or its
    /// task deleted by another program while the editor had it): the change, shown at once, is
    /// taken back (the other program's record brings the store's value), its undo step goes,
    /// and a note's text is kept for `n`, in its file too.
    static func saveRefused(_ save: Save, reason: String, _ state: inout AppState) {
        keepingSelection(&state) { state in
            perform(StillApplicable(save.changes.inverse, on: state.tasks).changes, &state)
        }
        if let step = save.stepID { state.history.drop(step) }
        let key = state.bindings.firstLabel(of: .note) ?? "n"
        guard let condition = save.condition, let text = condition.noteWritten else {
            state.message = Message("Not saved: \(reason)", kind: .warning)
            return
        }
        state.keptNote = NoteEditing.Kept(taskID: condition.taskID, text: text)
        state.message = Message(
            "Note not saved: \(reason); your text is kept\(save.keptFile.map { " in \($0)," } ?? "") and \(key) opens it again",
            kind: .warning, shorter: ["Note not saved; your text is kept (\(key))"])
    }
}
