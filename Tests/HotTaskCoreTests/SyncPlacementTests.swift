import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Where tasks pulled from the server go among the tasks here: by their X-APPLE-SORT-ORDER,
/// before the first task here with a higher known one, equal orders by id.
extension SyncEngineTests {
    func sorted(_ uid: String, order: Int) -> String {
        Self.phoneObject(uid: uid, summary: uid, priority: "1").replacingOccurrences(
            of: "SUMMARY:\(uid)", with: "SUMMARY:\(uid)\r\nX-APPLE-SORT-ORDER:\(order)")
    }

    @Test("new tasks from the server go between the tasks here by sort order, equal orders by id, after those placed before")
    func newTasksPlacedBetween() throws {
        let a = replica("a.json")
        for (uid, order) in [("A", 10), ("C", 30), ("E", 50)] { server.store("/calendar/\(uid).ics", sorted(uid, order: order)) }
        try a.sync()
        #expect(a.list.all.map(\.caption) == ["A", "C", "E"])
        for (uid, order) in [("F", 60), ("B2", 20), ("D", 40), ("B", 20), ("A0", 5)] {
            server.store("/calendar/\(uid).ics", sorted(uid, order: order))
        }
        try a.sync()
        // Equal orders go by id (the UUID made from the UID).
        let tied = ["B", "B2"].sorted { TodoMapping.id(forUID: $0).uuidString < TodoMapping.id(forUID: $1).uuidString }
        #expect(a.list.all.map(\.caption) == ["A0", "A"] + tied + ["C", "D", "E", "F"])
    }

    @Test("5,000 tasks pulled at once land in sort order")
    func manyNewTasksInOrder() throws {
        let a = replica("a.json")
        var random = SeededGenerator(seed: 60)
        var expected: [(Int, String)] = []
        for n in 0..<5_000 {
            let order = Int.random(in: 0..<1_000, using: &random)
            let uid = "t\(n)"
            server.store("/calendar/\(uid).ics", sorted(uid, order: order))
            expected.append((order, TodoMapping.id(forUID: uid).uuidString))
        }
        try a.sync()
        let byID = Dictionary(uniqueKeysWithValues: expected.map { ($0.1, $0.0) })
        let orders = a.list.all.map { byID[$0.id.uuidString] ?? -1 }
        #expect(orders.count == 5_000 && orders == orders.sorted())
    }
}
