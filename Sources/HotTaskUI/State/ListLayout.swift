import HotTaskCore

/// The rows of the list, computed from the two shown section counts alone: any row's content and any
/// task's row are found in constant time, so drawing a screen never walks the whole list.
///
///     Top Priority (n)     header
///       [ ] task ...       one row per task, or a hint when the section is empty
///                          spacer
///     Bonus (n)            header
///       [ ] task ...
public struct ListLayout: Equatable, Sendable {
    public enum Row: Equatable, Sendable {
        case header(Section)
        /// A task, by display position (see `ListView` for the task it shows).
        case task(Int)
        /// The hint shown in an empty section.
        case hint(Section)
        case spacer
    }

    public let priorityCount: Int
    public let bonusCount: Int

    /// The layout of a view: the counts are of the tasks shown in each section.
    public init(_ view: ListView, of list: TaskList) {
        self.init(priorityCount: view.count(in: .priority, of: list), bonusCount: view.count(in: .bonus, of: list))
    }

    public init(priorityCount: Int, bonusCount: Int) {
        self.priorityCount = priorityCount
        self.bonusCount = bonusCount
    }

    /// The display position of the first task of `section`, or nil when none is shown.
    public func firstTask(of section: Section) -> Int? {
        section == .priority ? (priorityCount > 0 ? 0 : nil) : (bonusCount > 0 ? priorityCount : nil)
    }

    /// The section of the task at a display position.
    public func section(ofTask display: Int) -> Section {
        display < priorityCount ? .priority : .bonus
    }

    public var taskCount: Int { priorityCount + bonusCount }
    private var priorityRows: Int { max(priorityCount, 1) }
    public var bonusHeaderRow: Int { priorityRows + 2 }
    public var rowCount: Int { bonusHeaderRow + 1 + max(bonusCount, 1) }

    public func headerRow(of section: Section) -> Int {
        section == .priority ? 0 : bonusHeaderRow
    }

    public func row(ofTask position: Int) -> Int {
        position < priorityCount ? 1 + position : bonusHeaderRow + 1 + (position - priorityCount)
    }

    public func content(ofRow row: Int) -> Row {
        if row == 0 { return .header(.priority) }
        if row <= priorityRows { return priorityCount == 0 ? .hint(.priority) : .task(row - 1) }
        if row < bonusHeaderRow { return .spacer }
        if row == bonusHeaderRow { return .header(.bonus) }
        return bonusCount == 0 ? .hint(.bonus) : .task(priorityCount + row - bonusHeaderRow - 1)
    }

    /// The first task at or after `row` (or before it, if none follows), for scrolling by rows.
    public func task(nearRow row: Int, searchingDown: Bool) -> Int? {
        guard taskCount > 0 else { return nil }
        var candidate = min(max(row, 0), rowCount - 1)
        let step = searchingDown ? 1 : -1
        while candidate >= 0, candidate < rowCount {
            if case .task(let position) = content(ofRow: candidate) { return position }
            candidate += step
        }
        return task(nearRow: row, searchingDown: !searchingDown)
    }
}
