import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// A terminal without an alternate screen keeps whatever was last drawn: HotTask clears it on
/// the way out and leaves the cursor on the bottom line, so the shell's next output is not
/// mixed into the last frame.
@Suite("The screen after exit", .serialized)
struct ExitScreenTests {
    @Test(arguments: ["linux", "vt100"])
    func withoutAnAlternateScreenTheLastFrameIsClearedAndTheCursorIsAtTheBottom(term: String) throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk"], term: term)
        session.waitForText("Buy milk")
        #expect(session.pane("#{alternate_on}") == "0", "\(term) has no alternate screen")
        session.press("C-c")
        let screen = session.waitForExit()
        #expect(!screen.contains("Buy milk") && !screen.contains("HotTask") && !screen.contains("^C quit"), "the last frame was left:\n\(screen)")
        let lines = screen.components(separatedBy: "\n")
        let exitLine = try #require(lines.firstIndex { $0.contains("exited with 0") })
        // The shell wrote "exited with 0" and stty's two lines from the bottom row up.
        #expect(exitLine >= 24 - 4, "the shell's output started at row \(exitLine), not at the bottom:\n\(screen)")
        session.expectScreenSnapshot()  // the same screen under either TERM
    }
}
