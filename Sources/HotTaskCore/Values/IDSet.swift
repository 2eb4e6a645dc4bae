import FoundationEssentials
import Glibc

/// A set of task ids for passes over a whole list in the app (the fold of 20,000 families
/// hides 80,000 subtasks): `IDTable` under a set's face. A `Set<UUID>` sets SipHash up for
/// every id it hashes, and `Z` hashed each hidden id four times (made, compared, filtered).
public struct IDSet: Equatable, Sendable, ExpressibleByArrayLiteral {
    private var table: IDTable

    /// `minimumCapacity`: how many ids are expected, to make room once.
    public init(minimumCapacity: Int = 0) {
        table = IDTable(count: minimumCapacity)
    }

    public init(arrayLiteral ids: UUID...) {
        self.init(minimumCapacity: ids.count)
        for id in ids { insert(id) }
    }

    public var count: Int { table.count }
    public var isEmpty: Bool { table.count == 0 }

    /// The ids, in the order they were inserted.
    public var ids: some Sequence<UUID> { table.ids }

    /// Adds `id`; false when it was here already.
    @discardableResult
    public mutating func insert(_ id: UUID) -> Bool { table.insert(id) }

    public func contains(_ id: UUID) -> Bool { table.contains(id) }

    /// The same ids, in whatever order.
    public static func == (a: IDSet, b: IDSet) -> Bool {
        a.count == b.count && a.table.ids.allSatisfy(b.contains)
    }
}
