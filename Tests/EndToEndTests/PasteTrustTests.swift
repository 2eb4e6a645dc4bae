import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// A paste is text, always: the real binary in tmux, pasted into as a terminal pastes.
@Suite("Paste is text, in tmux", .serialized)
struct PasteTrustTests {
    private func storedCaptions(_ session: TmuxSession) throws -> [String] {
        try TaskStore(path: session.storePath).load().all.map(\.caption)
    }

    /// The attack: a fake end marker inside the paste, then Tab and `dd` (delete
    /// twice). tmux passes the marker through; nothing after it may become a key.
    @Test func aFakeEndMarkerInsideAPasteRunsNoCommand() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk", "Call mom", "Pay rent"])
        session.waitForText("Pay rent")
        session.press("Tab")
        session.waitForText("› [ ] Buy milk")
        session.paste("harmless text\u{1B}[201~\tdd\u{1B}[200~ more")
        let screen = session.waitForText("harmless text dd more")
        #expect(screen.contains("Buy milk") && screen.contains("Call mom") && screen.contains("Pay rent"))
        #expect(try storedCaptions(session) == ["Buy milk", "Call mom", "Pay rent"], "nothing deleted")
        // Keys typed afterwards are keys again.
        session.press("BSpace")
        session.waitForScreen("Backspace to take the last letter") { $0.contains("harmless text dd mor") && !$0.contains("dd more") }
        session.expectScreenSnapshot()
        session.press("C-u", "C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    @Test func lineBreaksOfEveryKindAreOneSpaceEach() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk"])
        session.waitForText("Buy milk")
        session.paste("one\r\ntwo\rthree\nfour")
        session.waitForText("+ one two three four")
        session.press("Enter")
        session.waitForStore("hold the pasted line") { $0.contains("one two three four") }
        #expect(try storedCaptions(session) == ["one two three four", "Buy milk"])
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    /// A megabyte paste is taken without freezing the screen, cut to what a task holds, and
    /// the footer says so in a line that fits a narrow screen.
    @Test func aMegabytePasteIsCutWithANoticeAndTheScreenStaysLive() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk"], width: 60)
        session.waitForText("Buy milk")
        let file = session.folder.path("megabyte.txt")
        try Data(String(repeating: "lorem ipsum ", count: 1_048_576 / 12).utf8).write(to: URL(fileURLWithPath: file))
        let started = Date()
        session.paste(contentsOf: file)
        let screen = session.waitForText("Paste cut")
        let elapsed = Date().timeIntervalSince(started)
        // tmux's own copying through the pty is part of this; the app's share is measured in
        // the unit test (≤ 0.5 s). Generous for a loaded 2-core machine.
        #expect(elapsed < 3, "the paste took \(elapsed) s to show")
        let footer = screen.components(separatedBy: "\n").filter { $0.contains("Paste cut") }.first ?? ""
        #expect(!footer.contains("…"), "a whole sentence: \(footer)")
        #expect(screen.contains("lorem ipsum"))
        // The screen answers keys at once.
        session.type("Z")
        session.waitForScreen("the key typed after the paste") { $0.contains("Z") && !$0.contains("Paste cut") }
        session.expectScreenSnapshot()
        session.press("C-u", "C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
