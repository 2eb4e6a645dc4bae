import Foundation
import Testing

@testable import HotTaskCore

@Suite("Caption rule")
struct CaptionRuleTests {
    /// Raw input and the caption that must be stored.
    static let cleaned: [(raw: String, expected: String)] = [
        ("Buy milk", "Buy milk"),
        ("  Buy milk  ", "Buy milk"),
        ("\t\tBuy milk\t", "Buy milk"),
        ("\n\r\nBuy milk\n", "Buy milk"),
        (" \t\n Buy milk \n\t ", "Buy milk"),
        ("Buy\tmilk", "Buy milk"),
        ("Buy\nmilk", "Buy milk"),
        ("Buy\r\nmilk", "Buy milk"),
        ("Buy\r\rmilk", "Buy  milk"),
        ("Buy\u{2028}milk", "Buy milk"),
        ("\u{1B}[31mred", "red"),
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("evil\u{1B}]0;PWNED title\u{07} \u{1B}[31mred\u{1B}[0m", "evil red"),
        ("\u{1B}P1$r0m\u{1B}\\dcs \u{1B}(Bcharset \u{1B}OAss3", "dcs charset ss3"),
        ("cut \u{1B}[1;é", "cut é"),
        ("a\u{0}b\u{7}c", "abc"),
        ("next\u{85}line", "next line"),
        ("csi\u{9B}31m", "csi"),
        ("osc\u{9D}0;t\u{9C}!", "osc!"),
        ("del\u{7F}ete", "delete"),
        ("\u{202E}txt.exe", "txt.exe"),
        ("abc\u{202E}cba\u{202C}", "abccba"),
        ("isolate\u{2066}x\u{2069}", "isolatex"),
        ("Café ☕️", "Café ☕️"),
        ("👨‍👩‍👧‍👦 family", "👨‍👩‍👧‍👦 family"),
        ("🇳🇿🇯🇵 flags", "🇳🇿🇯🇵 flags"),
        ("買い物 牛乳", "買い物 牛乳"),
        ("e\u{301}", "e\u{301}"),
    ]

    @Test("cleans captions", arguments: cleaned)
    func cleans(raw: String, expected: String) throws {
        #expect(try CaptionRule.clean(raw) == expected)
        #expect(CaptionRule.accepts(raw))
    }

    @Test(
        "rejects captions with nothing visible",
        arguments: ["", " ", "   ", "\t\n\r ", "\u{1B}", "\u{1B}\u{7F}\u{9B}\u{0}", " \u{202E} \u{85} ", "\u{2028}\u{2029}"])
    func rejectsEmpty(raw: String) {
        #expect(throws: CaptionError.empty) { try CaptionRule.clean(raw) }
        #expect(!CaptionRule.accepts(raw))
    }

    /// `shown` and `oneLine` leave most captions as they are after a scan eight bytes at a
    /// time: a line break, a tab or U+2028 anywhere in the caption, across the words, still folds.
    @Test func aCaptionIsShownOnOneLineWhereverItsBreakIs() {
        for at in 1..<23 {
            for (raw, folded) in [("\n", " "), ("\t", " "), ("\u{2028}", " "), ("\r\n", " "), ("☕️", "☕️")] {
                var caption = String(repeating: "a", count: 24)
                caption.insert(contentsOf: raw, at: caption.index(caption.startIndex, offsetBy: at))
                var expected = String(repeating: "a", count: 24)
                expected.insert(contentsOf: folded, at: expected.index(expected.startIndex, offsetBy: at))
                #expect(CaptionRule.shown(caption) == expected, "\(raw.unicodeScalars.map(\.value)) at \(at)")
                #expect(CaptionRule.oneLine(caption) == expected)
            }
        }
        #expect(CaptionRule.shown("Buy milk and eggs at the shop\n") == "Buy milk and eggs at the shop")
        #expect(CaptionRule.shown("  Buy milk and eggs at the shop") == "Buy milk and eggs at the shop")
        #expect(CaptionRule.shown("\u{2028}\u{2029}") == CaptionRule.untitled)
        #expect(CaptionRule.shown("") == CaptionRule.untitled)
        #expect(CaptionRule.oneLine("") == "")
    }

    @Test("accepts exactly 1000 characters")
    func acceptsLimit() throws {
        let caption = String(repeating: "a", count: 1000)
        #expect(try CaptionRule.clean(caption) == caption)
    }

    @Test("rejects 1001 characters, naming the length")
    func rejectsOverLimit() {
        #expect(throws: CaptionError.tooLong(length: 1001)) {
            try CaptionRule.clean(String(repeating: "a", count: 1001))
        }
        #expect(CaptionError.tooLong(length: 1001).description.contains("1001"))
    }

    @Test("counts characters, not scalars, for the character limit")
    func countsGraphemeClusters() throws {
        let accented = "e\u{301}"  // three bytes, two scalars, one character
        let thousand = String(repeating: accented, count: 1000)
        #expect(try CaptionRule.clean(thousand) == thousand)
        #expect(throws: CaptionError.tooLong(length: 1001)) {
            try CaptionRule.clean(thousand + "👍")
        }
        let families = String(repeating: "👨‍👩‍👧‍👦", count: 300)  // 7,500 bytes
        #expect(try CaptionRule.clean(families) == families)
    }

    @Test("caps bytes too: a pile of combining marks is one character but not a short caption")
    func capsBytes() {
        let pile = "a" + String(repeating: "\u{301}", count: 60_000)
        #expect(pile.count == 1)
        #expect(throws: CaptionError.tooManyBytes(bytes: 120_001)) { try CaptionRule.clean(pile) }
        #expect(throws: CaptionError.tooManyBytes(bytes: 25_000)) {
            try CaptionRule.clean(String(repeating: "👨‍👩‍👧‍👦", count: 1000))
        }
        #expect(CaptionError.tooManyBytes(bytes: 120_001).description.contains("120001 bytes; the limit is 8192"))
    }

    @Test(
        "refuses captions with no visible character, like whitespace",
        arguments: [
            "\u{200B}", "\u{200B}\u{200B} \u{200D}", "\u{FEFF}", "\u{2060}", "\u{FE0F}", "\u{E0020}\u{E007F}",
            "\u{3164}", "\u{115F}\u{1160}", "\u{301}\u{302}", "\u{00AD}", "\u{3000}\u{00A0}", "\u{180E}", "\u{200C}\u{034F}",
        ])
    func refusesInvisible(raw: String) {
        #expect(throws: CaptionError.empty) { try CaptionRule.clean(raw) }
    }

    @Test("accepts text that shows something, whatever else it holds")
    func acceptsVisibleWithInvisibles() throws {
        for caption in ["\u{200B}a", "牛乳", "👍🏽", "❤️", "\u{0E01}\u{0E31}", "ok\u{200D}", "ـ", "\u{2800}x"] {
            #expect(try CaptionRule.clean(caption) == caption, "\(caption.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("measures the length after trimming")
    func trimsBeforeMeasuring() throws {
        let caption = String(repeating: "a", count: 1000)
        #expect(try CaptionRule.clean("   " + caption + "\n\n") == caption)
    }

    @Test func blanksAreFoundationsWhitespacesAndTrimAsItDoes() {
        let blanks = (0...0xFFFF).compactMap(Unicode.Scalar.init).filter(Blanks.isBlank)
        let foundation = (0...0xFFFF).compactMap(Unicode.Scalar.init).filter(CharacterSet.whitespaces.contains)
        #expect(blanks == foundation)
        for text in ["", " ", "\u{3000}a b\u{200B}", "\tx\u{A0}", "plain", " é ", "\u{2028}x "] {
            #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }
}
