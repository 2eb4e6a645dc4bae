import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// The repeat prompt on the selected row (`r`): the forms of `--repeat`, what the entry reads
/// as shown while typing, Enter to set (empty stops the repeat), Esc to leave it as it was.
extension AppUpdate {
    static func startRepeat(_ state: inout AppState) {
        // The rule it has, in words, selected: typing replaces it.
        openRowPrompt(.repeating, noTask: "No task to repeat", &state) { task, _ in
            LineEditor(RepeatEntry.editable(task.repeatRule), selected: true)
        }
    }

    static func handleRepeatKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        handlePromptKey(key, &state, cancelled: "Repeat unchanged") { saveRepeat(&$0, now: now) }
    }

    private static func saveRepeat(_ state: inout AppState, now: Date) -> [Effect] {
        guard let id = state.editingTaskID, let position = state.tasks.position(of: id) else {
            closeDeletedElsewhere(&state)
            return []
        }
        let rule: RepeatRule
        switch RepeatEntry.reading(state.editor.text) {
        case .success(let reading): rule = reading
        case .failure(let refusal):
            state.message = Message("\(refusal)", kind: .error, shorter: ["Not a repeat rule: \(RepeatInput.forms)"])
            return []
        }
        let task = state.tasks[position]
        closePrompt(nil, &state)
        let today = DueDate.localDay(of: now, in: state.zone)
        guard let change = ChangeRules.repeating(task, by: rule, today: today) else { return [] }
        let what = rule.isNone ? "Repeats no more: \(quoted(task))" : "Repeats \(rule.words): \(quoted(task))"
        let effects = commit([change], what, &state)
        select(id: id, &state)
        return effects
    }
}

/// What the repeat prompt's text reads as.
enum RepeatEntry {
    /// The rule the entry sets; empty and `none` stop the repeat.
    static func reading(_ text: String) -> Result<RepeatRule, RepeatInput.Refusal> {
        let trimmed = text.trimmingBlanks()
        return trimmed.isEmpty ? .success(.none) : RepeatInput.parse(trimmed)
    }

    /// A rule as the prompt offers it for editing: its words when they read back as it, else
    /// its RRULE (and `after done`).
    static func editable(_ rule: RepeatRule) -> String {
        guard !rule.isNone else { return "" }
        if case .success(let again) = RepeatInput.parse(rule.words), again == rule { return rule.words }
        return rule.rrule + (rule.afterDone ? " after done" : "")
    }

    /// What the prompt shows beside the entry: "→ every Sun, next Sun 29 Nov", "→ no repeat",
    /// or why not.
    static func preview(_ text: String, task: TaskItem, dates: DueDisplay) -> (text: String, valid: Bool) {
        switch reading(text) {
        case .success(let rule) where rule.isNone: return ("→ no repeat", true)
        case .success(let rule):
            let first = task.due ?? rule.first(onOrAfter: DueDate.localDay(of: dates.now, in: dates.local))
            return ("→ " + rule.words + (first.map { ", from " + dates.occurrenceText($0) } ?? ""), true)
        case .failure: return ("✗ not a repeat rule", false)
        }
    }
}
