import HotTaskCore

extension DueInput.Request {
    /// The due date it sets; nil when it clears.
    var date: DueDate? {
        if case .set(let date) = self { return date }
        return nil
    }
}

extension CommandLineActions {
    /// What `--edit N --due WHEN` says it did.
    func dueLine(_ task: TaskItem, _ request: DueInput.Request) -> String {
        switch request {
        case .clear: task.due == nil ? "Already without a due date: \(task.caption)" : "Due date cleared: \(task.caption)"
        case .set(let due):
            task.due == due ? "Already due \(dates.text(due)): \(task.caption)" : "Due \(dates.text(due)): \(task.caption)"
        }
    }
}
