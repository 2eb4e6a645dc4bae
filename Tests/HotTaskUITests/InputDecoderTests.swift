import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// What the terminal sends, decoded whatever TERM says: every sequence consumed whole.
@Suite("Input decoder: keys, sequences and paste")
struct InputDecoderTests {
    @Test func xtermModifierFormsAreKeysNeverText() {
        #expect(decode("\u{1B}[1;5D") == keys(.wordLeft))
        #expect(decode("\u{1B}[1;5C") == keys(.wordRight))
        #expect(decode("\u{1B}[1;3D") == keys(.wordLeft), "Alt-←")
        #expect(decode("\u{1B}[1;2A") == keys(.shiftUp))
        #expect(decode("\u{1B}[1;2B") == keys(.shiftDown))
        #expect(decode("\u{1B}[1;2D") == keys(.left))
        #expect(decode("\u{1B}[3;2~") == keys(.delete))
        #expect(decode("\u{1B}[5;5~") == [], "Ctrl-PgUp means nothing here, and types nothing")
        #expect(decode("\u{1B}[1;6A") == [], "Ctrl-Shift-↑")
        #expect(decode("\u{1B}[1;5H") == [], "Ctrl-Home")
    }

    @Test func homeEndAndFunctionKeysInEveryCommonForm() {
        for home in ["\u{1B}[H", "\u{1B}OH", "\u{1B}[1~", "\u{1B}[7~"] { #expect(decode(home) == keys(.home), "\(Array(home.utf8))") }
        for end in ["\u{1B}[F", "\u{1B}OF", "\u{1B}[4~", "\u{1B}[8~"] { #expect(decode(end) == keys(.end)) }
        #expect(decode("\u{1B}OP") == keys(.function(1)))
        #expect(decode("\u{1B}[11~") == keys(.function(1)))
        #expect(decode("\u{1B}[[A") == keys(.function(1)), "Linux console")
        #expect(decode("\u{1B}OQ") == keys(.function(2)))
        #expect(decode("\u{1B}[12~") == keys(.function(2)))
        #expect(decode("\u{1B}[24~") == keys(.function(12)))
        #expect(decode("\u{1B}[1;2P") == keys(.function(13)))
        #expect(decode("\u{1B}[A\u{1B}OB\u{1B}[C\u{1B}OD") == keys(.up, .down, .right, .left))
        #expect(decode("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[Z") == keys(.pageUp, .pageDown, .delete, .backTab))
    }

    @Test func altLetterAndEscapeAlone() {
        #expect(decode("\u{1B}b") == keys(.alt("b")))
        #expect(decode("\u{1B}f") == keys(.alt("f")))
        #expect(decode("\u{1B}") == keys(.escape))
        #expect(decode("\u{1B}\u{1B}[A") == keys(.escape, .up))
        #expect(decode("\u{1B}\u{1B}") == keys(.escape, .escape))
        #expect(decode("\u{1B}\t\u{1B}\r") == keys(.escape, .tab, .escape, .enter), "Esc and a control key quickly after it")
    }

    @Test func unknownSequencesAreDroppedWholeAndWhatFollowsStillWorks() {
        #expect(decode("\u{1B}[99;7q") == [])
        #expect(decode("\u{1B}[?1;2c") == [], "a device attributes answer")
        #expect(decode("\u{1B}[200;1;1R") == [])
        #expect(decode("\u{1B}[I\u{1B}[O") == [], "focus reports")
        #expect(decode("\u{1B}[2~") == [], "Insert")
        #expect(decode("\u{1B}[1;5Dx") == keys(.wordLeft, .character("x")))
        // A sequence cut short by a key: the key still counts, nothing of the sequence is typed.
        #expect(decode("\u{1B}[1;\rok") == keys(.enter, .character("o"), .character("k")))
        // Too long to be a key: read to its end all the same.
        #expect(decode("\u{1B}[" + String(repeating: "1;", count: 40) + "Ax") == keys(.character("x")))
    }

    @Test func controlKeysAndText() {
        #expect(decode("a\té\u{7F}\u{08}\r\u{03}") == keys(.character("a"), .tab, .character("é"), .backspace, .backspace, .enter, .control("c")))
        #expect(decode("\u{00}\u{1C}\u{85}") == [], "NUL, FS and C1 controls type nothing")
    }

    /// Terminal replies (`ESC ] 11 ; rgb:… ESC \\`, `ESC P 1 $ r 0 m ESC \\`) and the 8-bit C1
    /// forms are read whole and dropped: nothing of them is typed.
    @Test func controlStringsAndC1FormsAreConsumedWhole() {
        #expect(decode("\u{1B}]11;rgb:0000/0000/0000\u{1B}\\ok") == keys(.character("o"), .character("k")))
        #expect(decode("\u{1B}]0;title\u{07}x") == keys(.character("x")), "OSC ended by BEL")
        #expect(decode("\u{1B}P1$r0m\u{1B}\\x") == keys(.character("x")), "a DCS reply")
        #expect(decode("\u{1B}_apc\u{1B}\\\u{1B}^pm\u{1B}\\\u{1B}Xsos\u{1B}\\x") == keys(.character("x")))
        #expect(decode("\u{9D}11;rgb:1/2/3\u{9C}x") == keys(.character("x")), "8-bit OSC and ST")
        #expect(decode("\u{90}1$r0m\u{9C}x") == keys(.character("x")), "8-bit DCS")
        #expect(decode("\u{9B}1;5D") == keys(.wordLeft), "8-bit CSI")
        #expect(decode("\u{8F}A") == keys(.up), "8-bit SS3")
        #expect(decode("\u{1B}]11;rgb\u{1B}[A") == keys(.up), "a string cut short by a sequence: the sequence counts")
        #expect(decode("\u{1B}]") == keys(.alt("]")), "ESC ] and a pause is Alt-]")
    }

    @Test func anInvalidByteIsAReplacementAtOnceAndTheNextKeyCounts() {
        var bytes = UTF8Bytes()
        #expect(bytes.feed(0xFF) == ["\u{FFFD}"])
        #expect(bytes.feed(0x61) == ["a"])
        #expect(bytes.feed(0xC3) == [] && bytes.isPending)
        #expect(bytes.feed(0x0D) == ["\u{FFFD}", "\r"], "Enter after half a character is still Enter")
        #expect(bytes.feed(0xE2) == [] && bytes.feed(0x82) == [] && bytes.feed(0xAC) == ["€"])
        #expect(bytes.feed(0xED) == [] && bytes.feed(0xA0) == ["\u{FFFD}", "\u{FFFD}"], "a surrogate is not UTF-8")
        #expect(bytes.feed(0xF0) == [] && bytes.flush() == ["\u{FFFD}"], "cut short by a pause")
        #expect(Array("🌱".utf8).flatMap { bytes.feed($0) } == ["🌱"])
    }

    @Test func blocksEndingInsideACharacterWaitForTheRest() {
        var chunks = UTF8Chunks()
        let bytes = Array("a€🌱".utf8)
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars += chunks.decode([byte]) }
        #expect(String(scalars) == "a€🌱")
        #expect(String(chunks.decode([0xE2, 0x82])) == "" && String(chunks.flush()) == "\u{FFFD}")
    }

    @Test func theMouseWheelInSGRAndX10Forms() {
        #expect(decode("\u{1B}[<64;10;5M") == [.wheelScrolled(lines: -3)])
        #expect(decode("\u{1B}[<65;10;5M") == [.wheelScrolled(lines: 3)])
        #expect(decode("\u{1B}[<0;10;5M\u{1B}[<0;10;5m") == [.clicked(column: 9, row: 4)], "a click is its press; the release means nothing")
        #expect(decode("\u{1B}[<2;10;5M\u{1B}[<32;11;5M\u{1B}[<4;10;5M") == [], "right button, a drag, Shift-click")
        #expect(decode("\u{1B}[M`!!") == [.wheelScrolled(lines: -3)])
        #expect(decode("\u{1B}[Ma!!x") == [.wheelScrolled(lines: 3), .keyPressed(.character("x"))])
    }

    @Test func aBracketedPasteIsOneEventOfTextNeverKeys() {
        let paste = "\u{1B}[200~Renew passport\tdeadline March\tadmin\r\nnext\u{1B}[31m red\u{1B}]0;title\u{07}!\u{1B}[201~"
        #expect(decode(paste) == [.pasted("Renew passport\tdeadline March\tadmin\r\nnext red!")])
        // Split at any point, the same; a key after the pause is a key.
        var decoder = InputDecoder()
        var events: [Event] = []
        for scalar in paste.unicodeScalars { events += decoder.feed(scalar) }
        events += decoder.timedOut()
        #expect(events.count == 1)
        #expect(decoder.pendingTimeout == nil)
        #expect(decoder.feed("x") == keys(.character("x")))
        #expect(decode("\u{1B}[200~\u{1B}[201~") == [], "an empty paste is nothing")
        #expect(decode("\u{1B}[201~") == [], "a stray end marker types nothing")
    }

    @Test func aPasteThatNeverEndsIsTakenAsTextAfterAPause() {
        var decoder = InputDecoder()
        for scalar in "\u{1B}[200~half".unicodeScalars { #expect(decoder.feed(scalar) == []) }
        #expect(decoder.pendingTimeout == 1_000)
        #expect(decoder.timedOut() == [.pasted("half")])
        #expect(decoder.pendingTimeout == nil)
    }

    @Test func aHugePasteIsCappedAndTheDecoderRecovers() {
        var decoder = InputDecoder()
        var events: [Event] = []
        for scalar in "\u{1B}[200~".unicodeScalars { events += decoder.feed(scalar) }
        for _ in 0..<(InputDecoder.maximumPasteLength + 5_000) { events += decoder.feed("a") }
        for scalar in "\u{1B}[201~".unicodeScalars { events += decoder.feed(scalar) }
        events += decoder.timedOut()
        #expect(events == [.pasted(String(repeating: "a", count: InputDecoder.maximumPasteLength), cut: true)])
        #expect(decoder.pendingTimeout == nil, "the paste is over, and the decoder reads keys again")
        #expect(decoder.feed("b") == keys(.character("b")))
    }

    /// The attack: a fake end marker inside the paste, then Tab and `dd`. What comes
    /// in the same burst as an end marker is the paste's text; only a pause ends a paste.
    @Test func bytesInTheSameBurstAsAnEndMarkerArePastedTextNeverKeys() {
        var decoder = InputDecoder()
        var events: [Event] = []
        for scalar in "\u{1B}[200~harmless text\u{1B}[201~\tdd\u{1B}[200~ more\u{1B}[201~".unicodeScalars {
            events += decoder.feed(scalar)
        }
        #expect(events == [], "nothing yet: the marker may have been pasted")
        #expect(decoder.pendingTimeout == InputDecoder.pasteSettleWindow)
        #expect(decoder.timedOut() == [.pasted("harmless text\tdd more")])
        // A key after the pause is a key again.
        #expect(decoder.feed("d") == keys(.character("d")))
    }

    @Test func blocksAndSingleScalarsDecodeAlike() {
        let text = "\u{1B}[200~ab\u{1B}[31mc\u{1B}[201~\u{1B}[201~d\u{1B}[201~"
        var byBlock = InputDecoder()
        #expect(byBlock.feed(contentsOf: text.unicodeScalars) + byBlock.timedOut() == decode(text))
        #expect(decode(text) == [.pasted("abcd")])
    }

    @Test func anEndMarkerCutShortInsideAPasteIsText() {
        #expect(decode("\u{1B}[200~a\u{1B}[201\u{1B}[201~") == [.pasted("a")], "a broken marker is an escape sequence, dropped")
        #expect(decode("\u{1B}[200~x\u{1B}[201~y") == [.pasted("xy")], "y came with the paste")
    }

    /// A megabyte paste is read and cut without freezing the screen: the decoder keeps a bounded
    /// amount and the line takes at most a caption's worth.
    @Test func aMegabytePasteIsHandledInHalfASecond() {
        let megabyte = String(repeating: "word ", count: 1_048_576 / 5)
        var state = makeState()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            var decoder = InputDecoder()
            var events: [Event] = []
            for scalar in "\u{1B}[200~".unicodeScalars { events += decoder.feed(scalar) }
            events += decoder.feed(contentsOf: megabyte.unicodeScalars)
            for scalar in "\u{1B}[201~".unicodeScalars { events += decoder.feed(scalar) }
            events += decoder.timedOut()
            for event in events { _ = AppUpdate.update(&state, event, now: testNow) }
        }
        #expect(elapsed < .milliseconds(500), "took \(elapsed)")
        #expect(state.input.characters.count == CaptionRule.maximumLength)
    }
}

@Suite("Paste and word keys in the line editors")
struct PasteTests {
    @Test func aPasteWithTabsAndANewlineIsOneLineAndAddsNothingUntilEnter() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mom"]))
        let before = state.tasks
        let effects = AppUpdate.update(&state, .pasted("Renew passport\tdeadline March\tadmin\nnext"), now: testNow)
        #expect(effects.isEmpty)
        #expect(state.tasks == before)
        #expect(state.input.text == "Renew passport deadline March admin next")
        #expect(savedChanges(state.press(.enter)).count == 1)
        #expect(state.tasks.priority.map(\.caption) == ["Renew passport deadline March admin next", "Buy milk", "Call mom"])
    }

