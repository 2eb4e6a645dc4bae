import HotTaskCore

/// Folded captions per section, index for index with the list. Derived data: two views that
/// differ only here are equal.
struct FoldedCaptions: Equatable, Sendable {
    private(set) var priority = FoldedColumn()
    private(set) var bonus = FoldedColumn()

    init() {}

    init(_ list: TaskList) {
        priority = FoldedColumn(list.priority.lazy.map(\.caption))
        bonus = FoldedColumn(list.bonus.lazy.map(\.caption))
    }

    static func == (lhs: FoldedCaptions, rhs: FoldedCaptions) -> Bool { true }

    subscript(section: Section) -> FoldedColumn {
        section == .priority ? priority : bonus
    }

    /// Drops the captions at `indices` (ascending) of a section that held `countBefore`; a
    /// column out of step is emptied, to be folded again by `check`.
    mutating func remove(_ indices: [Int], in section: Section, countBefore: Int) {
        func edit(_ column: inout FoldedColumn) {
            column = column.count == countBefore ? column.removing(indices) : FoldedColumn()
        }
        if section == .priority { edit(&priority) } else { edit(&bonus) }
    }

    mutating func apply(_ change: ListEdit) {
        func edit(_ column: inout FoldedColumn) {
            switch change {
            case .inserted(let task, let index) where index <= column.count:
                column.insert(task.caption, at: index)
            case .removed(_, let index) where index < column.count:
                column.remove(at: index)
            case .replaced(let old, let new, let index) where index < column.count:
                if old.caption != new.caption { column.replace(at: index, with: new.caption) }
            default:
                column = FoldedColumn()  // out of step: `check` folds again
            }
        }
        if change.section == .priority { edit(&priority) } else { edit(&bonus) }
    }

    /// Folds again when out of step with `list` (a list replaced without `apply`); true when
    /// it did.
    @discardableResult
    mutating func check(_ list: TaskList) -> Bool {
        guard priority.count != list.count(in: .priority) || bonus.count != list.count(in: .bonus) else { return false }
        self = FoldedCaptions(list)
        return true
    }
}
