import Foundation
import Seeded
import TestSupport
import Testing

@testable import HotTaskCore

/// The UI's session reads the store its own way (`ReadPlan.sinceLastLook`): the log since
/// its last look, with the tasks held in the UI. Its records must be the ones a read of
/// everything gives: random key changes saved through a session, among other processes'
/// adds and changes, leave the same records, byte for byte, as the same changes committed on a
/// second store read whole.
@Suite("The UI's read plan gives the same view as a read of everything")
struct ReadPlanSessionTests {
    let folder = TemporaryFolder()
    static let start = ReadPlanTests.start
    static let utc = ZoneInfo(secondsFromGMT: 0)!

    @Test("random key changes among other writers' leave the records a read of everything leaves", arguments: 1...6)
    func sessionChangesLeaveIdenticalRecords(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (a, b, _) = try ReadPlanTests.twoStores(in: folder, count: 30)
        let session = StoreSession(store: a)
        // The UI's list: its own changes, and others' only once a save or a look brings them.
        var shown = try session.open()
        for step in 1...100 {
            let now = Self.start.addingTimeInterval(Double(step))
            if random.next() % 4 == 0 {
                try outsideChange(step: step, now: now, pick: random.next(), on: [a, b])
                if random.next() % 2 == 0, case .records(let records)? = try session.poll() {
                    shown.applyAll(records: records.map { ($0.changes, $0.clock) })
                }
                continue
            }
            guard let change = uiChange(step: step, pick: random.next(), on: shown, now: now) else { continue }
            let saved = try session.save([change], what: "key \(step)", now: now, count: shown.count + [change].netTaskCount, list: nil)
            guard case .committed(let clock, let outside) = saved else {
                Issue.record("step \(step): the session's save gave \(saved)")
                return
            }
            try b.transaction(.everything) { txn in try txn.commit([change], what: "key \(step)", now: now, wasIsCurrent: false) }
            shown.applyAll(records: outside.map { ($0.changes, $0.clock) })
            shown.applyAll([change], clock: clock)
            let (recordsA, recordsB) = (try ReadPlanTests.records(a), try ReadPlanTests.records(b))
            if let at = recordsA.indices.first(where: { recordsA[$0] != recordsB[safe: $0] })
                ?? (recordsA.count == recordsB.count ? nil : recordsA.count)
            {
                Issue.record("step \(step): record \(at + 1) differs:\n\(recordsA[safe: at])\n\(recordsB[safe: at])")
                return
            }
            if step % 40 == 0 {
                try a.compact()
                try b.compact()
            }
        }
        let same = try a.load() == b.load()
        #expect(same, "the lists differ")
    }

    /// A change the UI makes with a key, planned on what it shows.
    func uiChange(step: Int, pick: UInt64, on shown: TaskList, now: Date) -> TaskChange? {
        let count = shown.priority.count + shown.bonus.count
        guard count > 0, pick % 6 != 0 else {
            return shown.adding(onTop: TaskItem(id: UUID(), caption: "Typed \(step)", section: pick % 2 == 0 ? .bonus : .priority, createdAt: now))
        }
        let position = Int(pick / 8 % UInt64(count))
        switch pick % 6 {
        case 1: return shown.completing(true, at: position, now: now, local: Self.utc)
        case 2: return shown.renaming(at: position, to: "Edited at \(step)")
        case 3: return shown.moving(from: position, to: pick % 2 == 0 ? .bonus : .priority, index: 0)
        case 4: return shown.completing(false, at: position, now: now, local: Self.utc)
        default: return shown.deleting(at: position)
        }
    }

    /// Another process's command on both stores: an add on top, or a rename or completion by
    /// id of a task the UI may have changed or not yet seen.
    func outsideChange(step: Int, now: Date, pick: UInt64, on stores: [TaskStore]) throws {
        let added = TaskItem(id: UUID(), caption: "Other \(step)", createdAt: now)
        for store in stores {
            try store.transaction(pick % 3 == 0 ? .header : .everything) { txn in
                if pick % 3 == 0 {
                    try txn.commit(try txn.addingOnTop([added]), what: "other \(step)", now: now)
                    return
                }
                let list = try txn.whole().list
                let all = list.priority + list.bonus
                guard !all.isEmpty else { return }
                let position = Int(pick / 8 % UInt64(all.count))
                let change =
                    pick % 3 == 1
                    ? list.renaming(at: position, to: "Renamed by another at \(step)")
                    : list.completing(!all[position].completed, at: position, now: now, local: Self.utc)
                guard let change else { return }
                try txn.commit([change], what: "other \(step)", now: now)
            }
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> String { indices.contains(index) ? "\(self[index])" : "(none)" }
}
