/// The one-line summary of how far along the list is.
public struct Progress: Equatable, Sendable {
    public let completed: Int
    public let total: Int

    public init(completed: Int, total: Int) {
        self.completed = completed
        self.total = total
    }

    public init(_ list: TaskList) {
        self.init(completed: list.completedCount, total: list.count)
    }

    var remaining: Int { total - completed }

    /// Exactly one of the four captions of the HotTask design.
    public var summary: String {
        if total == 0 { return "It's lonely here - add some tasks!" }
        if completed == 0 { return "Get started - \(total) to go!" }
        if remaining == 0 { return "Well done - \(completed) completed!" }
        return "\(completed) down \(remaining) to go!"
    }
}
