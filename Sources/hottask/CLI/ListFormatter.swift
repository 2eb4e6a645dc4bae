import HotTaskCore

/// The text of `--list`: the summary, then each section with numbered tasks.
///
/// `styled` adds ANSI bold to the summary and headers and dim to completed tasks; the caller
/// asks for it only when stdout is a terminal and NO_COLOR is unset, so pipes and files get
/// plain text. Captions cannot carry escape sequences (the caption rule removes them).
enum ListFormatter {
    private static let bold = "\u{1B}[1m"
    private static let dim = "\u{1B}[2m"
    private static let reset = "\u{1B}[0m"

    static func lines(for list: TaskList, styled: Bool = false) -> [String] {
        func style(_ text: String, _ code: String) -> String { styled ? code + text + reset : text }
        var lines = [style(Progress(list).summary, bold), ""]
        let width = String(max(list.count, 1)).count
        var number = 0
        for section in Section.allCases {
            lines.append(style("\(section.title) (\(list.count(in: section)))", bold))
            let tasks = list.tasks(in: section)
            if tasks.isEmpty { lines.append("  (none)") }
            for task in tasks {
                number += 1
                let label = String(repeating: " ", count: width - String(number).count) + String(number)
                let line = "  \(label). [\(task.completed ? "x" : " ")] \(task.caption)"
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
