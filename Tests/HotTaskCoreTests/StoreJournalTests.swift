import Foundation
import HotTaskCore
import Testing
import TestSupport

/// `--add` appends to a journal beside the snapshot; these are its edge cases.
@Suite("Store journal")
struct StoreJournalTests {
    @Test("a full save keeps the journal's tasks in the backup too")
    func backupHoldsJournalTasks() throws {
        try store.add([Fixtures.task("first", id: 1)])
        try store.add([Fixtures.task("only in the journal", id: 2)])
        try store.update { $0.setCompleted(true, at: 1, now: Fixtures.date(hours: 1)) }
        let backup = try TaskStore(path: store.backupPath).load()
        #expect(backup.all.map(\.caption) == ["only in the journal", "first"])
    }

    @Test("a journal without its snapshot is not a store that lost every task")
    func journalAlone() throws {
        try store.add([Fixtures.task("first", id: 1)])
        let session = StoreSession(store: store)
        var ours = try session.open()
        try store.add([Fixtures.task("second", id: 2)])
        ours = try #require(try session.refresh(ours))
        try FileManager.default.removeItem(atPath: store.path)  // moved away; the journal stays
        #expect(try session.refresh(ours) == nil)
        #expect(try session.save(ours) == ours)
        #expect(try store.load() == ours, "written again whole from memory")
    }

    @Test("reading many journal lines on a large list puts them on top in one pass")
    func addingOnTop() {
        let list = TaskList((1...3).map { Fixtures.task("old \($0)", id: $0) })
        let added = list.addingOnTop([
            Fixtures.task("a", id: 10), Fixtures.task("b", id: 11, section: .bonus), Fixtures.task("c", id: 12),
            Fixtures.task("old 1", id: 1),
        ])
        #expect(added.priority.map(\.caption) == ["c", "a", "old 1", "old 2", "old 3"])
        #expect(added.bonus.map(\.caption) == ["b"])
    }

    let folder = TemporaryFolder()
    private var store: TaskStore { TaskStore(path: folder.storePath) }

    private func journalLines() -> [String] {
        (fileText(store.journalPath) ?? "").split(separator: "\n").map(String.init)
    }

    @Test("adds after the first go to the journal, in order, and leave the snapshot alone")
    func appends() throws {
        try store.add([Fixtures.task("first", id: 1)])
        let snapshot = fileBytes(store.path)
        try store.add([Fixtures.task("A", id: 2), Fixtures.task("B", id: 3)])
        #expect(fileBytes(store.path) == snapshot)
        #expect(journalLines().count == 3, "a header and two adds")
        #expect(try store.load().all.map(\.caption) == ["A", "B", "first"])
    }

    @Test("a torn last line is ignored, and the next append cuts it off")
    func tornTail() throws {
        try store.add([Fixtures.task("first", id: 1)])
        try store.add([Fixtures.task("second", id: 2)])
        let handle = try #require(FileHandle(forWritingAtPath: store.journalPath))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"op": "add", "task": {"id": "000"#.utf8))
        try handle.close()
        #expect(try store.load().all.map(\.caption) == ["second", "first"])
        try store.add([Fixtures.task("third", id: 3)])
        #expect(try store.load().all.map(\.caption) == ["third", "second", "first"])
        #expect(journalLines().allSatisfy { $0.hasSuffix("}") })
    }

    @Test("a journal left beside a newer snapshot adds nothing twice")
    func staleJournal() throws {
        try store.add([Fixtures.task("first", id: 1)])
        try store.add([Fixtures.task("second", id: 2)])
        let journal = try #require(fileBytes(store.journalPath))
        try store.update { $0.setCompleted(true, at: 0, now: Fixtures.date(hours: 1)) }  // folds the journal in
        #expect(journalLines().count == 1, "a new journal with only its header")
        folder.write(journal, to: "tasks.json.journal")  // as if a crash kept it
        let list = try store.load()
        #expect(list.all.map(\.caption) == ["second", "first"])
        #expect(list[0].completed, "the snapshot's newer version stays")
    }

    @Test("a damaged journal line is reported with the journal's path and line, and nothing is written")
    func damagedLine() throws {
        try store.add([Fixtures.task("first", id: 1)])
        try store.add([Fixtures.task("second", id: 2)])
        let handle = try #require(FileHandle(forWritingAtPath: store.journalPath))
        handle.seekToEndOfFile()
        handle.write(Data("garbage\n".utf8))
        try handle.close()
        let before = (fileBytes(store.path), fileBytes(store.journalPath))
        let error = try #require(throws: StoreError.self) { try store.load() }
        #expect(error.path == store.journalPath)
        #expect(error.description.contains("line 3"))
        #expect(throws: StoreError.self) { try store.update { $0.insertOnTop(Fixtures.task("x", id: 9)) } }
        #expect(fileBytes(store.path) == before.0 && fileBytes(store.journalPath) == before.1)
    }

    @Test("a snapshot changed behind the journal's back is read and checked before an add")
    func snapshotReplaced() throws {
        try store.add([Fixtures.task("first", id: 1)])
        try store.add([Fixtures.task("second", id: 2)])
        folder.write("{ damaged", to: "tasks.json")
        #expect(throws: StoreError.self) { try store.add([Fixtures.task("third", id: 3)]) }
        #expect(fileText(store.path) == "{ damaged", "never overwritten")
    }

    @Test("after any full save the next add is an append again")
    func fastAfterFullSave() throws {
        try store.add([Fixtures.task("first", id: 1)])
        try store.update { $0.setCompleted(true, at: 0, now: Fixtures.date(hours: 1)) }
        let snapshot = fileBytes(store.path)
        try store.add([Fixtures.task("second", id: 2)])
        #expect(fileBytes(store.path) == snapshot, "only the journal was written")
        #expect(try store.load().all.map(\.caption) == ["second", "first"])
    }

    @Test("the journal is folded into the snapshot once it is long")
    func compaction() throws {
        try store.add([Fixtures.task("seed", id: 1)])
        for number in 2...(StoreJournal.compactionThreshold + 3) {
            try store.add([Fixtures.task("T\(number)", id: number)])
        }
        let list = try store.load()
        #expect(list.count == StoreJournal.compactionThreshold + 3)
        #expect(journalLines().count < StoreJournal.compactionThreshold / 2, "folded in, then started again")
        #expect(try StoreDocument.decode(try #require(fileBytes(store.path))).count > StoreJournal.compactionThreshold)
    }
}
