import Foundation
import HotTaskUI
import Testing
import TestSupport

/// The width table against a reference: Python's `unicodedata` (Unicode's EastAsianWidth and
/// general categories, in the version Python was built with).
@Suite("Display width against Unicode's East Asian Width")
struct DisplayWidthTests {
    /// Every code point Python knows as assigned, with the width a terminal gives it: 0 for
    /// marks, format and control characters, 2 for East Asian Wide and Fullwidth, 1 otherwise.
    /// Printed as runs of "first last width", so the output stays small.
    private static let reference = """
        import sys, unicodedata
        runs = []
        for value in range(0x110000):
            category = unicodedata.category(chr(value))
            if category in ("Cn", "Cs", "Co"):
                continue
            if category in ("Mn", "Me", "Cf", "Cc"):
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
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: true
        default: false
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
}
