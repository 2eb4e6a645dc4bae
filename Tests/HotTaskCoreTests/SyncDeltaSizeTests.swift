import Foundation
import Testing

@testable import HotTaskCore

/// A group of acknowledgements is appended without being encoded first only to be measured:
/// that holds only while `lineBytesBound` is never below the line the delta makes.
@Suite("A sync delta's size bound")
struct SyncDeltaSizeTests {
    /// An entry whose every text is made of `piece`.
    static func entry(_ piece: String, repeated count: Int) -> SyncBase.Entry {
        let text = String(repeating: piece, count: count)
        var fields = SharedFields(
            caption: text, section: .priority, completed: true, completedAt: Date(timeIntervalSince1970: 1_800_000_000),
            sortOrder: Int.min, due: DueDate.day(20_000))
        fields[.note] = .note(text)
        fields[.tags] = .tags([text, text, "a"])
        fields[.repeatRule] = RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;INTERVAL=2").map(FieldValue.repeatRule)
        return SyncBase.Entry(
            uid: text, href: "/u/hot/" + text + ".ics", etag: "\"" + text + "\"", fields: fields, orderKey: text, clocks: text,
            calendar: "BEGIN:VCALENDAR\r\n" + text + "\r\nEND:VCALENDAR\r\n", tentative: true)
    }

    @Test(
        "the bound is at least the log line's size, for text that escapes the most and the least",
        arguments: ["\u{1F}", "\u{7F}", "\"", "\\", "/", "\n", "a", "é", "\u{2028}", "😀", "\u{1F}\"\\/\u{7F}"])
    func boundHolds(piece: String) {
        for count in [0, 1, 40, 3000] {
            var delta = SyncDelta(collection: "http://127.0.0.1/u/" + piece + "/", server: CollectionVersion(ctag: piece, syncToken: piece))
            delta.set["0b7f5a36-bc13-4e4c-9a5e-6b1d2f3c4d5e"] = Self.entry(piece, repeated: count)
            delta.set["1b7f5a36-bc13-4e4c-9a5e-6b1d2f3c4d5e"] = Self.entry(piece, repeated: 1)
            delta.dropped = ["2b7f5a36-bc13-4e4c-9a5e-6b1d2f3c4d5e"]
            delta.unreadable = [piece: SyncBase.Unreadable(etag: piece, reason: piece, named: true)]
            delta.readable = [piece]
            let record = LogRecord(
                generation: Generation.random(), clock: Clock.next(after: .zero, now: Date()), what: "sync acknowledged by " + piece,
                changes: [], by: nil, sync: delta)
            var numbered = record
            numbered.sequence = 999_999
            let line = ChangeLog.encode(numbered).count
            #expect(!delta.surelyFits(what: record.what, in: line - 1), "\(count) × \(piece.debugDescription)")
            // A few acknowledgements take the quick way.
            if count <= 40 { #expect(delta.surelyFits(what: record.what, in: 1 << 20)) }
        }
    }
}
