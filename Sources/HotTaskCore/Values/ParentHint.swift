import FoundationEssentials
import Glibc

/// Sixteen bits folded from a parent's id, never zero; zero for no parent. Equal parents give
/// equal hints, so a task whose hint is not among a few parents' hints is not their subtask;
/// one whose hint is must still have its parent compared (an id chosen to collide costs a
/// compare, never a wrong answer).
@usableFromInline struct ParentHint: Hashable, Sendable {
    @usableFromInline let bits: UInt16

    init(_ parent: UUID?) {
        guard let parent else {
            bits = 0
            return
        }
        let (high, low) = UUIDBytes.sortKey(parent)
        var folded = high ^ low
        folded ^= folded >> 32
        folded ^= folded >> 16
        bits = max(1, UInt16(truncatingIfNeeded: folded))
    }

    @inlinable var isNone: Bool { bits == 0 }
}

/// The hints of a set of parents, asked about once for each task of a list.
struct ParentHints {
    /// A bit for each of the 65,536 hints.
    private var words = [UInt64](repeating: 0, count: 1024)

    init<S: Sequence<UUID>>(_ parents: S) {
        for parent in parents {
            let bits = Int(ParentHint(parent).bits)
            words[bits >> 6] |= 1 << UInt64(bits & 63)
        }
    }

    func mayContain(_ hint: ParentHint) -> Bool {
        let bits = Int(hint.bits)
        return bits != 0 && words[bits >> 6] & (1 << UInt64(bits & 63)) != 0
    }
}
