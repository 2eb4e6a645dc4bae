import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The pieces the store read was made faster with, each against the plain definition it
/// replaces: the same answers on random and edge inputs.
@Suite("Load path")
struct LoadPathTests {
    @Test func theIDTableAnswersAsASetDoes() {
        var generator = SeededGenerator(seed: 77)
        for round in 0..<20 {
            // Made for fewer ids than it gets in some rounds, so that it must grow.
            var table = IDTable(count: round % 2 == 0 ? 4 : 3_000)
            var model = Set<UUID>()
            for _ in 0..<2_000 {
                let id = Fixtures.id(Int.random(in: 0..<2_500, using: &generator))
                let inserted = table.insert(id)
                #expect(inserted == model.insert(id).inserted)
            }
            #expect(table.count == model.count)
            for number in 0..<2_600 { #expect(table.contains(Fixtures.id(number)) == model.contains(Fixtures.id(number))) }
            // Ids that differ only in their high or only in their low half are told apart.
            var halves = IDTable(count: 8)
            var allNew = true
            for shift in 0..<64 {
                allNew = halves.insert(UUID(uuid: Self.bytes(high: 1 << UInt64(shift), low: 0))) && allNew
                allNew = halves.insert(UUID(uuid: Self.bytes(high: 0, low: 1 << UInt64(shift)))) && allNew
            }
            #expect(allNew)
            #expect(halves.count == 128)
            let again = halves.insert(UUID(uuid: Self.bytes(high: 0, low: 1 << 9)))
            #expect(!again)
        }
    }

    /// Ids made in patterns (numbered, or differing only in a few bits of one half) spread over
    /// the table as random ones do, whatever the seed: a look-up visits about one slot.
    @Test func idsInAnyPatternSpreadOverTheTable() {
        var generator = SeededGenerator(seed: 19)
        let patterns: [(String, (Int) -> UUID)] = [
            ("numbered", Fixtures.id),
            ("high half", { UUID(uuid: Self.bytes(high: UInt64($0), low: 0)) }),
            ("low half", { UUID(uuid: Self.bytes(high: 0, low: UInt64($0))) }),
            ("low half, high bits", { UUID(uuid: Self.bytes(high: 0, low: UInt64($0) << 40)) }),
            ("random", { _ in UUID(uuid: Self.bytes(high: generator.next(), low: generator.next())) }),
        ]
        // The process's, ones a weak mix fails on (zero, few bits set), and random ones.
        let seeds: [IDTable.Seed] =
            [IDTable.processSeed, (0, 0), (1 << 40, 1 << 40), (0, 1 << 20), (1 << 63, 1 << 63)]
            + (0..<4).map { _ in (generator.next(), generator.next()) }
        for seed in seeds {
            for (name, make) in patterns {
                var table = IDTable(count: 20_000, seed: seed)
                for number in 0..<20_000 { table.insert(make(number)) }
                #expect(table.count == 20_000, "\(name)")
                #expect(table.averageProbeLength < 1.6, "\(name), seed \(seed): \(table.averageProbeLength)")
            }
        }
    }

    @Test func repeatedIDsAreFoundWhereverTheyAre() {
        let ids = (0..<5_000).map(Fixtures.id)
        #expect(IDTable(distinct: ids.count) { add in ids.forEach(add) } != nil)
        for repeated in [0, 1, 2_500, 4_999] {
            let given = ids + [ids[repeated]]
            #expect(IDTable(distinct: given.count) { add in given.forEach(add) } == nil, "id \(repeated) given twice")
        }
        let upper = UUID(uuidString: ids[7].uuidString.uppercased())!
        #expect(
            IDTable(distinct: 2) { add in
                add(ids[7])
                add(upper)
            } == nil)
    }

