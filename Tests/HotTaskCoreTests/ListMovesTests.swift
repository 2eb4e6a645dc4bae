import Foundation
import Testing

@testable import HotTaskCore

/// The list's cheap moves (a task to a new place, many added at once, a family found in place)
/// put every task where a list sorted from scratch puts it, on random lists.
@Suite("Moves within a list land where a sorted list puts them")
struct ListMovesTests {
    /// Keys in order, some sharing their first eight bytes and more (made between close
    /// neighbours), so that numbers from a key's prefix tie.
    static func keys(_ count: Int, using generator: inout some RandomNumberGenerator) -> [OrderKey] {
        var keys = OrderKey.sequence(count)
        var close = keys[count / 2]
        for _ in 0..<(count / 3) {
            close = OrderKey.between(close, keys[count / 2 + 1])
            keys.append(close)
        }
        return keys.sorted().shuffled(using: &generator)
    }

    static func tasks(_ keys: [OrderKey], using generator: inout some RandomNumberGenerator) -> [TaskItem] {
        keys.enumerated().map { index, key in
            TaskItem(
                caption: "t\(index)", section: Bool.random(using: &generator) ? .priority : .bonus,
                completed: Int.random(in: 0..<4, using: &generator) == 0, createdAt: Date(timeIntervalSince1970: 0), order: key)
        }
    }

    /// The tasks in display order, sorted here from scratch: each section by its keys.
    static func sorted(_ tasks: [TaskItem]) -> [UUID] {
        Section.allCases.flatMap { section in tasks.filter { $0.section == section }.sorted(by: TaskList.precedes).map(\.id) }
    }

    @Test func aTaskGivenANewPlaceLandsWhereASortedListPutsItAndTheEditsSaySo() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let keys = Self.keys(Int.random(in: 2...40, using: &generator), using: &generator)
            let tasks = Self.tasks(keys, using: &generator)
            var list = TaskList(keyed: tasks)
            let moved = tasks.randomElement(using: &generator)!
            var expected = tasks
            let newKey = keys.randomElement(using: &generator)!
            expected[expected.firstIndex { $0.id == moved.id }!].order = newKey
            let change = TaskChange.set(moved.id, TaskFields(order: newKey), was: TaskFields(order: moved.order))
            let edits = list.apply(change, clock: .zero, force: true)
            #expect(list.all.map(\.id) == Self.sorted(expected))
            #expect(list.completedCount == tasks.count { $0.completed })
            guard newKey != moved.order else { continue }
            let section = moved.section
            let before = TaskList(keyed: tasks).tasks(in: section).firstIndex { $0.id == moved.id }!
            let after = list.tasks(in: section).firstIndex { $0.id == moved.id }!
            #expect(edits.count == 2)
            if case .removed(let old, let at) = edits.first { #expect(old.id == moved.id && at == before) } else { Issue.record("\(edits)") }
            if case .inserted(let new, let at) = edits.last { #expect(new.order == newKey && at == after) } else { Issue.record("\(edits)") }
            #expect(list.position(of: moved.id) != nil, "the id index follows the move")
        }
    }

    @Test func tasksAddedInBulkAmongOthersLandWhereASortedListPutsThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let keys = Self.keys(Int.random(in: 2...60, using: &generator), using: &generator)
            let tasks = Self.tasks(keys, using: &generator)
            let split = Int.random(in: 0...tasks.count, using: &generator)
            var list = TaskList(keyed: Array(tasks[..<split]))
            list.applyInOnePass(tasks[split...].map { .add($0) }, clock: .zero, force: true)
            #expect(list.all.map(\.id) == Self.sorted(tasks))
            #expect(list.all.map(\.order) == Self.sorted(tasks).map { id in tasks.first { $0.id == id }!.order }, "keys kept")
            #expect(list.completedCount == tasks.count { $0.completed })
        }
    }

    @Test func keysWhosePrefixesDifferCompareAsTheirPrefixesDo() {
        var generator = SystemRandomNumberGenerator()
        let keys = Self.keys(200, using: &generator)
        var tied = 0
        for _ in 0..<2_000 {
            let a = keys.randomElement(using: &generator)!
            let b = keys.randomElement(using: &generator)!
            if a.prefix == b.prefix {
                tied += a == b ? 0 : 1
            } else {
                #expect((a.prefix < b.prefix) == (a < b), "\(a) \(b)")
            }
        }
        #expect(tied > 0, "some distinct keys share their first eight bytes")
    }
}

extension ListMovesTests {
    /// Lists made mostly as HotTask places families (each subtask after its parent's family so
    /// far), with a few relations anywhere: the family found in place, whenever it is, is the
    /// one found level by level, and it is found for most.
    @Test func aFamilyFoundInPlaceIsTheOneFoundLevelByLevel() {
        var generator = SystemRandomNumberGenerator()
        var inPlace = 0
        var asked = 0
        for _ in 0..<300 {
            let count = Int.random(in: 2...14, using: &generator)
            let keys = OrderKey.sequence(count)
            var tasks = keys.map { TaskItem(caption: "t", section: .priority, createdAt: Date(timeIntervalSince1970: 0), order: $0) }
            for index in 1..<count where Int.random(in: 0..<3, using: &generator) > 0 {
                let roll = Int.random(in: 0..<12, using: &generator)
                tasks[index].parent =
                    roll == 0
                    ? tasks.randomElement(using: &generator)!.id  // anywhere: after it, itself, a cycle
                    : roll == 1 ? UUID() : tasks[Int.random(in: max(0, index - 3)..<index, using: &generator)].id
                if roll == 2 { tasks[index].section = .bonus }
            }
            let list = TaskList(keyed: tasks)
            for task in tasks {
                asked += 1
                let levels = list.familyByLevels(of: task).map(\.id)
                #expect(list.family(of: task).map(\.id) == levels)
                if let found = list.familyInPlace(of: task) {
                    inPlace += 1
                    #expect(found.map(\.id) == levels, "\(tasks.map { ($0.id, $0.parent, $0.section) })")
                }
            }
        }
        #expect(inPlace > asked / 2, "most families are found in place")
    }

    @Test func aParentsHintIsTheSameForEqualIdsAndNoneWithoutOne() {
        let id = UUID()
        #expect(ParentHint(id) == ParentHint(UUID(uuidString: id.uuidString)))
        #expect(ParentHint(nil).isNone)
        #expect((0..<1_000).allSatisfy { _ in !ParentHint(UUID()).isNone })
        var task = TaskItem(caption: "t", createdAt: Date(timeIntervalSince1970: 0))
        #expect(task.parentHint.isNone)
        task.parent = id
        #expect(task.parentHint == ParentHint(id))
        task.note = "a note keeps the box, and the hint"
        task.parent = nil
        #expect(task.parentHint.isNone)
        #expect(ParentHints([id]).mayContain(ParentHint(id)) && !ParentHints([id]).mayContain(ParentHint(nil)))
    }
}
