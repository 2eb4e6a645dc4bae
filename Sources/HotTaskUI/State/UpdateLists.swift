import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// Several lists in the app: one shown at a time (or all), switched with a key, and a prompt
/// that moves the selected task to another list, finding it as the name is typed.
extension AppUpdate {
    /// The lists in the bar's order, then every list at once (nil).
    static func listStops(_ state: AppState) -> [String?] {
        state.listSummary.names.map { Optional($0) } + [nil]
    }

    /// Shows the list `name` (nil: all); the selection goes to the top.
    public static func showList(_ name: String?, _ state: inout AppState) {
        state.listSummary.follow(state.tasks)
        let known = name.flatMap { ListNameRule.find($0, in: state.listSummary.names) }
        state.currentList = known
        state.view.setList(known.map { state.tasks.lists.stored(for: $0) }, list: state.tasks, dates: state.dates)
        state.selection = 0
        state.scrollOffset = 0
    }

    /// `>` and `<`: the next or previous list, then every list at once, round again.
    static func switchList(by step: Int, _ state: inout AppState) {
        let stops = listStops(state)
        guard stops.count > 2 else {
            state.message = Message("One list only: make another with hottask --new-list NAME", kind: .warning)
            return
        }
        let here = stops.firstIndex { $0 == state.currentList } ?? stops.count - 1
        let next = stops[(here + step + stops.count) % stops.count]
        showList(next, &state)
        state.message = Message(next.map { "List: \($0)" } ?? "All lists")
    }

    /// The lists changed under the view (a rename or delete elsewhere): a list that is gone
    /// shows every list.
    static func followLists(_ state: inout AppState) {
        state.listSummary.follow(state.tasks)
        guard let current = state.currentList, !state.listSummary.names.contains(current) else { return }
        showList(nil, &state)
    }

    /// What a new task stores for its list: the shown one's, else the default list's.
    static func newTaskList(_ state: AppState) -> String {
        state.currentList.map { state.tasks.lists.stored(for: $0) } ?? ""
    }

    /// `T`: a prompt on the row for the list to move the task to.
    static func startListing(_ state: inout AppState) {
        guard state.hasSeveralLists else {
            state.message = Message("One list only: make another with hottask --new-list NAME", kind: .warning)
            return
        }
        openRowPrompt(.listing, noTask: "No task to move to another list", &state) { _, _ in LineEditor("") }
    }

    static func handleListingKey(_ key: Key, _ state: inout AppState, now: Date) -> [Effect] {
        handlePromptKey(key, &state, cancelled: "List unchanged") { saveListing(&$0) }
    }

    /// Enter: the list the entry finds; an entry that finds none keeps the prompt open.
    private static func saveListing(_ state: inout AppState) -> [Effect] {
        guard let id = state.editingTaskID, let position = state.tasks.position(of: id) else {
            closeDeletedElsewhere(&state)
            return []
        }
        guard let name = ListEntry.found(state.editor.text, in: state.listSummary.names) else {
            state.message = Message("No list is called that: \(state.listSummary.names.joined(separator: ", "))", kind: .error)
            return []
        }
        let task = state.tasks[position]
        closePrompt(nil, &state)
        let stored = state.tasks.lists.stored(for: name)
        guard let change = ChangeRules.moveToList(task, stored) else {
            state.message = Message("Already in \(name): \(quoted(task))")
            return []
        }
        // A subtask stays in its parent's list; a task's subtasks go with it.
        if state.tasks.isSubtask(at: position) {
            state.message = Message("\(quoted(task)) is a subtask: it stays in its parent's list (move the parent)", kind: .warning)
            return []
        }
        let family = state.tasks.family(of: task).compactMap { ChangeRules.moveToList($0, stored) }
        let with = family.isEmpty ? "" : " (and its \(family.count) subtask\(family.count == 1 ? "" : "s"))"
        return commit([change] + family, "Moved to the list \(name): \(quoted(task))\(with)", &state)
    }
}

/// What the list prompt's entry finds: the list of that name, else the one list whose name
/// starts with it (case ignored), else the first that contains it.
enum ListEntry {
    static func found(_ text: String, in names: [String]) -> String? {
        let typed = text.trimmingBlanks()
        if typed.isEmpty { return nil }
        if let exact = ListNameRule.find(typed, in: names) { return exact }
        let starting = names.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
        if let first = starting.first { return first }
        return names.first { $0.lowercased().contains(typed.lowercased()) }
    }

    /// Beside the entry: "→ Work", the lists while nothing is typed, or why not.
    static func preview(_ text: String, names: [String]) -> (text: String, valid: Bool) {
        if text.trimmingBlanks().isEmpty { return (names.joined(separator: " · "), true) }
        if let name = found(text, in: names) { return ("→ " + name, true) }
        return ("✗ no such list", false)
    }
}
