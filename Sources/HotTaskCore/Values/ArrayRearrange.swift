import Foundation

extension Array {
    /// Puts `self[order[i]]` at `i` for every `i`, in place (`order` is a permutation of the
    /// indices): `order.map { self[$0] }` without a second array (14 MB for 100,000 tasks).
    /// Each cycle of the permutation is walked once, its first element held aside.
    mutating func rearrange(takingFrom order: consuming [Int]) {
        for start in indices where order[start] != start {
            let first = self[start]
            var at = start
            while order[at] != start {
                let from = order[at]
                self[at] = self[from]
                order[at] = at  // done
                at = from
            }
            self[at] = first
            order[at] = at
        }
    }
}
