import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Task store")
struct TaskStoreTests {
    let folder = TemporaryFolder()

    private var store: TaskStore { TaskStore(path: folder.storePath) }

    /// Files in the folder whose name says they are leftovers of a save.
    private func leftovers() -> [String] {
        folder.contents().filter { $0.contains("tmp") }
    }

    @Test("save then load gives the same list")
    func saveLoad() throws {
        let list = Fixtures.sampleList()
        try store.save(list)
        #expect(try store.load().shown == list.shown)
        #expect(try StoreDocument.decode(fileBytes(folder.storePath) ?? []).list == store.load())
    }

    @Test("a missing file loads as an empty list and is not created by loading")
    func missingFile() throws {
        #expect(try store.load() == TaskList())
        #expect(!FileManager.default.fileExists(atPath: folder.storePath))
    }

    @Test("with no snapshot, a backup that cannot be looked at is not read as 'no tasks', and a commit leaves it alone")
    func unreadableBackupIsNotAnEmptyStore() throws {
        try store.save(TaskList([Fixtures.task("kept", id: 1)]))
        try FileManager.default.removeItem(atPath: folder.storePath)
        try? FileManager.default.removeItem(atPath: folder.storePath + ".journal")
        // stat fails (ELOOP) where the backup is: it may still hold the tasks.
        let backup = folder.storePath + ".bak"
        try? FileManager.default.removeItem(atPath: backup)
        try FileManager.default.createSymbolicLink(atPath: backup, withDestinationPath: backup)
        let error = #expect(throws: StoreError.self) { try store.read() }
        #expect(error?.description.contains(backup) == true, "\(error.map { "\($0)" } ?? "")")
        #expect(throws: StoreError.self) { try store.change { _ in [.add(Fixtures.task("new", id: 2))] } }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: backup) == backup)
        #expect(!FileManager.default.fileExists(atPath: folder.storePath))
    }

    @Test("the store file is readable by its owner only")
    func fileMode() throws {
        try store.save(Fixtures.sampleList())
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.storePath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("saving creates missing folders")
    func createsFolders() throws {
        let nested = TaskStore(path: folder.path("a/b/c/tasks.json"))
        try nested.save(Fixtures.sampleList())
        #expect(try nested.load().shown == Fixtures.sampleList().shown)
    }

    @Test("saves leave no temp files behind")
    func noTempFiles() throws {
        for count in 0..<3 {
            try store.save(TaskList(Fixtures.sampleList().all.prefix(count)))
        }
        try store.addOnTop([Fixtures.task("New", id: 9)], what: "test")
        #expect(leftovers() == [])
        #expect(folder.contents().allSatisfy { $0.hasPrefix("tasks.json") })
    }

    @Test("update reads, changes and saves")
    func update() throws {
        try store.save(Fixtures.sampleList())
        let count = try store.update { state in
            ([state.list.adding(onTop: Fixtures.task("New", id: 9))], "test", nil, state.list.count + 1)
        }
        #expect(count == 4)
        #expect(try store.load().all.map(\.caption) == ["New", "Buy milk", "Call mum", "Read a book"])
    }

    @Test("update on a missing file creates it")
    func updateCreates() throws {
        try store.change { _ in [.add(Fixtures.task("First", id: 1))] }
        #expect(try store.load().all.map(\.caption) == ["First"])
    }

    @Test("an error thrown by the change leaves the file untouched")
    func updateThrowing() throws {
        struct Refused: Error {}
        try store.save(Fixtures.sampleList())
        let before = fileBytes(folder.storePath)
        #expect(throws: Refused.self) {
            try store.change { list in
                _ = list.deleting(at: 0)
                throw Refused()
            }
        }
        #expect(fileBytes(folder.storePath) == before)
    }

    // MARK: Damaged stores

    static let damaged: [(name: String, bytes: [UInt8])] = [
        ("truncated", Array(StoreDocument.encode(Fixtures.sampleList()).dropLast(40))),
        ("empty", []),
        ("NUL bytes", [UInt8](repeating: 0, count: 64)),
        ("NUL inside", Array("{\"version\": 1,\u{0} \"tasks\": []}".utf8)),
        ("wrong types", StoreDocumentTests.document([StoreDocumentTests.taskJSON(1, ["completed": "\"no\""])])),
        ("version 3", StoreDocumentTests.document([], version: "3")),
        ("not JSON", Array("tasks:\n - milk\n".utf8)),
        ("invalid UTF-8", Array("{\"version\": 1, \"tasks\": [\"".utf8) + [0xC3, 0x28] + Array("\"]}".utf8)),
    ]

