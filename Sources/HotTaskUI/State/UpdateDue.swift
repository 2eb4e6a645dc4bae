import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// The due-date prompt on the selected row: the forms of `--due`, what the entry reads as
/// shown while typing, Enter to set (empty clears), Esc to leave it as it was.
extension AppUpdate {
    static func startDue(_ state: inout AppState) {
        // The old date selected: typing replaces it, an arrow key keeps it to edit.
        openRowPrompt(.due, noTask: "No task to give a due date", &state) { task, state in
            LineEditor(task.due.map { $0.isDay ? $0.dayText : DueEntry.localText($0, in: state.zone) } ?? "", selected: true)
        }
    }

    static func handleDueKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        handlePromptKey(key, &state, cancelled: "Due date unchanged") { saveDue(&$0, now: now) }
    }

    /// Enter: an entry that is not a due date keeps the prompt open, saying why.
    private static func saveDue(_ state: inout AppState, now: Date) -> [Effect] {
        guard let id = state.editingTaskID, let position = state.tasks.position(of: id) else {
            closeDeletedElsewhere(&state)
            return []
        }
        let due: DueDate?
        switch DueEntry.reading(state.editor.text, now: now, local: state.zone) {
        case .success(let reading): due = reading
        case .failure(let refusal):
            state.message = Message("\(refusal)", kind: .error, shorter: ["Not a due date: \(DueInput.forms)"])
            return []
        }
        let task = state.tasks[position]
        closePrompt(nil, &state)
        guard let change = state.tasks.dating(at: position, to: due) else { return [] }
        let what = due.map { "Due \(state.dates.text($0)): \(quoted(task))" } ?? "Due date cleared: \(quoted(task))"
        let effects = commit([change], what, &state)
        select(id: id, &state)
        return effects
    }
}

/// What the prompt's text reads as.
enum DueEntry {
    /// The due date the entry sets (nil: clear it); empty and `none` clear.
    static func reading(_ text: String, now: Date, local: ZoneInfo) -> Result<DueDate?, DueInput.Refusal> {
        let trimmed = text.trimmingBlanks()
        if trimmed.isEmpty { return .success(nil) }
        return DueInput.parse(trimmed, now: now, local: local).map { request in
            if case .set(let due) = request { return due }
            return nil
        }
    }

    /// What the prompt shows beside the entry: "→ Fri 2026-11-27", "→ no due date", or why not.
    static func preview(_ text: String, dates: DueDisplay) -> (text: String, valid: Bool) {
        switch reading(text, now: dates.now, local: dates.local) {
        case .success(let due?):
            let relative = dates.text(due)
            let exact = dates.dateText(dates.localDay(due))
            return ("→ " + (relative.hasPrefix(exact) ? relative : relative + " (" + exact + ")"), true)
        case .success(nil): return ("→ no due date", true)
        case .failure(let refusal): return ("✗ " + (refusal.reason ?? "not a due date"), false)
        }
    }

    /// A time as the prompt offers it for editing: `YYYY-MM-DDTHH:MM` on the local clock.
    static func localText(_ due: DueDate, in local: ZoneInfo) -> String {
        let wall = due.zone == .floating ? due.wallSeconds : due.sortKey(local: local)
        guard let shown = DueDate.time(wallSeconds: wall, zone: .floating) else { return due.dayText }
        let (hour, minute, _) = shown.timeOfDay
        return shown.dayText + "T" + hour.zeroPadded(2) + ":" + minute.zeroPadded(2)
    }
}