    @Test func everyKindOfLineBreakIsOneSpace() {
        var state = makeState()
        _ = AppUpdate.update(&state, .pasted("one\r\ntwo\rthree\nfour\r\rfive\u{2028}six"), now: testNow)
        #expect(state.input.text == "one two three four five six", "tmux sends a pasted CRLF as CR CR")
    }

    /// Cut at paste time, and said in a line that fits the footer at any width.
    @Test func aPasteLongerThanACaptionIsCutWithANoticeThatFits() {
        func pasted(width: Int) -> AppState {
            var state = makeState(size: Size(width: width, height: 12))
            state.type("ab")
            _ = AppUpdate.update(&state, .pasted(String(repeating: "x", count: 5_000)), now: testNow)
            #expect(state.input.characters.count == CaptionRule.maximumLength)
            return state
        }
        // A whole sentence in the footer, never a cut one.
        expectScreenSnapshot(pasted(width: 80), named: "InputDecoderTests.aPasteLongerThanACaptionIsCutWithANoticeThatFits")
        expectScreenSnapshot(pasted(width: 40), named: "InputDecoderTests.aPasteLongerThanACaptionIsCutWithANoticeThatFits-2")
        expectScreenSnapshot(pasted(width: 24), named: "InputDecoderTests.aPasteLongerThanACaptionIsCutWithANoticeThatFits-3")
        var state = makeState()
        _ = AppUpdate.update(&state, .pasted("short", cut: true), now: testNow)
        #expect(state.input.text == "short")
        #expect(state.message?.text.hasPrefix("Paste cut") == true, "the decoder's cut is said too")
    }

