import Foundation
import HotTaskCore
import Testing
import TestSupport

/// The UI's view of the store while other processes write to it.
@Suite("Store session")
struct StoreSessionTests {
    let folder = TemporaryFolder()
    private var store: TaskStore { TaskStore(path: folder.storePath) }

    @Test("a save keeps a task another process added meanwhile")
    func saveMerges() throws {
        try store.save(Fixtures.sampleList())
        let session = StoreSession(store: store)
        var ours = try session.open()
        try store.update { $0.insertOnTop(Fixtures.task("from the shell", id: 20)) }
        ours.insertOnTop(Fixtures.task("from the UI", id: 21, hours: 1))
        let stored = try session.save(ours)
        #expect(stored.priority.map(\.caption).prefix(2) == ["from the UI", "from the shell"])
        #expect(try store.load() == stored)
    }

    @Test("refresh reports an outside change once, without writing")
    func refresh() throws {
        try store.save(Fixtures.sampleList())
        let session = StoreSession(store: store)
        let ours = try session.open()
        #expect(try session.refresh(ours) == nil)
        #expect(!session.fileChangedOutside)
        try store.update { $0.setCompleted(true, at: 0, now: Fixtures.date(hours: 1)) }
        let bytes = fileBytes(folder.storePath)
        #expect(session.fileChangedOutside)
        let changed = try #require(try session.refresh(ours))
        #expect(changed[0].completed)
        #expect(fileBytes(folder.storePath) == bytes, "refresh never writes")
        #expect(try session.refresh(changed) == nil)
    }

    @Test("a store damaged by another program is never overwritten by a save")
    func damagedOutside() throws {
        try store.save(Fixtures.sampleList())
        let session = StoreSession(store: store)
        var ours = try session.open()
        folder.write("{\"version\": 1, \"tasks\": [", to: "tasks.json")
        ours.insertOnTop(Fixtures.task("new", id: 30))
        #expect(throws: StoreError.self) { try session.save(ours) }
        #expect(fileText(folder.storePath) == "{\"version\": 1, \"tasks\": [")
        #expect(throws: StoreError.self) { try session.refresh(ours) }
        #expect(try session.refresh(ours) == nil, "an unreadable version is reported once")
    }

    @Test("a store whose folder was removed is written again from memory, whole")
    func folderRemoved() throws {
        let nested = TaskStore(path: folder.path("data/tasks.json"))
        try nested.save(Fixtures.sampleList())
        let session = StoreSession(store: nested)
        var ours = try session.open()
        try FileManager.default.removeItem(atPath: folder.path("data"))
        #expect(try session.refresh(ours) == nil, "a missing file is not an empty list")
        ours.insertOnTop(Fixtures.task("after the folder vanished", id: 40))
        let stored = try session.save(ours)
        #expect(stored == ours)
        #expect(try nested.load() == ours)
    }

    @Test("a task added in the UI is appended to the journal, not a rewrite of the store")
    func addIsAnAppend() throws {
        try store.add([Fixtures.task("first", id: 1)])
        let session = StoreSession(store: store)
        var ours = try session.open()
        let snapshot = fileBytes(folder.storePath)
        ours.insertOnTop(Fixtures.task("typed in the UI", id: 2))
        #expect(try session.save(ours) == ours)
        #expect(fileBytes(folder.storePath) == snapshot)
        #expect(try store.load() == ours)
        ours.setCompleted(true, at: 1, now: Fixtures.date(hours: 1))  // not an add: a full save
        #expect(try session.save(ours) == ours)
        #expect(fileBytes(folder.storePath) != snapshot)
        #expect(try store.load() == ours)
    }
}
