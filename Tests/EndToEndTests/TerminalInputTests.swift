import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Paste, modified keys and terminals that cannot run the UI, with the real binary in tmux.
@Suite("Terminal input in tmux", .serialized)
struct TerminalInputTests {
    private func storedCaptions(_ session: TmuxSession) throws -> [String] {
        try TaskStore(path: session.storePath).load().all.map(\.caption)
    }

    /// The issue's case: pasted with the list focused, the Tab used to reach the list and `d`
    /// deleted a task. Now the paste is text in the input, and only Enter adds it.
    @Test func aBracketedPasteWithTabsAndANewlineAddsExactlyOneTaskOnlyAfterEnter() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk", "Call mom"])
        session.waitForText("Call mom")
        let before = try Data(contentsOf: URL(fileURLWithPath: session.storePath))
        session.press("Tab")
        session.waitForText("› [ ] Buy milk")
        session.paste("Renew passport\tdeadline March\tadmin\nand \u{1B}[31mdone")
        session.waitForText("+ Renew passport deadline March admin and done")
        let screen = session.waitForScreen("both tasks still listed") { $0.contains("Buy milk") && $0.contains("Call mom") }
        #expect(!screen.contains("[31m"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: session.storePath)) == before, "nothing is saved before Enter")
        #expect(try storedCaptions(session) == ["Buy milk", "Call mom"])
        session.press("Enter")
        session.waitForStore("hold the pasted task") { $0.contains("Renew passport deadline March admin and done") }
        #expect(try storedCaptions(session) == ["Renew passport deadline March admin and done", "Buy milk", "Call mom"])
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    /// Ctrl-←, Alt-b, Shift-↑, Home and Ctrl-→ as tmux sends them, under the TERM values
    /// whose terminfo lacks some of them: keys, never text.
    @Test(arguments: ["screen", "xterm-256color", "tmux-256color"])
    func modifiedKeysLeaveNoDebris(term: String) throws {
        let session = try TmuxSession(seededCaptions: ["First", "Second"], term: term)
        session.waitForText("Second")
        session.type("one two three")
        session.press("C-Left")
        session.type("X")
        session.press("M-b")
        session.type("Y")
        session.press("S-Up", "Home")
        session.type("H")
        session.press("C-Right")
        session.type("R")
        session.press("End", "F1")
        session.waitForText("Keys: new task input")
        session.press("Escape")
        let input = session.waitForScreen("the edits at the right places") { $0.contains("+ HoneR two YXthree") }
        for debris in ["[1;", ";5D", ";2A", "[1~", "~"] { #expect(!input.contains(debris), "\(debris) was typed") }
        // In the list: Shift-↑ reorders and keeps the focus there (it used to send Esc).
        session.press("Tab", "Down", "S-Up")
        session.waitForStore("put Second first") {
            $0.range(of: "Second")?.lowerBound ?? $0.endIndex < $0.range(of: "First")?.lowerBound ?? $0.startIndex
        }
        let list = session.waitForText("› [ ] Second")
        #expect(list.contains("+ HoneR two YXthree"), "the input kept its text")
        #expect(try storedCaptions(session) == ["Second", "First"])
        session.expectScreenSnapshot()  // the same screen under every TERM
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    @Test(arguments: ["dumb", "nosuchterm"])
    func terminalsThatCannotMoveTheCursorExit4WritingNothing(term: String) throws {
        let session = try TmuxSession(seededTasks: 1, term: term)
        let screen = session.waitForExit()
        #expect(screen.contains("exited with 4"))
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(lines.first == "hottask: HotTask needs a terminal that can move the cursor (TERM=\(term))")
        #expect(lines.count == 2 + 2, "the message, the exit line and stty's two lines: nothing else was drawn (\(lines))")
        session.expectScreenSnapshot(named: "terminalsThatCannotMoveTheCursorExit4WritingNothing-\(term)")
    }

    /// `input = []` took Tab, i, Enter and Esc away from the way back; Tab is fixed now. A
    /// config leaving another action without any key is refused, naming it.
    @Test func aConfigCannotTrapTheUserInTheList() throws {
        let folder = TemporaryFolder()
        let config = folder.write("[keys]\ninput = []\n", to: "config.toml")
        let session = try TmuxSession(seededCaptions: ["Buy milk"], arguments: ["--config", config])
        session.waitForText("Buy milk")
        session.press("Tab")
        session.waitForText("› [ ] Buy milk")
        session.type("i")
        session.waitForText("Press Tab to type a new task")
        session.press("Enter", "Escape")
        session.press("Tab")
        session.type("free again")
        session.waitForText("+ free again")
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))

        let unbound = folder.write("[keys]\nundo = []\n", to: "unbound.toml")
        let refused = try TmuxSession(seededCaptions: ["Buy milk"], arguments: ["--config", unbound])
        refused.waitForText("unbound.toml line 2: undo would have no key at all")
        refused.expectScreenSnapshot()
        refused.press("C-c")
        refused.waitForExit()
    }
}