    @Test func aPasteGoesToTheLineThatHasFocus() {
        var state = makeState(makeList(priority: ["Buy milk", "Café"]))
        state.press(.tab)
        _ = AppUpdate.update(&state, .pasted("from the list"), now: testNow)
        #expect(state.focus == .input, "the list's paste goes to the new-task input")
        #expect(state.input.text == "from the list")
        state.press(.control("f"))
        _ = AppUpdate.update(&state, .pasted("caf"), now: testNow)
        #expect(state.filter.text == "caf")
        #expect(state.layout.taskCount == 1, "the filter applies the pasted text")
        state.press(.escape, .tab, .character("e"))
        #expect(state.focus == .editing)
        _ = AppUpdate.update(&state, .pasted(" and bread"), now: testNow)
        #expect(state.editor.text == "Buy milk and bread")
        #expect(state.input.text == "from the list")
    }

    @Test func aPasteIntoTheMiddleKeepsTheRestAndJoinsAccents() {
        var state = makeState()
        state.type("ab")
        state.press(.left)
        _ = AppUpdate.update(&state, .pasted("\u{301}X"), now: testNow)
        #expect(state.input.text == "a\u{301}Xb")
        #expect(state.input.cursor == 2)
    }

    @Test func wordKeysMoveByWordsInEveryLineEditor() {
        var state = makeState(makeList(priority: ["alpha beta gamma"]))
        state.type("one two three")
        state.press(.wordLeft)
        #expect(state.input.cursor == 8)
        state.press(.alt("b"), .alt("b"))
        #expect(state.input.cursor == 0)
        state.press(.wordRight, .alt("f"))
        #expect(state.input.cursor == 7)
        state.press(.tab, .character("e"), .wordLeft)
        #expect(state.editor.cursor == 11)
        state.press(.escape, .control("f"))
        state.type("x y")
        state.press(.alt("b"))
        #expect(state.filter.cursor == 2)
    }

    @Test func altKeysAreNeverTyped() {
        var state = makeState(makeList(priority: ["one"]))
        state.press(.alt("x"))
        #expect(state.input.isEmpty)
        state.press(.tab)
        let before = state
        state.press(.alt("d"))
        #expect(state.tasks == before.tasks)
        #expect(state.focus == .list)
    }
}
