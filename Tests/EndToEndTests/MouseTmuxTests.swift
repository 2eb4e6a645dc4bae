import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Clicks and the wheel with the real binary in tmux (the reports a terminal sends, as
/// bytes), and `mouse = false` leaving the mouse to the terminal.
@Suite("Mouse in tmux", .serialized)
struct MouseTmuxTests {
    /// An SGR mouse report of the left button pressed and released at a 0-based cell.
    private func click(_ session: TmuxSession, column: Int, row: Int) {
        session.send(bytes: Array("\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m".utf8))
    }

    @Test func aClickSelectsARowAClickOnTheInputFocusesItAndTheWheelScrolls() throws {
        let session = try TmuxSession(seededTasks: 60)
        session.waitForText("Task 1")
        #expect(session.pane("#{mouse_standard_flag}#{mouse_sgr_flag}") == "11", "clicks are reported")
        click(session, column: 10, row: 6)  // rows: 3 header, 4 Task 1, 5 Task 2, 6 Task 3
        session.waitForText("› [ ] Task 3")
        session.press("Space")
        session.waitForStore("have Task 3 done") { _ in (try? TaskStore(path: session.storePath).load().all.contains(where: \.completed)) == true }
        let done = try TaskStore(path: session.storePath).load().all.filter(\.completed).map(\.caption)
        #expect(done == ["Task 3"])
        click(session, column: 20, row: 1)
        session.type("typed after a click")
        session.waitForText("+ typed after a click")
        // The wheel still scrolls the list (three rows a notch).
        for _ in 0..<5 { session.send(bytes: Array("\u{1B}[<65;10;10M".utf8)) }
        session.waitForScreen("the list scrolled by the wheel") { !$0.contains("Task 10\n") && $0.contains("Task 30") }
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    @Test func mouseFalseInTheConfigLeavesTheMouseToTheTerminal() throws {
        let folder = TemporaryFolder()
        let config = folder.write("mouse = false\n", to: "config.toml")
        let session = try TmuxSession(seededCaptions: ["Buy milk"], arguments: ["--config", config])
        session.waitForText("Buy milk")
        #expect(session.pane("#{mouse_any_flag}#{mouse_standard_flag}#{mouse_button_flag}#{mouse_sgr_flag}") == "0000", "no mouse mode is on")
        session.paste("pasted")
        session.waitForText("+ pasted")  // bracketed paste is still on: the text was not typed as keys
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
