import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 42's mode trap, in the real binary: F2 in the input row, then Esc, left the keys in
/// the list, and the next letter typed reopened a completed task.
@Suite("No mode traps, in tmux", .serialized)
struct ModeTrapTmuxTests {
    @Test func f2AndF3FromTheInputRowGiveTheKeysBackToItOnEscAndEnter() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk", "Call mum"])
        session.waitForText("Call mum")
        session.press("Tab", "Space", "Tab")  // Buy milk completed; back in the input row
        session.waitForText("› [x] Buy milk")
        session.press("F2")
        session.waitForText("Enter save")
        session.press("Escape")
        session.waitForText("Edit cancelled — keys go to the new-task input")
        session.type("x")
        session.waitForText("+ x ")
        session.press("F3")
        session.waitForText("› [x] Buy milk  Due: ")
        session.type("tomorrow")
        session.press("Enter")
        session.waitForText("Keys go to the new-task input")
        session.type("y")
        session.waitForText("+ xy ")
        session.waitForStore("hold the due date") { $0.contains(#""due": "#) }
        let buyMilk = try #require(try TaskStore(path: session.storePath).load().all.first { $0.caption == "Buy milk" })
        #expect(buyMilk.completed, "the typed x reopened nothing")
        #expect(buyMilk.due != nil)
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    /// Issue 48: Tab, Tab (a shell habit), then ` xd` completed the selected task and deleted
    /// it. The second Tab completes again; the typing stays text.
    @Test func tabTabThenSpaceXDStaysInTheInputRow() throws {
        let folder = TemporaryFolder()
        for caption in ["Plan party +garden", "Call mum"] {
            #expect(runHotTask(["--file", folder.storePath, "--add", caption, "-q"]).status == 0)
        }
        let session = try TmuxSession(height: 12, storePath: folder.storePath)
        session.waitForText("Call mum")
        session.type("Buy seeds +gar")
        session.press("Tab", "Tab")
        session.type(" xd")
        session.expectScreenSnapshot()
        let tasks = try TaskStore(path: session.storePath).load().all
        #expect(tasks.map(\.caption) == ["Call mum", "Plan party"])
        #expect(tasks.map(\.tags) == [[], ["garden"]])
        #expect(tasks.allSatisfy { !$0.completed })
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
