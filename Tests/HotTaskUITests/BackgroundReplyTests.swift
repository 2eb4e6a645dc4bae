import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// The terminal's answers to HotTask's start-up queries: its background (OSC 11), read from the
/// reply the decoder already read whole and dropped, and its device attributes (DA1), which say
/// no background reply is coming. Neither is ever a key.
@Suite("Terminal replies: the background and device attributes")
struct BackgroundReplyTests {
    private func reports(_ text: String) -> (events: [Event], reports: [TerminalReport]) {
        var decoder = InputDecoder()
        var events = text.unicodeScalars.flatMap { decoder.feed($0) }
        if decoder.pendingTimeout != nil { events += decoder.timedOut() }
        return (events, decoder.takeReports())
    }

    @Test(
        arguments: [
            ("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\", RGB(255, 255, 255)),  // xterm, ST
            ("\u{1B}]11;rgb:fdfd/f6f6/e3e3\u{07}", RGB(0xFD, 0xF6, 0xE3)),  // BEL
            ("\u{1B}]11;rgb:00/2b/36\u{1B}\\", RGB(0x00, 0x2B, 0x36)),  // two digits a channel
            ("\u{9D}11;rgb:171/142/214\u{9C}", RGB(0x17, 0x14, 0x21)),  // 8-bit OSC and ST, three digits
            ("\u{1B}]11;rgba:0000/0000/0000/ffff\u{1B}\\", RGB(0, 0, 0)),
        ])
    func aBackgroundReplyIsReadInEveryForm(_ reply: String, _ color: RGB) {
        let (events, reports) = reports(reply + "x")
        #expect(reports == [.background(color)])
        #expect(events == keys(.character("x")), "the reply types nothing; the key after it counts")
    }

    @Test func deviceAttributesAreAReportAndOtherRepliesAreNot() {
        #expect(reports("\u{1B}[?1;2c").reports == [.deviceAttributes])
        #expect(reports("\u{1B}[?62;22c").events.isEmpty)
        #expect(reports("\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\").reports.isEmpty, "the text colour is not asked for")
        #expect(reports("\u{1B}]11;rgb:zz/00/00\u{1B}\\").reports.isEmpty, "a reply that does not read is dropped, as before")
    }

    @Test func aBackgroundChoosesThePalette() {
        #expect(RGB(255, 255, 255).isLight && RGB(0xFD, 0xF6, 0xE3).isLight)
        #expect(!RGB(0, 0, 0).isLight && !RGB(0x00, 0x2B, 0x36).isLight && !RGB(0x2E, 0x34, 0x36).isLight)
    }
}
