import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Changes by id read only the named task: through the snapshot's index when it can be used,
/// by searching the snapshot otherwise. Whatever the index says, the task changed is the one
/// named.
@Suite("Changes by id")
struct ChangeByIDTests {
    let folder = TemporaryFolder()
    private var store: TaskStore { TaskStore(path: folder.storePath) }

    /// Six tasks; "Task 3" and "Task 4" share their first nine id characters.
    private static let tasks = [
        task("Task 1", "a0000001-0000-4000-8000-000000000001"), task("Task 2", "b0000002-0000-4000-8000-000000000002"),
        task("Task 3", "abcdef01-1111-4000-8000-000000000003"), task("Task 4", "abcdef01-2222-4000-8000-000000000004"),
        task("Task 5", "e0000005-0000-4000-8000-000000000005"), task("Task 6", "f0000006-0000-4000-8000-000000000006"),
    ]

    private static func task(_ caption: String, _ id: String) -> TaskItem {
        TaskItem(id: UUID(uuidString: id)!, caption: caption, createdAt: Fixtures.date(hours: 0))
    }

    /// Completes the task `handle` (an id prefix with a letter in it: digits alone are a list
    /// number) names, as `--done` does; nil when the store had to be read
    /// whole instead.
    @discardableResult
    private func complete(_ handle: String) throws -> TaskItem? {
        try store.transaction(.ids([handle])) { txn in
            guard let lookup = try txn.lookup([handle]) else { return nil }
            let task = try #require(lookup.tasks[handle])
            try txn.commit([.set(task.id, TaskFields(completed: true, completedAt: Fixtures.date(hours: 1)), was: TaskFields())], what: "done")
            return task
        }
    }

    private func completedCaptions() throws -> [String] {
        try store.load().all.filter(\.completed).map(\.caption)
    }

    @Test("each compaction writes the index, and a change by id uses it")
    func indexWrittenAndUsed() throws {
        try store.save(TaskList(Self.tasks))
        #expect(FileManager.default.fileExists(atPath: store.indexPath))
        #expect(try complete("e0000005")?.caption == "Task 5")
        #expect(try completedCaptions() == ["Task 5"])
    }

    enum Damage: String, CaseIterable, Sendable {
        case missing, truncated, garbage, otherGeneration, pointsAtAnotherTask, pointsPastTheEnd
    }

    @Test("an index that is missing, damaged, stale or wrong is never believed", arguments: Damage.allCases)
    func damagedIndex(_ damage: Damage) throws {
        try store.save(TaskList(Self.tasks))
        var bytes = try #require(fileBytes(store.indexPath))
        let entries = (0..<Self.tasks.count).map { 64 + $0 * 32 }
        switch damage {
        case .missing: try FileManager.default.removeItem(atPath: store.indexPath)
        case .truncated: bytes.removeLast(40)
        case .garbage: bytes = bytes.map { $0 ^ 0x5A }
        case .otherGeneration: bytes[8] = bytes[8] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        case .pointsAtAnotherTask:
            // Every entry takes the next entry's place in the file: ids and objects no longer match.
            let places = entries.map { Array(bytes[($0 + 16)..<($0 + 32)]) }
            for (number, entry) in entries.enumerated() {
                bytes.replaceSubrange((entry + 16)..<(entry + 32), with: places[(number + 1) % places.count])
            }
        case .pointsPastTheEnd:
            for entry in entries { bytes.replaceSubrange((entry + 16)..<(entry + 24), with: [0, 0, 0, 0, 0, 0, 0, 0x7F]) }
        }
        if damage != .missing { folder.write(bytes, to: "tasks.json.index") }

        #expect(try complete("e0000005")?.caption == "Task 5")
        #expect(try complete("b0000002")?.caption == "Task 2")
        #expect(try completedCaptions() == ["Task 2", "Task 5"])
    }

    @Test("a prefix shared by two tasks is refused, and one that matches nothing says so")
    func ambiguousAndUnknown() throws {
        try store.save(TaskList(Self.tasks))
        #expect(throws: PointLookupRefusal.self) { try complete("abcdef01") }
        #expect(try complete("abcdef01-2")?.caption == "Task 4")
        let unknown = #expect(throws: PointLookupRefusal.self) { try complete("deadbeef") }
        #expect(unknown?.reason.description == "no task has an id starting with deadbeef")
        #expect(try completedCaptions() == ["Task 4"])
    }

    @Test("a task added or deleted since the compaction is found, or not, as the log says")
    func logOnTopOfTheIndex() throws {
        try store.save(TaskList(Self.tasks))
        try store.addOnTop([Self.task("Task 7", "c0000007-0000-4000-8000-000000000007")], what: "add")
        try store.change { list in [list.deleting(at: try #require(list.position(of: Self.tasks[0].id)))] }
        #expect(try complete("c0000007")?.caption == "Task 7")
        #expect(throws: PointLookupRefusal.self) { try complete("a0000001") }
        #expect(try completedCaptions() == ["Task 7"])
    }
}
