import Foundation

@_spi(Fixtures) import HotTaskCore

extension TaskStore {
    /// Replaces the whole store with `list`, every task stamped anew: how a test makes the store
    /// it starts from. A test's entry point, so it lives here, not in the product.
    public func save(_ list: TaskList, now: Date = Date()) throws(StoreError) {
        try replaceWhole(with: list, now: now)
    }
}
