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
