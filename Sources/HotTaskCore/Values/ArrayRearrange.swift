import FoundationEssentials
import Glibc

extension Array {
    /// Puts `self[order[i]]` at `i` for every `i`, in place (`order` is a permutation of the
    /// indices): `order.map { self[$0] }` without a second array (14 MB for 100,000 tasks).
    /// Each cycle of the permutation is walked once, its first element held aside.
    ///
    /// Elements are moved bit for bit, never copied: a copy retains what a task points to (its
    /// caption), and those retains, each a cache miss on a scattered heap object, were most of
    /// the time an undo of 30,000 tasks took.
    mutating func rearrange(takingFrom order: consuming [Int]) {
        precondition(Self.isPermutation(order, of: count), "rearrange needs a permutation of the indices")
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for start in 0..<buffer.count where order[start] != start {
                let first = (base + start).move()
                var at = start
                while order[at] != start {
                    let from = order[at]
                    (base + at).moveInitialize(from: base + from, count: 1)
                    order[at] = at  // done
                    at = from
                }
                (base + at).initialize(to: first)
                order[at] = at
            }
        }
    }

    /// Whether `order` holds each of `0..<count` once: moving by anything else would leave a
    /// slot moved out twice or never filled.
    private static func isPermutation(_ order: [Int], of count: Int) -> Bool {
        guard order.count == count else { return false }
        var seen = [Bool](repeating: false, count: count)
        for index in order {
            guard index >= 0, index < count, !seen[index] else { return false }
            seen[index] = true
        }
        return true
    }
}
