import Testing

@testable import HotTaskCore

/// A list's name is checked on every store read, for each task: printable ASCII is judged from
/// its bytes, and must be judged exactly as every rule in turn judges it.
@Suite("A list's name, judged from its bytes")
struct ListNameRuleTests {
    @Test func theShortcutAgreesWithEveryRuleInTurn() {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "Work", " ", "  ", "\t", "\n", "x", "é", "\u{7F}", "\u{1}", "\u{200E}", "-", "1"]
        var names = ["", " ", "Work", " Work", "Work ", "Home\tOffice", String(repeating: "w", count: 60), String(repeating: "w", count: 61)]
        for _ in 0..<2_000 {
            names.append((0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for name in names { #expect(ListNameRule.check(name) == ListNameRule.checkedInFull(name), "\(name.debugDescription)") }
        #expect(ListNameRule.check("Work") == nil)
        #expect(ListNameRule.check(" Work") == "a list's name cannot start or end with a space")
    }
}
