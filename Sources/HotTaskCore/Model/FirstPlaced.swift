import Foundation

extension TaskList {
    /// The display position of the first task that `changes` add or set, or nil when they only
    /// delete: where the selection goes after an undo or redo. One pass over the list against a
    /// table of the ids (a `Set` of 30,000 ids after the undo of a clear cost 5 ms).
    public func firstPosition(placedBy changes: [TaskChange]) -> Int? {
        var placed = IDTable(count: changes.count)
        for change in changes {
            if case .delete = change { continue }
            _ = placed.insert(change.id)
        }
        guard placed.count > 0 else { return nil }
        if let index = priority.firstIndex(where: { placed.contains($0.id) }) { return index }
        return bonus.firstIndex { placed.contains($0.id) }.map { priority.count + $0 }
    }
}
