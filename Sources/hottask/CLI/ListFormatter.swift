import HotTaskCore
import HotTaskUI

/// Which tasks `--list` shows: `--open` leaves out completed ones, `--filter` keeps those whose
/// caption matches as the UI's filter does.
struct ListSelection {
    let openOnly: Bool
    /// The filter's query folded once, not once per task.
    private let matcher: TaskFilter.Matcher?

    init(openOnly: Bool = false, filter: String? = nil) {
        self.openOnly = openOnly
        matcher = (filter ?? "").isEmpty ? nil : TaskFilter.Matcher(filter ?? "")
    }

    var isEverything: Bool { !openOnly && matcher == nil }

    func includes(_ task: TaskItem) -> Bool {
        if openOnly && task.completed { return false }
        return matcher?.matches(caption: task.caption) ?? true
    }
}

/// The text of `--list`: the summary, then each section with numbered tasks.
///
/// `styled` adds ANSI bold to the summary and headers and dim to completed tasks; the caller
/// asks for it only when stdout is a terminal and NO_COLOR is unset, so pipes and files get
/// plain text. Captions cannot carry escape sequences (the caption rule removes them).
enum ListFormatter {
    private static let bold = "\u{1B}[1m"
    private static let dim = "\u{1B}[2m"
    private static let reset = "\u{1B}[0m"

    /// Numbers run over the whole list even when `selection` hides tasks, so that the number
    /// shown is the one `--done` takes. `showingIDs` adds each task's short id, a handle that
    /// does not change when tasks are added.
    static func lines(
        for list: TaskList, styled: Bool = false, selection: ListSelection = ListSelection(), showingIDs: Bool = false
    ) -> [String] {
        func style(_ text: String, _ code: String) -> String { styled ? code + text + reset : text }
        var lines = [style(Progress(list).summary, bold), ""]
        let width = String(max(list.count, 1)).count
        let shortIDs = showingIDs ? list.shortIDs() : []
        var number = 0
        for section in Section.allCases {
            let tasks = list.tasks(in: section)
            let shown = selection.isEverything ? tasks.count : tasks.filter(selection.includes).count
            let count = shown == tasks.count ? "\(tasks.count)" : "\(shown) of \(tasks.count)"
            lines.append(style("\(section.title) (\(count))", bold))
            if shown == 0 { lines.append(tasks.isEmpty ? "  (none)" : "  (none shown)") }
            for task in tasks {
                number += 1
                guard selection.isEverything || selection.includes(task) else { continue }
                let label = String(repeating: " ", count: width - String(number).count) + String(number)
                let id = showingIDs ? " " + shortIDs[number - 1] : ""
                let line = "  \(label).\(id) [\(task.completed ? "x" : " ")] \(task.caption)"
                lines.append(task.completed ? style(line, dim) : line)
            }
        }
        return lines
    }

    /// Colour only for a person at a terminal that can show it (https://no-color.org).
    static func wantsStyle(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}
