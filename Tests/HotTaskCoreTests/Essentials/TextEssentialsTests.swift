import Foundation
import Testing

@testable import HotTaskCore

/// The text operations HotTask took from the full Foundation and now has of its own
/// (`TextEssentials.swift`, `Blanks.swift`), against Foundation's, which the tests still link.
@Suite("Text operations without the full Foundation")
struct TextEssentialsTests {
    /// Every scalar of the Basic Multilingual Plane and the next two, surrogates left out.
    static let scalars = (UInt32(0)...0x2FFFF).compactMap(Unicode.Scalar.init)

    @Test("trimming blanks, and blanks and line ends, as trimmingCharacters does, for every scalar")
    func trimmingIsFoundations() {
        for scalar in Self.scalars where scalar.value < 0x3400 || scalar.value > 0x9FFF {
            let text = "\(scalar)a \(scalar)b\(scalar)"
            #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces), "U+\(String(scalar.value, radix: 16))")
            #expect(text.trimmingBlanksAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(scalar.value, radix: 16))")
        }
        #expect("  \t".trimmingBlanks() == "")
        #expect(" a b ".dropFirst().trimmingBlanks() == "a b")
    }

    @Test("letters and alphanumerics are CharacterSet's, for every scalar of the BMP in Unicode 15")
    func classesAreFoundations() {
        // Foundation's tables stop at Unicode 15 and leave out some later planes' scripts (Tangut);
        // the standard library's categories are Unicode's own. HotTask asks of ASCII, list names
        // and UIDs only.
        let differing = Self.scalars.filter { $0.value < 0x10000 && ($0.properties.age?.major ?? 99) <= 15 }.filter {
            $0.isAlphanumeric != CharacterSet.alphanumerics.contains($0) || $0.isLetterOrMark != CharacterSet.letters.contains($0)
        }
        #expect(differing.isEmpty, "\(differing.prefix(5).map { String($0.value, radix: 16) })")
    }

    @Test("percent decoding and encoding are Foundation's")
    func percentCodingIsFoundations() {
        let encoded = ["plain", "a%20b", "%E2%9C%93", "%e2%9c%93", "100%", "%4", "%zz", "%FF", "%C3%A9t%C3%A9/", "/dav/cal%2Fendar/", "%00"]
        for text in encoded {
            #expect(text.percentDecoded == text.removingPercentEncoding, "\(text)")
        }
        let paths = ["/dav/calendars/a b/", "/ünï/cödé/", "/a?b#c;d/", "/~user/!$&'()*+,=@:_-./", "/%25/", "/\u{1F600}/"]
        for path in paths + [String((0..<128).compactMap(Unicode.Scalar.init).map(Character.init))] {
            #expect(path.percentEncodedPath == path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed), "\(path)")
        }
    }

    @Test("equal but for case, as caseInsensitiveCompare has it")
    func caseIsFoundations() {
        let pairs = [
            ("Work", "work"), ("WORK", "wOrK"), ("straße", "STRASSE"), ("Ärger", "ärger"), ("work", "works"), ("ΣΊΣΥΦΟΣ", "σίσυφος"), ("i", "I"),
        ]
        for (left, right) in pairs {
            #expect(left.equalsIgnoringCase(right) == (left.caseInsensitiveCompare(right) == .orderedSame), "\(left) \(right)")
        }
    }

    @Test("zero-padded numbers and one decimal are String(format:)'s")
    func numbersAreFormats() {
        for number in [0, 7, 42, 999, 2026, 12_345, -3] {
            #expect(number.zeroPadded(2) == String(format: "%02d", number))
            #expect(number.zeroPadded(4) == String(format: "%04d", number))
        }
        for bytes in [0, 1, 52_428, 104_857, 1_048_576, 5_347_737, 20_971_520, 734_003_200] {
            let megabytes = Double(bytes) / 1_048_576
            #expect(megabytes.oneDecimal == String(format: "%.1f", megabytes), "\(bytes)")
        }
    }
}
