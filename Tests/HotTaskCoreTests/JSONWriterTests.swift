import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The writer puts each piece straight into its room: what it writes must still be JSON that
/// reads back as what was given, whatever the length, and however the pieces fall.
@Suite("JSON writer")
struct JSONWriterTests {
    @Test("any text, up to several pieces long, reads back as it was given")
    func stringsReadBack() throws {
        var generator = SeededGenerator(seed: 77)
        // Quotes, backslashes, control characters and DEL, multi-byte scalars, plain runs.
        let pieces = ["\"", "\\", "\n", "\t", "\r", "\u{0}", "\u{1F}", "\u{7F}", "é", "中", "😀", "abc", " "]
        for length in [0, 1, 17, 65_535, 65_536, 65_537, 140_001] {
            var text = ""
            while text.utf8.count < length { text += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
            var writer = JSONWriter(capacity: Int.random(in: 0...300, using: &generator))
            writer.raw("[")
            writer.string(text)
            writer.raw(",")
            writer.string("after")
            writer.raw("]")
            #expect(writer.count == writer.bytes.count)
            let back = try JSONDecoder().decode([String].self, from: Data(writer.bytes))
            #expect(back == [text, "after"], "length \(length)")
        }
    }

    @Test("dates, ids, stamps and keys as the store has always written them")
    func piecesAsBefore() {
        var writer = JSONWriter()
        writer.key("createdAt", indent: 6, first: true)
        let start = writer.count
        writer.date(Fixtures.baseDate)
        let length = writer.count - start
        writer.key("modifiedAt", indent: 6, first: false)
        writer.repeating(from: start, count: length)
        writer.key("far", indent: 20, first: false)
        // A year past 9999 keeps all its digits (10000 is a leap year).
        writer.date(Date(timeIntervalSince1970: 253_402_300_800 + 86_400 * 59 + 3_723))
        writer.raw(", ")
        writer.uuid(UUID(uuidString: "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9")!)
        writer.raw(", ")
        writer.clock(Clock(milliseconds: 1_796_102_604_200, counter: 12))
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == "\n      \"createdAt\": \"2026-11-21T10:00:00Z\",\n      \"modifiedAt\": \"2026-11-21T10:00:00Z\","
                + "\n                    \"far\": \"10000-02-29T01:02:03Z\", \"0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9\", 1796102604200.12")
        writer.clear()
        #expect(writer.count == 0 && writer.bytes.isEmpty)
    }
}
