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
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
