import Foundation
import HotTaskCore
import TestSupport
import Testing

/// The UI's largest saves: clearing thousands of completed tasks and bringing them back. Their
/// records (over a command's 1 MB) go to the log and the background compaction folds them; the
/// screen follows at once and the store ends up holding exactly what the keys made.
@Suite("A clear of thousands of tasks and its undo, through the real binary")
struct LargeClearTests {
    @Test func aClearOfThousandsAndItsUndoAreSavedWholeWhileTheScreenFollows() throws {
        let folder = TemporaryFolder()
        let caption = String(repeating: "a caption long enough to make the record of the clear large ", count: 2)
        let now = Timestamp.now()
        let tasks = (1...4000).map { TaskItem(caption: "\(caption)\($0)", completed: $0 > 1000, createdAt: now) }
        try TaskStore(path: folder.storePath).save(TaskList(tasks))
        let session = try TmuxSession(storePath: folder.storePath)
        session.waitForText("3000 down 1000 to go!")
        session.press("Tab", "C")
        session.waitForText("Clear 3000 completed tasks?")
        session.press("y")
        session.waitForText("Get started - 1000 to go!")
        session.waitForStore("hold the open tasks alone") { _ in
            let list = try? TaskStore(path: folder.storePath).load()
            return list?.count == 1000 && list?.completedCount == 0
        }
        session.press("u")
        session.waitForText("3000 down 1000 to go!")
        session.waitForStore("hold every task again") { _ in
            let list = try? TaskStore(path: folder.storePath).load()
            return list?.count == 4000 && list?.completedCount == 3000
        }
        session.expectScreenSnapshot()
        session.press("q")
        let exit = session.waitForExit()
        #expect(exit.contains("exited with 0"), "\(exit)")
        // Once the background compaction has folded both records, the store still holds them.
        let compacted = runHotTask(["--file", folder.storePath, "--list", "--json"])
        #expect(compacted.status == 0, "\(compacted.stderr)")
        let restored = try TaskStore(path: folder.storePath).load()
        #expect(Set(restored.all.map(\.caption)) == Set(tasks.map(\.caption)))
        #expect(restored.completedCount == 3000)
    }
}
