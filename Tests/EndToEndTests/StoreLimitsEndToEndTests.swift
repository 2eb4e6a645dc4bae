import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The store's limits agree (`StoreLimits`): a store at every limit still reads and writes, a
/// change past one is refused before it is acknowledged and leaves every file as it was, and
/// the files beside the store are trusted only when they are the user's own.
@Suite("Store limits and side files", .serialized)
struct StoreLimitsEndToEndTests {
    let folder = TemporaryFolder()

    /// The store's files as `stat` sees them (the full store is hundreds of MB: not read again).
    func stamps() -> [String] {
        ["", ".journal", ".bak", ".index"].map { suffix in
            var info = stat()
            guard stat(folder.storePath + suffix, &info) == 0 else { return "\(suffix): missing" }
            return "\(suffix): \(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
    }

    func run(_ arguments: String...) -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(["--file", folder.storePath] + arguments, timeout: 300)
    }

    @Test("an export over the limit is refused from its count: a 200 MB one with annotations, then bytes that are not JSON")
    func anOverLimitImportIsRefusedBeforeItIsParsed() throws {
        #expect(run("--add", "mine").status == 0)
        let before = stamps()
        let path = folder.write("[", to: "huge.json")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        let note = String(repeating: "n", count: 300)
        var chunk = ""
        // 250,001 tasks, then what a parser would stop at: the count has to refuse it first.
        for number in 0...StoreLimits.tasks {
            chunk +=
                #"{"uuid":"\#(UUID().uuidString.lowercased())","description":"Task \#(number)","status":"pending","entry":"20261121T100000Z","annotations":[{"entry":"20261121T100000Z","description":"\#(note)"}]},"#
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data((chunk + String(repeating: "\u{1}not json ", count: 1 << 20)).utf8))
        try handle.close()
        let refused = run("--import", path)
        #expect(
            refused.stderr
                == "hottask: cannot import \(path): it holds more than 250000 tasks, and HotTask keeps at most 250000; split it into smaller files, or leave out the completed tasks, and import each. Nothing was changed\n"
        )
        #expect(refused.status == 1)
        #expect(stamps() == before)
    }

    @Test("250,000 tasks with the longest captions allowed read and write; one more task is refused, changing nothing")
    func aFullStoreReadsAndWrites() throws {
        let caption = String(repeating: "x", count: CaptionRule.maximumLength)
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        let tasks = (0..<StoreLimits.tasks).lazy.map { _ in TaskItem(caption: caption, createdAt: created) }
        try TaskStore(path: folder.storePath).save(TaskList(tasks))
        let size = try #require(FileManager.default.attributesOfItem(atPath: folder.storePath)[.size] as? Int)
        #expect(size > 300 << 20 && size <= StoreLimits.fullStoreBytes && StoreLimits.fullStoreBytes <= StoreLimits.snapshotBytes)

        let listed = run("--list", "--filter", "no such task")
        #expect(listed.status == 0, "\(listed.stderr)")
        let before = stamps()
        let refused = run("--add", "One more")
        #expect(
            refused.stderr
                == "hottask: could not save the task store \(folder.storePath): the list would hold 250001 tasks; HotTask keeps at most 250000 (delete or clear tasks to make room). The previous file is unchanged\n"
        )
        #expect(refused.status == 3)
        #expect(stamps() == before)

        // Changes that do not grow the store are taken; then there is room again.
        let first = try #require(try TaskStore(path: folder.storePath).load().all.first?.id.uuidString)
        #expect(run("--done", first).status == 0)
        #expect(run("--delete", first).status == 0)
        let added = run("--add", "One more")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try TaskStore(path: folder.storePath).load().count == StoreLimits.tasks)
    }

    @Test("two imports of 30,000 long captions leave a store every command reads")
    func twoLargeImportsStayReadable() throws {
        let long = String(repeating: "word ", count: 195) + "end"
        for batch in 0..<2 {
            var lines = ""
            for index in 0..<30_000 { lines += "(A) \(batch)-\(index) \(long)\n" }
            let file = folder.write(lines, to: "batch\(batch).txt")
            let imported = run("--import", file)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let size = try #require(FileManager.default.attributesOfItem(atPath: folder.storePath)[.size] as? Int)
        #expect(size > 64 << 20, "the store is past the old read limit")
        #expect(run("--list", "--filter", "no such task").status == 0)
        #expect(run("--add", "After the imports").status == 0)
        #expect(try TaskStore(path: folder.storePath).load().count == 60_001)
    }

    @Test("a store or a folder another user owns, or others may write, is refused naming the file, its owner or mode, and the fix")
    func untrustedStoreAndFolder() throws {
        #expect(geteuid() == 0, "this test changes owners: run it as root (CI does)")
        #expect(run("--add", "Mine").status == 0)
        let store = folder.storePath
        let files = { [store, store + ".journal", store + ".bak"].map(FileSnapshot.init) }
        let before = files()

        chown(store, 65534, 65534)
        var listed = run("--list")
        #expect(
            listed.stderr
                == "hottask: cannot read the task store \(store): not safe to use: it belongs to another user (uid 65534, nobody); HotTask only uses files of its own user: chown root '\(store)', or move it away\n"
        )
        #expect(listed.status == 2)
        #expect(run("--add", "More").status == 3)
        chown(store, 0, 0)

        chmod(store, 0o664)
        listed = run("--list")
        #expect(
            listed.stderr
                == "hottask: cannot read the task store \(store): not safe to use: others may write it (mode 664); chmod go-w '\(store)' and try again\n"
        )
        chmod(store, 0o600)

        chmod(folder.path, 0o777)
        let added = run("--add", "More")
        #expect(
            added.stderr
                == "hottask: could not save the task store \(store): not safe to use: others may write in its folder \(folder.path) (mode 777); chmod go-w '\(folder.path)' and try again. The previous file is unchanged\n"
        )
        #expect(added.status == 3)
        #expect(files() == before, "nothing was written")
        // A sticky folder (as /tmp) keeps others from removing or renaming one's files: it is used.
        chmod(folder.path, 0o1777)
        #expect(run("--list").status == 0)
        chmod(folder.path, 0o700)
    }

    @Test("temp files a killed import left beside the store go at the next write; a live writer's stay")
    func tempFilesOfKilledImportsAreRemoved() throws {
        #expect(run("--add", "First").status == 0)
        // A pid that is surely gone: a child that has exited and been reaped.
        let dead = runProcess(["sh", "-c", "echo $$"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let killed = folder.write("half", to: ".tasks.json.imported.tmp-\(dead)-1a2b")
        let carried = folder.write("half", to: ".tasks.json.carried.tmp-\(dead)-3c4d")
        let live = folder.write("in progress", to: ".tasks.json.imported.tmp-\(getpid())-5e6f")
        #expect(run("--add", "Second").status == 0)
        #expect(!FileManager.default.fileExists(atPath: killed) && !FileManager.default.fileExists(atPath: carried))
        #expect(FileManager.default.fileExists(atPath: live))
    }
}
