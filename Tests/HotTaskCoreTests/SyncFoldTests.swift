import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// A round of many writes folds its acknowledgements into the base file when it is done (every
/// later command reads the log whole, and each acknowledgement carries a calendar body), and
/// the history kept for undo keeps the changes, not the acknowledgements.
@Suite("A big sync folds what it acknowledged")
struct SyncFoldTests {
    let folder = TemporaryFolder()
    let server = InMemoryCalendar()

    @Test("a round of 200 writes folds the log when done; --undo still takes back what it pulled, passing over its acknowledgements")
    func bigRoundFoldsAndUndoStillWorks() throws {
        let a = SyncEngineTests.Replica(folder.path("a.json"), server: server, now: SyncEngineTests.start)
        for index in 0..<SyncEngine.foldAfterWrites { try a.add("Task \(index)") }
        server.store("/calendar/phone-1.ics", SyncEngineTests.phoneObject(uid: "phone-1", summary: "From phone", priority: nil))
        a.now += 60
        let report = try a.sync()
        #expect(report.pulled == 1 && report.pushed == SyncEngine.foldAfterWrites)
        #expect(try a.store.pendingSync().isEmpty, "the acknowledgements are folded into the base file")
        let file = try #require(try SyncBase.readFile(besides: a.store))
        #expect(file.entries.count == SyncEngine.foldAfterWrites + 1)
        #expect(file.entries.values.allSatisfy { !$0.isTentative && $0.etag == server.objects[$0.href]?.etag })
        #expect(try a.store.undoLastChange() == ["Undone: sync with \(server.url)"])
        #expect(a.list.count == SyncEngine.foldAfterWrites && a.task("From phone") == nil)
    }

    @Test("a round of fewer writes leaves its acknowledgements in the log")
    func smallRoundLeavesTheLog() throws {
        let a = SyncEngineTests.Replica(folder.path("a.json"), server: server, now: SyncEngineTests.start)
        for index in 0..<3 { try a.add("Task \(index)") }
        try a.sync()
        #expect(try a.store.pendingSync().count >= 2, "the round's record and its acknowledgements")
    }
}
