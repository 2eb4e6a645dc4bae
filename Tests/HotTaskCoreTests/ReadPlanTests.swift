import Foundation
import Seeded
import TestSupport
import Testing

@testable import HotTaskCore

/// Every read plan of a transaction gives the same view: random changes committed through the
/// plan that reads least (the header and the log for adds, the named tasks for changes by id)
/// and through a read of everything leave identical records, byte for byte, and identical lists.
@Suite("Every read plan gives the same view")
struct ReadPlanTests {
    let folder = TemporaryFolder()
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// Runs `body` on `a` with `plan` and on `b` reading everything, each committing what it gives.
    func both(
        _ a: TaskStore, _ b: TaskStore, plan: ReadPlan, now: Date, _ body: (StoreTransaction) throws -> (changes: [TaskChange], what: String)
    ) throws {
        for (store, reads) in [(a, plan), (b, ReadPlan.everything)] {
            try store.transaction(reads) { txn in
                let planned = try body(txn)
                try txn.commit(planned.changes, what: planned.what, now: now)
            }
        }
    }

    /// A command's changes by id, planned on the tasks the transaction read: the named ones
    /// alone where the plan allows, the whole list otherwise.
    func planned(_ asked: CommandChanges, handle: String, id: UUID, in txn: StoreTransaction) throws -> [TaskChange] {
        if let lookup = try txn.lookup([handle]) {
            var target = NamedTasksTarget(lookup)
            return try asked.plan(on: &target, now: Self.start, local: ZoneInfo(secondsFromGMT: 0)!).changes
        }
        var target = WholeListTarget(try txn.whole().list, ids: [handle: id], bounds: try txn.topBounds())
        return try asked.plan(on: &target, now: Self.start, local: ZoneInfo(secondsFromGMT: 0)!).changes
    }

    /// The log's records as a reader sees them, but for the generation each store named itself.
    static func records(_ store: TaskStore) throws -> [String] {
        try #require(try store.log.read()).records.map { record in
            var record = record
            record.generation = Generation("0000000000000000")!
            return String(decoding: ChangeLog.encode(record), as: UTF8.self)
        }
    }

    /// Two stores in `folder` holding the same `count` tasks, stamped alike.
    static func twoStores(in folder: TemporaryFolder, count: Int) throws -> (a: TaskStore, b: TaskStore, tasks: [TaskItem]) {
        let a = TaskStore(path: folder.path("a.json"))
        let b = TaskStore(path: folder.path("b.json"))
        let tasks = (0..<count).map { index in
            TaskItem(id: UUID(), caption: "Task \(index)", section: index % 3 == 0 ? .bonus : .priority, createdAt: start)
        }
        try a.save(TaskList(tasks), now: start)
        try b.save(TaskList(tasks), now: start)
        return (a, b, tasks)
    }

    @Test("random changes through the least read and through a read of everything leave identical records", arguments: 1...6)
    func randomChangesLeaveIdenticalRecords(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (a, b, seeded) = try Self.twoStores(in: folder, count: 40)
        var tasks = seeded
        for step in 1...80 {
            let now = Self.start.addingTimeInterval(Double(step))
            let pick = Int(random.next() % 8)
            if pick == 0 || tasks.isEmpty {
                let added = (0...Int(random.next() % 3)).map { index in
                    TaskItem(id: UUID(), caption: "Added \(step).\(index)", section: random.next() % 2 == 0 ? .bonus : .priority, createdAt: now)
                }
                tasks += added
                try both(a, b, plan: .header, now: now) { txn in (try txn.addingOnTop(added), "add") }
                continue
            }
            let id = tasks[Int(random.next() % UInt64(tasks.count))].id
            let handle = id.uuidString.lowercased()
            var asked = CommandChanges()
            switch pick {
            case 1: asked.completing = [handle]
            case 2: asked.reopening = [handle]
            case 3: asked.caption = (handle, "Renamed at \(step)")
            case 4: asked.due = (handle, .set(DueDate(text: "2026-12-0\(1 + step % 9)")!))
            case 5, 6: asked.moving = [handle]
            default:
                asked.deleting = [handle]
                tasks.removeAll { $0.id == id }
            }
            try both(a, b, plan: .ids([handle]), now: now) { txn in (try planned(asked, handle: handle, id: id, in: txn), "change \(step)") }
            let (recordsA, recordsB) = (try Self.records(a), try Self.records(b))
            #expect(recordsA.count == recordsB.count && recordsA == recordsB, "step \(step): the records differ")
        }
        let same = try a.load() == b.load()
        #expect(same, "the lists differ")
    }
}
