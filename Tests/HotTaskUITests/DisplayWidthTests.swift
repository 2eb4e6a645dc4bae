import Foundation
import TestSupport
import Testing

@testable import HotTaskUI

/// The width table against a reference: Python's `unicodedata` (Unicode's EastAsianWidth and
/// general categories, in the version Python was built with).
@Suite("Display width against Unicode's East Asian Width")
struct DisplayWidthTests {
    /// Every code point Python knows as assigned, with the width a terminal gives it: 0 for
    /// marks, format and control characters and Hangul's medial vowels and final consonants (as
    /// wcwidth and unicode-width give them), 2 for East Asian Wide and Fullwidth, 1 otherwise.
    /// Printed as runs of "first last width", so the output stays small.
    private static let reference = """
        import sys, unicodedata
        runs = []
        for value in range(0x110000):
            category = unicodedata.category(chr(value))
            if category in ("Cn", "Cs", "Co"):
                continue
            if category in ("Mn", "Me", "Cf", "Cc") or 0x1160 <= value <= 0x11FF or 0xD7B0 <= value <= 0xD7FF:
                width = 0
            elif unicodedata.east_asian_width(chr(value)) in ("W", "F"):
                width = 2
            else:
                width = 1
            if runs and runs[-1][1] == value - 1 and runs[-1][2] == width:
                runs[-1][1] = value
            else:
                runs.append([value, value, width])
        print(unicodedata.unidata_version)
        for first, last, width in runs:
            print(first, last, width)
        """

    private static func takesNoColumn(_ scalar: Unicode.Scalar) -> Bool {
        if (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return false
        }
    }

    /// The table is Tests/Scripts/wide_ranges.py's output; this also catches a table left
    /// stale by a newer Python or an edit by hand.
    @Test func everyAssignedCodePointHasTheReferenceWidth() throws {
        let run = runProcess(["python3", "-c", Self.reference], timeout: 120)
        try #require(run.status == 0, "python3: \(run.stderr)")
        var lines = run.stdout.split(separator: "\n")
        let version = lines.removeFirst()
        var disagreements: [String] = []
        var checked = 0
        var drifted = 0
        for line in lines {
            let fields = line.split(separator: " ").compactMap { UInt32($0) }
            guard fields.count == 3 else { continue }
            for value in fields[0]...fields[1] {
                guard let scalar = Unicode.Scalar(value) else { continue }
                // A character whose category changed between Python's Unicode and Swift's is
                // not a disagreement about widths.
                if Self.takesNoColumn(scalar) != (fields[2] == 0) {
                    drifted += 1
                    continue
                }
                checked += 1
                let width = DisplayWidth.of(Character(scalar))
                if width != Int(fields[2]) {
                    disagreements.append(String(format: "U+%04X: %d, Unicode %@ says %d", value, width, String(version), fields[2]))
                }
            }
        }
        #expect(checked > 140_000)
        #expect(drifted < 20, "\(drifted) code points changed category between the two Unicode versions")
        #expect(disagreements.isEmpty, "\(disagreements.count) disagree, e.g. \(disagreements.prefix(20))")
    }

    /// A cluster takes the sum of its code points' columns, where wcwidth and unicode-width
    /// agree; emoji clusters take 2.
    @Test func clustersTakeTheColumnsTerminalsGiveThem() {
        #expect(DisplayWidth.of("\u{304B}\u{3099}" as Character) == 2, "NFD kana")
        #expect(DisplayWidth.of("\u{6F22}\u{301}" as Character) == 2)
        #expect(DisplayWidth.of("\u{1112}\u{1161}\u{11AB}" as Character) == 2, "a jamo syllable")
        #expect(DisplayWidth.of("\u{0915}\u{093F}" as Character) == 2, "Devanagari ki: a spacing vowel sign")
        #expect(DisplayWidth.of("\u{0915}\u{094D}\u{0937}\u{093F}") == 3, "kṣi, however Swift splits it into characters")
        #expect(DisplayWidth.of("\u{0E01}\u{0E33}" as Character) == 2, "Thai kam")
        #expect(DisplayWidth.of("\u{0E17}\u{0E35}\u{0E48}" as Character) == 1, "Thai marks above take nothing")
        #expect(DisplayWidth.of("e\u{301}" as Character) == 1)
        for emoji: Character in ["👩‍👩‍👧‍👦", "👍🏽", "🇺🇸", "❤️", "1️⃣"] { #expect(DisplayWidth.of(emoji) == 2, "\(emoji)") }
        var grid = Grid(size: Size(width: 10, height: 1))
        // Three columns in one character: a base and two spacing vowel signs.
        let wide: Character = "\u{0915}\u{093F}\u{093E}"
        #expect(DisplayWidth.of(wide) == 3)
        let end = grid.put("a" + String(wide) + "b", x: 0, y: 0, style: .plain)
        #expect(end == 5)
        #expect(grid.isCovered(x: 2, y: 0) && grid.isCovered(x: 3, y: 0) && !grid.isCovered(x: 4, y: 0))
        grid.put("|", x: 3, y: 0, style: .plain)
        #expect(grid.line(0) == "a  |b", "overdrawing a cluster's last column blanks the whole cluster")
    }
}
