import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Two writers each putting one task under the other make a cycle no single change here could:
/// the sync that brings it breaks it as the tree always does (at the lowest id) and says so.
@Suite("Subtasks: a cycle from two writers")
struct SubtasksSyncCycleTests {
    let folder = TemporaryFolder()
    let server = InMemoryCalendar()

    @Test("a cycle made by two writers is said by the sync that brings it, and both tasks stay")
    func cycleFromTwoWriters() throws {
        let a = SyncEngineTests.Replica(folder.path("a.json"), server: server, now: SyncEngineTests.start)
        let b = SyncEngineTests.Replica(folder.path("b.json"), server: server, now: SyncEngineTests.start)
        try a.add("Trip")
        try a.add("Pack")
        try a.sync()
        try b.sync()
        // A puts Pack under Trip; B, not knowing, puts Trip under Pack.
        let (packA, tripA) = (try #require(a.task("Pack")), try #require(a.task("Trip")))
        let underA = try #require(ChangeRules.under(packA, tripA, key: nil))
        try a.store.commit([underA], what: "under", now: a.now)
        b.now += 60
        let (tripB, packB) = (try #require(b.task("Trip")), try #require(b.task("Pack")))
        let underB = try #require(ChangeRules.under(tripB, packB, key: nil))
        try b.store.commit([underB], what: "under", now: b.now)
        try a.sync()
        let report = try b.sync()
        let tree = Subtasks(b.list)
        let cut = try #require(tree.brokenCycles.first)
        let caption = try #require(b.list.all.first { $0.id == cut }?.caption)
        #expect(
            report.notes.contains("the subtasks of '\(caption)' lead back to it (a cycle, from the server): it is shown top-level"), "\(report.notes)"
        )
        #expect(b.list.all.map(\.caption).sorted() == ["Pack", "Trip"])
        // The next sync, with nothing new, says nothing again.
        #expect(try b.sync().notes.isEmpty)
    }
}
