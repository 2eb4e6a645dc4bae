import HotTaskCore
import Testing

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
        ("\u{1B}[31mred", "[31mred"),
        ("\u{1B}[31mred\u{1B}[0m", "[31mred[0m"),
        ("a\u{0}b\u{7}c", "abc"),
        ("next\u{85}line", "next line"),
        ("csi\u{9B}31m", "csi31m"),
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

    @Test("counts characters, not bytes or scalars")
    func countsGraphemeClusters() throws {
        let family = "👨‍👩‍👧‍👦"
        let thousand = String(repeating: family, count: 1000)
        #expect(try CaptionRule.clean(thousand) == thousand)
        #expect(throws: CaptionError.tooLong(length: 1001)) {
            try CaptionRule.clean(thousand + "👍")
        }
    }

    @Test("measures the length after trimming")
    func trimsBeforeMeasuring() throws {
        let caption = String(repeating: "a", count: 1000)
        #expect(try CaptionRule.clean("   " + caption + "\n\n") == caption)
    }
}
