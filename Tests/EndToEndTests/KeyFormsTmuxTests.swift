import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Other terminals' key forms and the Esc window, as bytes into the real binary in tmux.
@Suite("Key forms and ESCDELAY in tmux", .serialized)
struct KeyFormsTmuxTests {
    private func send(_ session: TmuxSession, _ text: String) {
        session.send(bytes: Array(text.utf8))
    }

    /// urxvt's Ctrl-← and Shift-↑, kitty's CSI u and xterm's modifyOtherKeys: keys, never text.
    @Test func rxvtKittyAndModifyOtherKeysFormsAreKeys() throws {
        let session = try TmuxSession(seededCaptions: ["First", "Second"])
        session.waitForText("Second")
        session.type("one two three")
        send(session, "\u{1B}Od")  // urxvt Ctrl-←
        session.type("X")
        send(session, "\u{1B}[98;3u")  // kitty Alt-b
        session.type("Y")
        session.waitForText("+ one two YXthree")
        send(session, "\u{1B}[27;3;127~")  // modifyOtherKeys Alt-Backspace: the word before, "Y"
        session.waitForText("+ one two Xthree")
        send(session, "\u{1B}Oc")  // urxvt Ctrl-→
        session.type("Z")
        let input = session.waitForText("+ one two XthreeZ")
        for debris in ["Od", "Oc", "98;3u", "27;3", "~"] { #expect(!input.contains(debris), "\(debris) was typed") }
        send(session, "\u{1B}[27u")  // kitty Esc: nothing in the input
        send(session, "\u{1B}[9u")  // kitty Tab: to the list
        send(session, "\u{1B}[B\u{1B}[a")  // ↓, then urxvt Shift-↑ reorders
        session.waitForStore("put Second first") { _ in
            (try? TaskStore(path: session.storePath).load().all.map(\.caption)) == ["Second", "First"]
        }
        session.expectScreenSnapshot()
        send(session, "\u{1B}[99;5u")  // kitty Ctrl-C quits
        #expect(session.waitForExit().contains("exited with 0"))
    }

    /// ESC and a key 150 ms later: Alt-b under ESCDELAY=400, Esc then "b" under the default.
    @Test(arguments: [("400", "+ one Xtwo"), (nil, "+ one twobX")])
    func theEscWindowFollowsESCDELAY(delay: String?, expected: String) throws {
        let session = try TmuxSession(environment: delay.map { ["ESCDELAY": $0] } ?? [:])
        session.waitForText("Type a new task")
        session.type("one two")
        session.waitForText("+ one two")
        send(session, "\u{1B}")
        usleep(150_000)  // the gap being tested, not a wait for a result
        session.type("b")
        session.type("X")
        session.waitForText(expected)
        session.expectScreenSnapshot(named: "theEscWindowFollowsESCDELAY-\(delay ?? "default")")
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
