import Foundation
import Seeded
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 53: each list's counts are kept up to date by every change (`TaskList.listCounts`), so
/// the app's progress line and bar cost a look-up. Whatever the changes, one at a time or in
/// bulk, they are what a count of the tasks gives, and the default list's are the rest.
@Suite("each list's counts")
struct ListCountsTests {
    private func counted(_ list: TaskList) -> [String: ListCount] {
        var counts: [String: ListCount] = [:]
        for task in list.all {
            counts[task.list, default: ListCount()].total += 1
            if task.completed { counts[task.list, default: ListCount()].completed += 1 }
        }
        return counts
    }

    @Test func theCountsAreTheTasksCountAfterAnyChanges() {
        var generator = SeededGenerator(seed: 53)
        let names = ["", "", "Work", "Home", "Errands and shopping"]
        var list = TaskList()
        for round in 0..<400 {
            let tasks = list.all
            var changes: [TaskChange] = []
            // A batch now and then, large enough to go the bulk way.
            let batch = round % 50 == 0 ? 300 : 1
            for _ in 0..<batch {
                let pick = Int.random(in: 0..<6, using: &generator)
                if pick < 2 || tasks.isEmpty {
                    let list = names[Int.random(in: 0..<names.count, using: &generator)]
                    changes.append(.add(TaskItem(caption: "t\(round)", completed: Bool.random(using: &generator), createdAt: Date(), list: list)))
                } else if let task = tasks.randomElement(using: &generator) {
                    switch pick {
                    case 2: changes.append(.delete(task))
                    case 3: changes.append(.set(task.id, TaskFields(list: names.randomElement(using: &generator)!), was: TaskFields(list: task.list)))
                    default:
                        let done = !task.completed
                        changes.append(.set(task.id, TaskFields(completed: done, completedAt: Date()), was: TaskFields(completed: task.completed)))
                    }
                }
            }
            list.applyAll(changes, clock: Clock(milliseconds: Int64(round + 1)))
            let counts = counted(list)
            #expect(list.listCounts == counts.filter { !$0.key.isEmpty }, "round \(round)")
            #expect(list.count(ofList: "") == counts[""] ?? ListCount(), "round \(round)")
        }
        // A list read back from the store counts the same.
        let read = try? StoreDocument.decode(StoreDocument.encode(list, header: SnapshotHeader(generation: .random(), clock: .zero, list: list)))
        #expect(read?.list.listCounts == list.listCounts)
    }
}
