import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The sync state (`tasks.json.sync`, the log's sync deltas) is read from `JSONParser`'s tree,
/// not through `JSONDecoder` (110 ms of a quiet sync at 2,000 tasks): it must read each file
/// `JSONEncoder` writes as `JSONDecoder` reads it, and refuse nothing `JSONDecoder` reads.
@Suite("The sync state read from the parser's tree")
struct SyncStateReadingTests {
    /// A base with every kind of value: all shared fields set and cleared, an ETag and none, a
    /// sort order, tentative and moved entries, unreadable members and a set of calendars' lists.
    static func base() -> SyncBase {
        var task = Fixtures.task("Pay rent \"now\"\n\tplease", id: 1, completed: true, hours: 1)
        task.due = DueDate(text: "2026-12-01T09:30", zone: "Europe/Berlin")
        task.note = "Line one\n\tindented ✓"
        task.tags = ["home", "@phone"]
        task.repeatRule = RepeatRule(rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;COUNT=5")!
        task.list = "Work"
        task.parent = Fixtures.id(2)
        var base = SyncBase(collection: "https://dav.example/cal/work/")
        base.server = CollectionVersion(ctag: "c-1", syncToken: nil)
        var full = SyncBase.Entry(
            uid: "u1", href: "/cal/work/u1.ics", etag: "\"e-1\"", fields: SharedFields(task), orderKey: "a0V", clocks: "1.0 2.0",
            calendar: "BEGIN:VCALENDAR\r\nX-Ü:😀\r\nEND:VCALENDAR\r\n", tentative: true)
        full.sortOrder = 600_000_123
        full.movedFrom = "/cal/home/u1.ics"
        base.entries[task.id.uuidString.lowercased()] = full
        let plain = Fixtures.task("Buy milk", id: 3, hours: 2)
        base.entries[plain.id.uuidString.lowercased()] = SyncBase.Entry(
            uid: "u3", href: "/cal/work/u3.ics", etag: nil, fields: SharedFields(plain), orderKey: "a1", clocks: "2.0", calendar: "")
        base.unreadable = ["/cal/work/bad.ics": SyncBase.Unreadable(etag: nil, reason: "no END:VCALENDAR", named: true)]
        base.lists = SyncBase.SyncedLists(byCalendar: ["https://dav.example/cal/work/": "Work"], names: ["Tasks", "Work"])
        return base
    }

    @Test func aBaseReadsFromTheTreeAsJSONDecoderReadsIt() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = Array(try encoder.encode(Self.base()))
        let tree = try JSONValueDecoder.decodeTree(SyncBase.self, from: bytes)
        #expect(tree == (try JSONDecoder().decode(SyncBase.self, from: Data(bytes))))
        #expect(tree == Self.base())
        // Pretty and unsorted, as a person or another version may leave it.
        encoder.outputFormatting = [.prettyPrinted]
        #expect(try JSONValueDecoder.decodeTree(SyncBase.self, from: Array(try encoder.encode(Self.base()))) == Self.base())
    }

    @Test func aDeltaReadsFromTheTreeAsJSONDecoderReadsIt() throws {
        var delta = SyncDelta(collection: "https://dav.example/cal/work/", reset: true, server: CollectionVersion(ctag: nil, syncToken: "t-9"))
        delta.set = Self.base().entries
        delta.dropped = ["k1", "k2"]
        delta.unreadable = Self.base().unreadable
        delta.readable = ["/cal/work/fixed.ics"]
        delta.lists = Self.base().lists
        let tree = try JSONValueDecoder.decodeTree(SyncDelta.self, from: Array(delta.json.utf8))
        #expect(tree == delta)
        #expect(SyncDelta(json: delta.json) == delta)
    }

    @Test func whatTheTreeCannotReadExactlyIsReadByJSONDecoderAndDamageIsRefused() throws {
        var base = Self.base()
        let key = try #require(base.entries.keys.sorted().first)
        base.entries[key]?.sortOrder = Int.max
        let bytes = Array(try JSONEncoder().encode(base))
        #expect(throws: (any Error).self) { try JSONValueDecoder.decodeTree(SyncBase.self, from: bytes) }
        #expect(try JSONValueDecoder.decode(SyncBase.self, from: bytes) == base, "past 2^53: read exactly, by JSONDecoder")
        let cut = Array(bytes.dropLast(5))
        #expect(throws: (any Error).self) { try JSONValueDecoder.decode(SyncBase.self, from: cut) }
        let wrongKind = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""uid":"u1""#, with: #""uid":1"#).utf8)
        #expect(throws: (any Error).self) { try JSONValueDecoder.decode(SyncBase.self, from: wrongKind) }
    }

    /// Read ahead while the network answers, the base is taken only while the file is still the
    /// one read: written again meanwhile (a compaction, another sync), it is read again.
    @Test func aBaseReadAheadIsTakenOnlyWhileTheFileIsTheOneRead() throws {
        let folder = TemporaryFolder()
        let store = TaskStore(path: folder.storePath)
        try Self.base().save(besides: store)
        store.readSyncStateAhead()
        #expect(try SyncBase.readFile(besides: store) == Self.base())
        store.readSyncStateAhead()
        var changed = Self.base()
        changed.server = CollectionVersion(ctag: "c-2", syncToken: nil)
        try changed.save(besides: store)
        #expect(try SyncBase.readFile(besides: store) == changed, "the file written since, not the one read ahead")
        #expect(SyncBaseAhead.shared.take(SyncBase.path(besides: store)) == nil, "taken once")
    }
}