    /// Eight bytes at a time, it stops where a byte-by-byte scan stops, at every offset and
    /// near the end of the buffer.
    @Test func thePlainRunEndsWhereAByteScanEnds() {
        var generator = SeededGenerator(seed: 5)
        let alphabet: [UInt8] = [0x00, 0x09, 0x1F, 0x20, 0x21, 0x22, 0x41, 0x5C, 0x5B, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C }
        for _ in 0..<3_000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<4, using: &generator) == 0 ? alphabet.randomElement(using: &generator)! : UInt8(ascii: "a")
            }
            bytes.withUnsafeBufferPointer { buffer in
                let parser = JSONParser(buffer)
                for start in 0...count {
                    let expected = bytes[start...].firstIndex { !plain($0) } ?? count
                    #expect(parser.firstNotPlain(from: start) == expected, "\(bytes) from \(start)")
                }
            }
        }
    }

    /// Each id through `UUIDBytes.parse` and through one `RepeatedUUID` (the parents' reader,
    /// which keeps the last): the same answers, also for a text read twice in a row.
    @Test func idsParseAsFoundationParsesThem() {
        var generator = SeededGenerator(seed: 11)
        let bytes: [UInt8] = Array("0123456789abcdefABCDEFgG-/:@`{ ".utf8) + [0xC3, 0x00]
        var repeated = RepeatedUUID()
        var previous: [UInt8] = []
        for _ in 0..<20_000 {
            var text = Array(UUID(uuid: Self.bytes(high: generator.next(), low: generator.next())).uuidString.utf8)
            if Bool.random(using: &generator) { text = Array(String(decoding: text, as: UTF8.self).lowercased().utf8) }
            for _ in 0..<Int.random(in: 0...2, using: &generator) {
                let at = Int.random(in: 0..<text.count, using: &generator)
                text[at] = bytes.randomElement(using: &generator)!
            }
            // Now and then the last text again, or one that differs from it in one byte.
            if !previous.isEmpty && Int.random(in: 0..<4, using: &generator) == 0 {
                text = previous
                if Bool.random(using: &generator) { text[Int.random(in: 0..<text.count, using: &generator)] ^= 0x01 }
            }
            previous = text
            let parsed = text.withUnsafeBufferPointer(UUIDBytes.parse)
            #expect(text.withUnsafeBufferPointer { repeated.parse($0) } == parsed)
            // Foundation also takes a space or a dash for a digit: only the strict form counts.
            let strictForm =
                text.count == 36
                && text.indices.allSatisfy { at in
                    [8, 13, 18, 23].contains(at) ? text[at] == UInt8(ascii: "-") : UUIDBytes.nibble(text[at]) != nil
                }
            let expected = strictForm ? UUID(uuidString: String(decoding: text, as: UTF8.self)) : nil
            #expect(parsed == expected, "\(String(decoding: text, as: UTF8.self))")
            if strictForm { #expect(parsed != nil) }
        }
        #expect("00000000-0000-0000-0000-00000000000".utf8.withContiguousStorageIfAvailable(UUIDBytes.parse)! == nil)
    }

    /// Ids and fingerprints are written through a table of digit pairs: each must be the text
    /// Foundation and `String(radix:)` give.
    @Test func idsAndHexAreWrittenAsTheirText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let id = UUID()
            var bytes: [UInt8] = []
            UUIDBytes.append(id, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == id.uuidString.lowercased())
            #expect(UUIDBytes.id(sortKey: UUIDBytes.sortKey(id)) == id)
            let value = UInt64.random(in: .min ... .max, using: &generator) >> UInt64.random(in: 0...63, using: &generator)
            var hex = [UInt8](repeating: 0, count: 16)
            _ = hex.withUnsafeMutableBufferPointer { UUIDBytes.writeHex(value, to: $0.baseAddress!) }
            let text = String(value, radix: 16)
            #expect(String(decoding: hex, as: UTF8.self) == String(repeating: "0", count: 16 - text.count) + text)
        }
    }

    /// What the reader keeps as it stands, judged from the bytes, is exactly what the rule for
    /// kept text (`CaptionRule.kept`) leaves alone, at any length.
    @Test func aCaptionIsKeptAsItIsExactlyWhenTheRuleLeavesItAlone() {
        let ends = [
            "a", " ", "\u{A0}", "\u{3000}", "\u{2003}", "é", "e\u{301}", " \u{301}", "\u{600}a", "\u{600} ", "🥛", "👨‍👩‍👧", "🇫🇷",
            "\u{200D}", "\u{FE0F}", "\u{2028}", "\u{85}", "\t", "\n", "\r\n", "\u{B}", "\u{7F}", "\u{202E}", "\u{E33}", "ก\u{E33}", "✔️",
            "\u{1F3FB}", "\u{1B}[31m",
        ]
        var checked = 0
        for first in ends {
            for last in ends {
                for middle in ["", "x", " ", "é 🥛", "\u{200E}", "line\nbreak"] {
                    let caption = first + middle + last
                    let bytes = Array(caption.utf8)
                    let asItIs = bytes.withUnsafeBufferPointer { CaptionRule.keepsAsItIs($0) }
                    let ruleKeepsIt = CaptionRule.kept(caption) == caption
                    #expect(asItIs == ruleKeepsIt, "\(caption.unicodeScalars.map { String($0.value, radix: 16) })")
                    checked += asItIs ? 1 : 0
                }
            }
        }
        #expect(checked > 100, "some are kept as they are, so both answers were seen")
        let long = String(repeating: "é\n\t", count: 6_000)
        #expect(Array(long.utf8).withUnsafeBufferPointer { CaptionRule.keepsAsItIs($0) })
    }

    /// Captions at the edges of the reader's shortcuts read as the strict reader reads them,
    /// or are refused by both: lengths, spaces and other whitespace at the ends, controls and
    /// marks the rule drops, raw control bytes (not JSON), and escapes.
    @Test func storedCaptionsAtTheEdgesReadAsTheStrictReaderReadsThem() throws {
        let captions = [
            "", " ", "a", " a", "a ", "  a  b  ", String(repeating: "a", count: 1_000), String(repeating: "a", count: 1_001),
            " " + String(repeating: "a", count: 1_000), String(repeating: "é", count: 500), String(repeating: "é", count: 1_000),
            String(repeating: "é", count: 1_001), "\u{3000}x", "x\u{A0}", "x\u{2003}", "\u{7F}x", "x\u{85}y", "a\u{200E}b",
            "\u{202E}abc", "e\u{301}", " \u{301}x", "✔️", "🥛 milk", "milk 🥛",
        ]
        let escaped = ["tab\\there", "quote \\\" in", "\\u00e9t\\u00e9", "back\\\\slash", "\\u0001x", "line\\nbreak", "raw\ttab", "raw\nline"]
        var read = 0
        for caption in (captions + escaped).map({ Array($0.utf8) }) {
            let task =
                "{\"id\": \"f0000001-0000-4000-8000-000000000001\", \"caption\": \"" + String(decoding: caption, as: UTF8.self)
                + "\", \"section\": \"priority\", \"completed\": false, \"createdAt\": \"2026-01-01T00:00:00Z\"}"
            let document = Array("{\"version\": 1, \"tasks\": [\n  \(task)\n]}\n".utf8)
            let fast = JSONParser.decodeStoreFast(document)
            let strict = try? StoreDocument.decodeStrictly(document)
            #expect(fast == nil || fast == strict, "\(String(decoding: caption, as: UTF8.self).unicodeScalars.map { $0.value })")
            if fast != nil { read += 1 }
        }
        #expect(read > 15, "the fast reader read most of them")
    }

    @Test func orderKeysCompareAsTheirBytes() {
        var generator = SeededGenerator(seed: 3)
        let keys = OrderKey.sequence(300) + OrderKey.sequence(40, after: OrderKey.sequence(1)[0]) + [OrderKey.middle]
        for _ in 0..<20_000 {
            let a = keys.randomElement(using: &generator)!
            let b = keys.randomElement(using: &generator)!
            #expect((a < b) == a.text.utf8.lexicographicallyPrecedes(b.text.utf8), "\(a) \(b)")
        }
    }

    /// The log is replayed a run of records at a time, their tasks found through an index of
    /// those tasks alone; a bulk record between runs finds its own. The list ends as applying
    /// every change one by one ends, and every task is still found by id after.
    @Test func aReplayOfManyRecordsEndsAsOneByOneChangesEnd() {
        var generator = SeededGenerator(seed: 2027)
        let keys = OrderKey.sequence(500)
        for round in 0..<6 {
            var start = TaskList()
            for number in 0..<400 {
                start.apply(
                    .add(Fixtures.task("here \(number)", id: number, section: number % 3 == 0 ? .bonus : .priority)),
                    clock: Clock(milliseconds: 10))
            }
            start = TaskList(start.all)  // as read from a file: no id index
            var records: [(changes: [TaskChange], clock: Clock)] = []
            for record in 0..<40 {
                let size = round % 2 == 0 && record == 20 ? TaskList.bulkBatch : Int.random(in: 1...6, using: &generator)
                var changes: [TaskChange] = []
                for _ in 0..<size {
                    let id = Fixtures.id(Int.random(in: 0..<450, using: &generator))
                    switch Int.random(in: 0..<6, using: &generator) {
                    case 0..<3:
                        let fields = TaskFields(
                            caption: "set \(record)", section: Bool.random(using: &generator) ? .bonus : nil,
                            order: Bool.random(using: &generator) ? keys.randomElement(using: &generator) : nil)
                        changes.append(.set(id, fields, was: TaskFields()))
                    case 3:
                        var gone = Fixtures.task("gone", id: 0)
                        gone.id = id
                        changes.append(.delete(gone))
                    default:
                        var task = Fixtures.task("added \(record)", id: 0, section: .priority)
                        task.id = id
                        task.order = keys.randomElement(using: &generator)!
                        changes.append(.add(task))
                    }
                }
                records.append((changes, Clock(milliseconds: 100 + Int64(record))))
            }
            var replayed = start
            replayed.applyAll(records: records)
            var oneByOne = start
            for record in records { for change in record.changes { oneByOne.apply(change, clock: record.clock) } }
            #expect(replayed == oneByOne, "round \(round)")
            #expect(replayed.completedCount == oneByOne.completedCount)
            for task in oneByOne.all { #expect(replayed.task(withID: task.id) == task, "round \(round): found by id") }
        }
    }

    /// A store whose log holds more records than are found by a scan each: read back, it is the
    /// list the commits made, and the next read after a change by id agrees.
    @Test func aStoreWithManyRecordsInItsLogReadsAsItsCommitsMadeIt() throws {
        let folder = TemporaryFolder()
        let store = TaskStore(path: folder.storePath)
        try store.save(TaskList((0..<300).map { Fixtures.task("Task \($0)", id: $0, section: $0 % 3 == 0 ? .bonus : .priority) }))
        var expected = try store.load()
        for number in 0..<40 {
            let change: TaskChange
            switch number % 4 {
            case 0: change = .add(Fixtures.task("Added \(number)", id: 1_000 + number, section: .bonus))
            case 1: change = .delete(try #require(expected.task(withID: Fixtures.id(number * 7))))
            default:
                change = .set(
                    Fixtures.id(number * 7 + 1), TaskFields(caption: "Changed \(number)", section: number % 3 == 0 ? .bonus : .priority),
                    was: TaskFields())
            }
            let commit = try store.commit([change], what: "change \(number)")
            expected.apply(change, clock: commit.clock)
            #expect(commit.list == expected, "commit \(number)")
        }
        let state = try store.read()
        #expect(state.replayed == 40, "the records are in the log, not folded into the snapshot")
        #expect(state.list == expected)
        #expect(state.list.completedCount == expected.completedCount)
        for task in expected.all { #expect(state.list.task(withID: task.id) == task) }
    }

    /// A commit of many changes whose `was` values the caller did not know (a script's batch)
    /// logs the values each replaced, found through the index of the tasks it names; tasks it
    /// does not name are untouched.
    @Test func aCommitOfManyChangesLogsTheValuesTheyReplaced() throws {
        let folder = TemporaryFolder()
        let store = TaskStore(path: folder.storePath)
        try store.save(TaskList((0..<200).map { Fixtures.task("Task \($0)", id: $0, section: $0 % 2 == 0 ? .bonus : .priority) }))
        let before = try store.load()
        let changes = (0..<40).map { number in
            TaskChange.set(Fixtures.id(number * 3), TaskFields(caption: "Renamed \(number)", section: .priority), was: TaskFields())
        }
        let commit = try store.commit(changes, what: "batch")
        let record = try #require(commit.record)
        for (number, change) in record.changes.enumerated() {
            let task = try #require(before.task(withID: Fixtures.id(number * 3)))
            guard case .set(let id, let fields, let was) = change else {
                Issue.record("change \(number) is not a set")
                continue
            }
            #expect(id == task.id)
            #expect(was == fields.values(in: task), "change \(number)")
        }
        let after = try store.load()
        for number in 0..<200 where number % 3 != 0 || number >= 120 {
            #expect(after.task(withID: Fixtures.id(number)) == before.task(withID: Fixtures.id(number)))
        }
        #expect(after.task(withID: Fixtures.id(3))?.caption == "Renamed 1")
    }

    private static func bytes(high: UInt64, low: UInt64) -> uuid_t {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { raw in
            raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return value
    }
}
