import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Word kills, Ctrl-Y and Ctrl-_ with the real binary in tmux, as the terminal sends them.
@Suite("Line editing in tmux", .serialized)
struct LineEditingTests {
    @Test func wordKillsYankAndUndoTakeBackACtrlU() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk"])
        session.waitForText("Buy milk")
        session.type("call the bank today")
        session.waitForText("+ call the bank today")
        session.press("M-BSpace")  // ESC DEL: a word, not a character
        session.waitForScreen("Alt-Backspace to delete a word") { $0.contains("+ call the bank") && !$0.contains("today") }
        session.press("C-w")
        session.waitForScreen("Ctrl-W to delete a word") { !$0.contains("bank") }
        session.press("C-y")
        session.waitForText("+ call the bank today")
        session.press("Home", "M-d")
        session.waitForScreen("Alt-d to delete the word after") { !$0.contains("call") }
        session.press("End", "C-u")
        session.waitForScreen("Ctrl-U to empty the input") { !$0.contains("bank") }
        session.send(bytes: [0x1F])  // Ctrl-_
        session.waitForText("the bank today")
        session.send(bytes: [0x1F])
        session.waitForText("+ call the bank today")
        session.press("Enter")
        session.waitForStore("hold the task") { $0.contains("call the bank today") }
        #expect(try TaskStore(path: session.storePath).load().all.map(\.caption) == ["call the bank today", "Buy milk"])
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
