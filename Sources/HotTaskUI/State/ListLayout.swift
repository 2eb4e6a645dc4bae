import HotTaskCore

/// The rows of the list, computed from the two shown section counts alone: any row's content and any
/// task's row are found in constant time, so drawing a screen never walks the whole list.
///
///     Top Priority (n)     header
///       [ ] task ...       one row per task, or a hint when the section is empty
///           added 3 days   with details on, a second row per task
///                          spacer
///     Bonus (n)            header
///       [ ] task ...
struct ListLayout: Equatable, Sendable {
    enum Row: Equatable, Sendable {
        case header(Section)
        /// A task, by display position (see `ListView` for the task it shows).
        case task(Int)
        /// The second row of a task when details are on.
        case details(Int)
        /// The hint shown in an empty section.
        case hint(Section)
        case spacer
    }

    let priorityCount: Int
    let bonusCount: Int
    /// Rows each task takes: 2 with details on.
    let rowsPerTask: Int

    /// The layout of a view: the counts are of the tasks shown in each section.
    init(_ view: ListView, of list: TaskList, details: Bool = false) {
        self.init(priorityCount: view.count(in: .priority, of: list), bonusCount: view.count(in: .bonus, of: list), details: details)
    }

    init(priorityCount: Int, bonusCount: Int, details: Bool = false) {
        self.priorityCount = priorityCount
        self.bonusCount = bonusCount
        rowsPerTask = details ? 2 : 1
    }

    /// The display position of the first task of `section`, or nil when none is shown.
    func firstTask(of section: Section) -> Int? {
        section == .priority ? (priorityCount > 0 ? 0 : nil) : (bonusCount > 0 ? priorityCount : nil)
    }

    /// The section of the task at a display position.
    func section(ofTask display: Int) -> Section {
        display < priorityCount ? .priority : .bonus
    }

    var taskCount: Int { priorityCount + bonusCount }
    private var priorityRows: Int { max(priorityCount * rowsPerTask, 1) }
    var bonusHeaderRow: Int { priorityRows + 2 }
    var rowCount: Int { bonusHeaderRow + 1 + max(bonusCount * rowsPerTask, 1) }

    func headerRow(of section: Section) -> Int {
        section == .priority ? 0 : bonusHeaderRow
    }

    /// The first row of a task (its caption).
    func row(ofTask position: Int) -> Int {
        position < priorityCount
            ? 1 + position * rowsPerTask : bonusHeaderRow + 1 + (position - priorityCount) * rowsPerTask
    }

    /// The last row of a task: its details row when details are on.
    func lastRow(ofTask position: Int) -> Int {
        row(ofTask: position) + rowsPerTask - 1
    }

    func content(ofRow row: Int) -> Row {
        if row == 0 { return .header(.priority) }
        if row <= priorityRows { return priorityCount == 0 ? .hint(.priority) : taskRow(row - 1, first: 0) }
        if row < bonusHeaderRow { return .spacer }
        if row == bonusHeaderRow { return .header(.bonus) }
        return bonusCount == 0 ? .hint(.bonus) : taskRow(row - bonusHeaderRow - 1, first: priorityCount)
    }

    /// Row `offset` of a section's tasks, whose first task has display position `first`.
    private func taskRow(_ offset: Int, first: Int) -> Row {
        let position = first + offset / rowsPerTask
        return offset % rowsPerTask == 0 ? .task(position) : .details(position)
    }

    /// The first task at or after `row` (or before it, if none follows), for scrolling by rows.
    func task(nearRow row: Int, searchingDown: Bool) -> Int? {
        guard taskCount > 0 else { return nil }
        var candidate = min(max(row, 0), rowCount - 1)
        let step = searchingDown ? 1 : -1
        while candidate >= 0, candidate < rowCount {
            switch content(ofRow: candidate) {
            case .task(let position), .details(let position): return position
            default: break
            }
            candidate += step
        }
        return task(nearRow: row, searchingDown: !searchingDown)
    }
}
