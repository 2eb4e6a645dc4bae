import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// rxvt's modifier forms, the kitty keyboard protocol (CSI u) and xterm's modifyOtherKeys
/// decode to the keys xterm's plain forms give; the Esc window comes from ESCDELAY.
@Suite("Key forms of other terminals, and the Esc window")
struct KeyFormsTests {
    @Test func rxvtCtrlAndShiftArrowsAreTheKeysXtermsFormsGive() {
        #expect(decode("\u{1B}Od") == decode("\u{1B}[1;5D"))
        #expect(decode("\u{1B}Od") == keys(.wordLeft))
        #expect(decode("\u{1B}Oc") == keys(.wordRight))
        #expect(decode("\u{1B}[a") == keys(.shiftUp))
        #expect(decode("\u{1B}[b") == keys(.shiftDown))
        #expect(decode("\u{1B}[d\u{1B}[c") == keys(.left, .right), "Shift-←/→ move as ←/→")
        #expect(decode("\u{1B}Oa\u{1B}Ob") == [], "Ctrl-↑/↓ mean nothing and type nothing")
        #expect(decode("\u{1B}[3$x") == keys(.delete, .character("x")), "Shift-Delete, and the next key is a key")
        #expect(decode("\u{1B}[7^\u{1B}[5@") == [], "Ctrl-Home, Ctrl-Shift-PgUp: nothing")
        #expect(decode("\u{1B}[?2026;2$y") == [], "a mode report with $ is still a report")
    }

    @Test func kittyCSIuKeysAreTheLegacyKeys() {
        #expect(decode("\u{1B}[27u") == keys(.escape))
        #expect(decode("\u{1B}[13u\u{1B}[9u\u{1B}[127u") == keys(.enter, .tab, .backspace))
        #expect(decode("\u{1B}[9;2u") == keys(.backTab))
        #expect(decode("\u{1B}[99;5u") == keys(.control("c")), "Ctrl-C still quits")
        #expect(decode("\u{1B}[113;5u\u{1B}[122;5u") == keys(.control("q"), .control("z")))
        #expect(decode("\u{1B}[98;3u\u{1B}[100;3u") == keys(.alt("b"), .alt("d")))
        #expect(decode("\u{1B}[127;3u\u{1B}[127;5u") == keys(.altBackspace, .altBackspace), "Alt- and Ctrl-Backspace: a word")
        #expect(decode("\u{1B}[97;2u\u{1B}[97:65;2u") == keys(.character("A"), .character("A")), "shifted, with or without the shifted key")
        #expect(decode("\u{1B}[47;5u\u{1B}[95;5u") == keys(.control("_"), .control("_")), "Ctrl-/ and Ctrl-_ undo")
        #expect(decode("\u{1B}[105;5u\u{1B}[109;5u") == keys(.tab, .enter), "Ctrl-I and Ctrl-M as the legacy bytes")
        #expect(decode("\u{1B}[1;5D\u{1B}[1;5:1C") == keys(.wordLeft, .wordRight), "arrows keep xterm's form, event type allowed")
        #expect(decode("\u{1B}[97;5:3u") == [], "a release is not a press")
        #expect(decode("\u{1B}[57441u\u{1B}[97;9u") == [], "a modifier key alone, Super-a: nothing")
        #expect(decode("\u{1B}[233u") == keys(.character("é")))
    }

    @Test func modifyOtherKeysFormsAreTheLegacyKeys() {
        #expect(decode("\u{1B}[27;5;99~") == keys(.control("c")))
        #expect(decode("\u{1B}[27;3;98~") == keys(.alt("b")))
        #expect(decode("\u{1B}[27;2;13~") == keys(.enter))
        #expect(decode("\u{1B}[27;5;9~") == [], "Ctrl-Tab means nothing")
        #expect(decode("\u{1B}[27;6;95~") == keys(.control("_")))
        #expect(decode("\u{1B}[27;3;127~") == keys(.altBackspace))
    }

    @Test func theEscWindowComesFromESCDELAYWithASaneDefault() {
        #expect(InputDecoder.defaultEscapeDelay >= 50)
        #expect(InputDecoder.escapeDelay(environment: [:]) == InputDecoder.defaultEscapeDelay)
        #expect(InputDecoder.escapeDelay(environment: ["ESCDELAY": "200"]) == 200)
        #expect(InputDecoder.escapeDelay(environment: ["ESCDELAY": "0"]) == 0)
        #expect(InputDecoder.escapeDelay(environment: ["ESCDELAY": "soon"]) == InputDecoder.defaultEscapeDelay)
        #expect(InputDecoder.escapeDelay(environment: ["ESCDELAY": "-5"]) == InputDecoder.defaultEscapeDelay)
        #expect(InputDecoder.escapeDelay(environment: ["ESCDELAY": "99999999"]) == 10_000)
        var decoder = InputDecoder(escapeDelay: 300)
        _ = decoder.feed("\u{1B}")
        #expect(decoder.pendingTimeout == 300)
        _ = decoder.feed("[")
        #expect(decoder.pendingTimeout == 300, "inside a sequence too")
    }
}
