import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The help overlay with the real binary in tmux: wrapped at 80×24, scrolled at 80×12 and
/// 40×10, closed by any other key.
@Suite("Help overlay in tmux", .serialized)
struct HelpOverlayTmuxTests {
    @Test func theHelpWrapsScrollsAndFollowsAResize() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk"])
        session.waitForText("Buy milk")
        session.press("F1")
        // At 80×24 the input's help used to be cut: "line breaks become spa…".
        // Polled until the box is drawn whole (a capture can land mid-draw); a line cut
        // instead of wrapped never shows "spaces)", and the wait fails.
        let full = session.waitForScreen("the input's help, its long line wrapped whole") {
            $0.contains("Keys: new task input") && $0.contains("spaces)")
        }
        #expect(!full.contains("spa…"))
        session.press("Escape")
        session.waitForScreen("the help to close") { !$0.contains("Keys:") }

        session.resize(width: 80, height: 12)
        session.press("Tab", "?")
        session.waitForText("1–8 of 20 · ↑↓ PgUp PgDn scroll")
        session.press("End")
        let end = session.waitForText("13–20 of 20")
        #expect(end.contains("quit") && end.contains("suspend, redraw"), "the last keys can be reached")
        session.press("Up")
        session.waitForText("12–19 of 20")

        session.resize(width: 40, height: 10)
        let narrow = session.waitForScreen("the help wrapped at 40 columns") { $0.contains("of 42 · ↑↓ scroll") }
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 40 })
        session.press("Home")
        session.waitForText("1–6 of 42")
        session.press("d")  // closes the help, deletes nothing
        session.waitForScreen("the help to close") { !$0.contains("Keys:") }
        #expect(try TaskStore(path: session.storePath).load().all.map(\.caption) == ["Buy milk"])
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
