import FoundationEssentials
import Glibc

extension TodoTxtFormat {
    /// The done lines of the occurrences of `task` completed here since the file last had its
    /// line (`TodoTxtRecord.lineDue`), as todo.sh's `do` leaves them, so that its archive has
    /// every completion (issue 52): each occurrence from that due day up to the task's, or for
    /// a rule counted from the day done (which moves on once per completion) one line.
    static func doneLines(doneHere task: TaskItem, record: TodoTxtRecord, created: String, id: String) -> [String] {
        guard let lineDue = record.lineDue.flatMap({ DueDate(text: $0) }), let due = task.due else { return [] }
        var occurrence = task
        occurrence.due = lineDue
        var lines: [String] = []
        let steps = task.repeatRule.afterDone ? (lineDue == due ? 0 : 1) : 1000
        while let current = occurrence.due, task.repeatRule.afterDone || current.wallSeconds < due.wallSeconds, lines.count < steps {
            let (caption, tail) = words(of: occurrence, caption: lineCaption(task.caption), record: TodoTxtRecord())
            lines.append("x \(day(task.modifiedAt)) \(created)\(caption)\(tail) id:\(id)")
            guard let next = occurrence.repeatRule.next(after: current) else { break }
            (occurrence.due, occurrence.repeatRule) = (next.due, next.rule)
        }
        return lines
    }
}
