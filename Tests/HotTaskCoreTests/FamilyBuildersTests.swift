import Foundation
import Testing

@testable import HotTaskCore

/// The app's family look-ups walk the list instead of building the whole tree (a key's cost at
/// 100,000 tasks): on any relations, cycles and unknown parents too, they say what `Subtasks`
/// says.
@Suite("Family look-ups agree with the tree")
struct FamilyBuildersTests {
    @Test func onRandomRelationsTheyAgreeWithSubtasks() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let count = Int.random(in: 1...12, using: &generator)
            var tasks = (0..<count).map { index in
                TaskItem(
                    caption: "t\(index)", section: Bool.random(using: &generator) ? .priority : .bonus, createdAt: Date(timeIntervalSince1970: 0))
            }
            for index in tasks.indices where Int.random(in: 0..<3, using: &generator) > 0 {
                // A task here (a cycle may come of it), or one that is not.
                tasks[index].parent = Int.random(in: 0..<6, using: &generator) == 0 ? UUID() : tasks.randomElement(using: &generator)?.id
            }
            let list = TaskList(tasks)
            let tree = Subtasks(list)
            for position in 0..<list.count {
                let task = list[position]
                #expect(list.isSubtask(at: position) == (tree.parent(of: task.id) != nil), "\(tasks.map { ($0.id, $0.parent) })")
                #expect(list.family(of: task).map(\.id) == tree.descendants(of: task.id), "\(tasks.map { ($0.id, $0.parent) })")
            }
        }
    }
}

extension FamilyBuildersTests {
    @Test func theOrderFoundInPlaceIsTheTreesWheneverOneIsFound() {
        var generator = SystemRandomNumberGenerator()
        var found = 0
        for _ in 0..<500 {
            let count = Int.random(in: 1...10, using: &generator)
            var tasks = (0..<count).map { TaskItem(caption: "t\($0)", section: .priority, createdAt: Date(timeIntervalSince1970: 0)) }
            for index in tasks.indices where Int.random(in: 0..<2, using: &generator) == 0 {
                // Mostly a task before it (in place), sometimes after it or unknown.
                let roll = Int.random(in: 0..<10, using: &generator)
                tasks[index].parent =
                    roll == 0
                    ? UUID()
                    : roll == 1
                        ? tasks.randomElement(using: &generator)?.id : index > 0 ? tasks[Int.random(in: 0..<index, using: &generator)].id : nil
            }
            guard let inPlace = Subtasks.orderIfInPlace(tasks) else { continue }
            found += 1
            let tree = Subtasks(tasks).familyOrder(of: tasks)
            #expect(inPlace.map(\.index) == tree.map(\.index) && inPlace.map(\.depth) == tree.map(\.depth), "\(tasks.map { ($0.id, $0.parent) })")
        }
        #expect(found > 100, "the in-place order is found for most lists made so")
    }
}