    @Test("a damaged store makes load and update throw and stays byte-identical", arguments: damaged)
    func damagedStore(name: String, bytes: [UInt8]) throws {
        folder.write(bytes, to: "tasks.json")
        #expect(throws: StoreError.self) { try store.load() }
        var changed = false
        #expect(throws: StoreError.self) {
            try store.change { list in
                changed = true
                return [list.adding(onTop: Fixtures.task("Should not be saved", id: 9))]
            }
        }
        #expect(!changed, "update must not call the change on a damaged store")
        #expect(fileBytes(folder.storePath) == bytes)
        #expect(leftovers() == [])
    }

    @Test("the error of a damaged store names the path and the problem")
    func damagedMessage() throws {
        folder.write(Array(StoreDocument.encode(Fixtures.sampleList()).dropLast(40)), to: "tasks.json")
        do {
            _ = try store.load()
            Issue.record("expected an error")
        } catch {
            #expect(error.path == folder.storePath)
            #expect(error.description.contains(folder.storePath))
            #expect(error.description.contains("line"))
            guard case .invalid(.syntax) = error.problem else {
                Issue.record("expected a syntax problem, got \(error.problem)")
                return
            }
        }
    }

    @Test("an empty file is reported as empty")
    func emptyFileMessage() throws {
        folder.write([], to: "tasks.json")
        #expect(throws: StoreError.self) { try store.load() }
        do {
            _ = try store.load()
        } catch {
            #expect(error.description.contains("empty"))
        }
    }

    @Test("a folder in place of the store is unreadable, for load and update")
    func folderAtPath() throws {
        try FileManager.default.createDirectory(atPath: folder.storePath, withIntermediateDirectories: false)
        do {
            _ = try store.load()
            Issue.record("expected an error")
        } catch {
            guard case .unreadable = error.problem else {
                Issue.record("expected .unreadable, got \(error.problem)")
                return
            }
            #expect(error.description.contains(folder.storePath))
        }
        #expect(throws: StoreError.self) { try store.change { _ in [.add(Fixtures.task("x", id: 1))] } }
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.storePath, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.storePath) == [])
    }

    // MARK: Reliability

    @Test("the backup is the snapshot as of its last compaction; restoring it loses no change since, and damage messages point to it")
    func backup() throws {
        try store.save(Fixtures.sampleList())
        #expect(fileBytes(store.backupPath) == fileBytes(folder.storePath))
        try store.addOnTop([Fixtures.task("second", id: 9)], what: "test")
        let whole = try store.load()
        try FileManager.default.removeItem(atPath: store.path)
        try FileManager.default.copyItem(atPath: store.backupPath, toPath: store.path)
        #expect(try store.load() == whole, "the backup with the log is the whole store")
        folder.write("{ truncated", to: "tasks.json")
        let error = try #require(throws: StoreError.self) { try store.load() }
        #expect(error.backupPath == store.backupPath)
        #expect(error.description.contains("cp '\(store.backupPath)' '\(store.path)'"))
    }

    @Test("temp files an interrupted save left are removed by the next save")
    func staleTempFiles() throws {
        try store.save(Fixtures.sampleList())
        folder.write("half a save", to: ".tasks.json.tmp-99999-1234")
        try FileManager.default.createSymbolicLink(atPath: folder.path(".tasks.json.tmp-1-2"), withDestinationPath: folder.path("victim"))
        folder.write("keep me", to: "victim")
        try store.addOnTop([Fixtures.task("x", id: 9)], what: "test")
        #expect(leftovers().isEmpty)
        #expect(fileText(folder.path("victim")) == "keep me", "a link at a temp name is removed, never followed")
    }

    @Test("a store reached through a symbolic link is saved at the link's target")
    func symlinkedStore() throws {
        let real = TaskStore(path: folder.path("real/tasks.json"))
        try real.save(Fixtures.sampleList())
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.json"), withDestinationPath: folder.path("real/tasks.json"))
        let linked = TaskStore(path: folder.path("link.json"))
        try linked.addOnTop([Fixtures.task("through the link", id: 9)], what: "test")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.json")) == folder.path("real/tasks.json"))
        #expect(try real.load()[0].caption == "through the link")
    }

    @Test("a file of NUL bytes is named as such")
    func nulFile() throws {
        folder.write([UInt8](repeating: 0, count: 4096), to: "tasks.json")
        let error = try #require(throws: StoreError.self) { try store.load() }
        #expect(error.description.contains("only NUL bytes"))
    }

    @Test("a store larger than the limit is refused before it is read")
    func tooLarge() throws {
        let handle = try #require(FileHandle(forWritingAtPath: folder.write("", to: "tasks.json")))
        try handle.truncate(atOffset: UInt64(StoreLimits.readBytes + 1))
        try handle.close()
        let error = try #require(throws: StoreError.self) { try store.load() }
        #expect(error.description.contains("at most 576.0 MB"))
    }
}
