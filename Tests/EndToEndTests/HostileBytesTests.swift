import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Bytes no key makes, sent to the real binary in tmux: terminal replies, 8-bit controls and
/// broken UTF-8 type nothing of themselves, and never swallow the key after them.
@Suite("Hostile bytes, in tmux", .serialized)
struct HostileBytesTests {
    @Test func repliesAndC1FormsTypeNothingAndABrokenByteIsAReplacement() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk"])
        session.waitForText("Buy milk")
        session.type("one two")
        session.waitForText("one two")
        session.send(bytes: Array("\u{1B}]11;rgb:0000/0000/0000\u{1B}\\".utf8))  // a colour reply
        session.send(bytes: Array("\u{1B}P1$r0m\u{1B}\\".utf8))  // a DCS reply
        session.send(bytes: Array("\u{9D}0;title\u{9C}".utf8))  // 8-bit OSC (UTF-8 encoded C1)
        session.send(bytes: Array("\u{9B}1;5D".utf8))  // 8-bit CSI: Ctrl-←, to the start of "two"
        session.type("X")
        session.waitForText("one Xtwo")
        // An invalid byte, then a key at once: the byte is U+FFFD, the key is typed.
        session.send(bytes: [0xFF, 0x5A])
        session.waitForText("one X\u{FFFD}Ztwo")
        // Half a character, then Enter: the half is U+FFFD and Enter adds the task.
        session.send(bytes: [0xC3, 0x0D])
        session.waitForStore("hold the typed task") { $0.contains("one X\u{FFFD}Z\u{FFFD}two") || $0.contains("one X\u{FFFD}\u{FFFD}Ztwo") }
        let screen = session.screen
        for debris in ["rgb:", "11;", "1$r0m", "0;title", "1;5D"] { #expect(!screen.contains(debris), "\(debris) typed") }
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
