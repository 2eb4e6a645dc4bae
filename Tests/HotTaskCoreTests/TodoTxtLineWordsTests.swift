import Foundation
import Testing

@testable import HotTaskCore

/// A todo.txt line's words are hashed and compared as they lie in the line, never joined
/// (issue 50): each answer must be the one the joined text gives.
@Suite("A todo.txt line's words, hashed and compared in place")
struct TodoTxtLineWordsTests {
    static let lines = [
        "Call mom +family @phone due:2026-12-01",
        "  two  spaces  +tag   between ",
        "+only +tags",
        "bell\u{07} and \u{1B}[31mred\u{1B}[0m +x kept clean",
        "isolate \u{2066}x\u{2069} +y and é ünï 📞",
        "one",
    ]

    /// `body` for the line's words and every way the reader leaves words out: none, the first,
    /// a middle one, tags.
    private func eachCase(_ line: String, _ body: (TodoTxtLineWords, Set<Int>, Bool) -> Void) {
        var line = line
        line.withUTF8 { bytes in
            let words = TodoTxtLineWords(bytes: bytes)
            var starts: [Int] = []
            words.forEach { starts.append($0.lowerBound) }
            for (leftOut, tags) in [([], false), ([], true), (Set(starts.prefix(1)), false), (Set(starts.dropFirst().prefix(1)), true)] {
                body(words, leftOut, tags)
            }
        }
    }

    @Test(arguments: lines)
    func aDigestMadeInPlaceIsTheJoinedTextsDigest(line: String) {
        eachCase(line) { words, leftOut, tags in
            let joined = words.joined(from: 0, leavingOut: leftOut, tags: tags)
            #expect(words.digest(from: 0, leavingOut: leftOut, tags: tags) == TextDigest(joined), "\(leftOut) \(tags)")
            #expect(TextDigest(joined).id(then: "#2".utf8) == UUIDBytes.derived(from: joined.utf8, then: "#2".utf8))
        }
    }

    @Test(arguments: lines)
    func aComparisonInPlaceIsTheJoinedTextsComparison(line: String) {
        eachCase(line) { words, leftOut, _ in
            let joined = words.joined(from: 0, leavingOut: leftOut, tags: false)
            for cut in [0, 1, joined.utf8.count / 2, joined.utf8.count] where cut <= joined.utf8.count {
                let head = String(decoding: joined.utf8.prefix(cut), as: UTF8.self)
                let tail = String(decoding: joined.utf8.dropFirst(cut), as: UTF8.self)
                guard head + tail == joined else { continue }  // a cut inside a character
                #expect(words.joined(from: 0, leavingOut: leftOut, equals: head, then: tail))
                #expect(!words.joined(from: 0, leavingOut: leftOut, equals: head, then: tail + "x"))
                #expect(!words.joined(from: 0, leavingOut: leftOut, equals: "x" + head, then: tail))
            }
            #expect(joined.isEmpty || !words.joined(from: 0, leavingOut: leftOut, equals: String(joined.dropLast()), then: ""))
            #expect(words.joined(from: 0, leavingOut: leftOut, tags: false, after: "B as:1f ") == "B as:1f " + joined)
        }
    }
}
