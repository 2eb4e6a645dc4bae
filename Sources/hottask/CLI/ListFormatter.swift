import HotTaskCore

/// The text of `--list`: the summary, then each section with numbered tasks.
enum ListFormatter {
    static func lines(for list: TaskList) -> [String] {
        var lines = [Progress(list).summary, ""]
        let width = String(max(list.count, 1)).count
        var number = 0
        for section in Section.allCases {
            lines.append("\(section.title) (\(list.count(in: section)))")
            let tasks = list.tasks(in: section)
            if tasks.isEmpty { lines.append("  (none)") }
            for task in tasks {
                number += 1
                let label = String(repeating: " ", count: width - String(number).count) + String(number)
                lines.append("  \(label). [\(task.completed ? "x" : " ")] \(task.caption)")
            }
        }
        return lines
    }
}
