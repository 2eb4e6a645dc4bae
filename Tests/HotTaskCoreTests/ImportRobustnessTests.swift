import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Property test of the import parser (the CI-sized sibling of `make fuzz`): mutated copies of
/// the seed corpus are either refused with a `DocumentError` or give tasks that obey the rules.
@Suite("Import robustness")
struct ImportRobustnessTests {
    static let seedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FuzzCorpus/import")

    static func seeds() throws -> [[UInt8]] {
        try FileManager.default.contentsOfDirectory(atPath: seedFolder.path).sorted().map {
            Array(try Data(contentsOf: seedFolder.appendingPathComponent($0)))
        }
    }

    static func mutate(_ bytes: [UInt8], _ generator: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !bytes.isEmpty else { return [UInt8.random(in: 0...255, using: &generator)] }
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
            case 1: bytes.removeSubrange(at...)
            case 2: bytes.insert(contentsOf: Array("\\u0000[{\"\u{1B}".utf8).shuffled(using: &generator).prefix(3), at: at)
            case 3: bytes.remove(at: at)
            default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 40)], at: at)
            }
        }
        return bytes
    }

    @Test func theSeedCorpusImports() throws {
        let seeds = try Self.seeds()
        #expect(seeds.count >= 4)
        for seed in seeds { #expect(throws: Never.self) { try ImportBatch.parse(seed) } }
    }

    @Test func mutatedInputIsRefusedCleanlyOrObeysTheRules() throws {
        var generator = SeededGenerator(seed: 2026)
        let seeds = try Self.seeds()
        var accepted = 0
        for _ in 0..<4_000 {
            let input = Self.mutate(seeds.randomElement(using: &generator)!, &generator)
            guard let batch = try? ImportBatch.parse(input) else { continue }
            accepted += 1
            #expect(Set(batch.tasks.map(\.id)).count == batch.tasks.count, "ids are unique")
            for task in batch.tasks {
                #expect(try CaptionRule.clean(task.caption) == task.caption)
                #expect(task.completed == (task.completedAt != nil))
            }
            var list = TaskList()
            _ = list.merge(batch)
            #expect(
                try StoreDocument.decode(StoreDocument.encode(list)).list.shown.map(\.withoutOrder) == list.shown.map(\.withoutOrder),
                "what is accepted round-trips")
        }
        #expect(accepted > 0, "some mutations stay valid, so the checks above ran")
    }

    @Test func theFastStoreReaderNeverAcceptsWhatTheStrictOneRefuses() throws {
        var generator = SeededGenerator(seed: 63)
        var list = Fixtures.sampleList()
        list.insertOnTop(Fixtures.task("Quote \" and backslash \\ then é 🥛", id: 40))
        let valid = StoreDocument.encode(list, header: SnapshotHeader(generation: Generation.random(), clock: Clock(milliseconds: 5), list: list))
        var fastAccepted = 0
        for round in 0..<4_000 {
            let input = round == 0 ? valid : Self.mutate(valid, &generator)
            guard let fast = JSONParser.decodeStoreFast(input) else { continue }
            fastAccepted += 1
            #expect(try StoreDocument.decodeStrictly(input) == fast, "\(String(decoding: input, as: UTF8.self))")
        }
        #expect(fastAccepted > 1, "the fast path was exercised")
    }

    /// A store over 1 MB is read by two threads in segments, the first from the middle, the
    /// others each from a task object further on: whole, it reads as the strict parser reads
    /// it; damaged anywhere in its second half (where a segment starts, or the one before must
    /// arrive), it is refused or read the same as the strict parser reads it, never
    /// differently. A third of its tasks are deleted: the later segments start among their
    /// tombstones, another array of task objects, and must be dropped.
    @Test func aLargeStoreReadByTwoThreadsReadsAsTheStrictParserReadsIt() throws {
        var tasks: [TaskItem] = []
        for number in 0..<6_000 {
            tasks.append(
                Fixtures.task(
                    "Task \(number) with \"quotes\", é and 🥛 \(String(repeating: "x", count: number % 50))", id: 100 + number,
                    section: number % 3 == 0 ? .bonus : .priority, completed: number % 4 == 0, hours: number % 24))
        }
        var list = TaskList(tasks)
        for (number, task) in tasks.enumerated() where number % 3 == 1 { _ = list.apply(.delete(task), clock: Clock(milliseconds: 9)) }
        let valid = StoreDocument.encode(list, header: SnapshotHeader(generation: Generation.random(), clock: Clock(milliseconds: 9), list: list))
        #expect(valid.count > 1 << 20)
        let deleted = try #require(valid.firstRange(of: Array("\"deleted\": [".utf8))).lowerBound
        #expect(deleted < valid.count * 3 / 4, "the later segments start among the tombstones")
        let whole = try #require(JSONParser.decodeStoreFast(valid))
        #expect(whole == (try StoreDocument.decodeStrictly(valid)))
        #expect(whole.list.count == 4_000 && whole.list.deleted.count == 2_000)
        var generator = SeededGenerator(seed: 1414)
        var refused = 0
        for round in 0..<32 {
            var input = valid
            // Half near the middle, where the first segment starts; half anywhere after it.
            let middle =
                round % 2 == 0
                ? input.count / 2 + Int.random(in: -2_000...40_000, using: &generator)
                : Int.random(in: input.count / 2..<input.count - 64, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: input[middle] = UInt8(ascii: "{")
            case 1: input.insert(contentsOf: Array(",\n    {\"id\": 1}".utf8), at: middle)
            case 2: input.remove(at: middle)
            default: input[middle] = UInt8.random(in: 0...255, using: &generator)
            }
            guard let fast = JSONParser.decodeStoreFast(input) else {
                refused += 1
                continue
            }
            #expect(fast == (try? StoreDocument.decodeStrictly(input)))
        }
        #expect(refused > 0)
    }

    /// The second thread's tasks come back in pieces of 4,096, joined one by one. A document
    /// lists Top Priority first, and the second thread starts near the middle: with 16,500
    /// priority tasks of 24,000 its half holds about 4,500 of them and all 7,500 bonus ones,
    /// more than one piece of each. Without order keys (an export, or a version 1 store) the
    /// array's order is the list's order, and it is kept.
    @Test func aStoreWhoseSecondHalfSpansSeveralPiecesKeepsItsOrder() throws {
        let tasks = (0..<24_000).map { number in
            Fixtures.task("Task \(number)", id: 100 + number, section: number % 16 < 11 ? .priority : .bonus, hours: number % 24)
        }
        let list = TaskList(tasks)
        let keyed = String(decoding: StoreDocument.encode(list), as: UTF8.self)
        let document = Array(
            keyed.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("\"order\":") }.joined(separator: "\n").utf8)
        #expect(document.count > 2 << 20)
        let fast = try #require(JSONParser.decodeStoreFast(document))
        #expect(fast.list.priority.map(\.caption) == list.priority.map(\.caption))
        #expect(fast.list.bonus.map(\.caption) == list.bonus.map(\.caption))
        #expect(fast == (try StoreDocument.decodeStrictly(document)))
    }

    /// A large snapshot is written in runs by two threads: the pieces together are what one
    /// thread writes, read back as the list, and every index entry points at its task's object.
    @Test func aLargeSnapshotWrittenByTwoThreadsIsTheDocumentOneThreadWrites() throws {
        var tasks: [TaskItem] = []
        for number in 0..<24_000 {
            tasks.append(
                Fixtures.task(
                    "Task \(number) \"q\" é", id: 100 + number, section: number % 3 == 0 ? .bonus : .priority, completed: number % 4 == 0))
        }
        var list = TaskList(tasks)
        _ = list.apply(.delete(tasks[5]), clock: Clock(milliseconds: 9))
        let header = SnapshotHeader(generation: Generation.random(), clock: Clock(milliseconds: 9), list: list)
        var pieces: [[UInt8]] = []
        let entries = StoreDocument.write(list, header: header, pieceSize: 64 << 10, twoThreads: true) { pieces.append($0) }
        #expect(pieces.count > 10, "the tasks went out in runs")
        let document = Array(pieces.joined())
        var oneThread: [UInt8] = []
        let oneThreadEntries = StoreDocument.write(list, header: header, twoThreads: false) { oneThread.append(contentsOf: $0) }
        #expect(oneThread == document)
        #expect(oneThreadEntries == entries)
        #expect(try StoreDocument.decodeStrictly(document) == StoreSnapshot(header: header, list: list))
        #expect(entries.map(\.id) == list.all.map(\.id))
        for (entry, task) in zip(entries, list.all) {
            var writer = JSONWriter()
            StoreDocument.write(task, to: &writer)
            #expect(Array(document[entry.offset..<entry.offset + entry.length]) == writer.bytes)
        }
    }

    /// A Taskwarrior export over 1 MB is read by two threads in segments too: whole, or damaged
    /// anywhere in its second half, the result is refused or the strict path's, losses included.
    @Test func aLargeTaskwarriorExportReadByTwoThreadsReadsAsTheStrictPathReadsIt() throws {
        let now = TaskwarriorSample.date("20261201T000000Z")
        var lines: [String] = []
        for number in 0..<7_000 {
            let status = ["pending", "completed", "waiting", "deleted", "pending"][number % 5]
            let uuid = String(format: "a1b2c3d4-0000-4000-8000-%012x", number)
            var line =
                #"{"id":\#(number),"description":"Task \#(number) \"quoted\" é 🥛","entry":"20261119T080000Z","status":"\#(status)","uuid":"\#(uuid)""#
            if number % 3 == 0 { line += #","priority":"H","tags":["a","b"]"# }
            if status == "completed" { line += #","end":"20261120T080000Z""# }
            lines.append(line + "}")
        }
        let valid = Array(("[\n" + lines.joined(separator: ",\n") + "\n]\n").utf8)
        #expect(valid.count > 1 << 20)
        func strict(_ input: [UInt8]) -> ImportBatch? {
            guard case .array(let items)? = try? JSONParser.parse(input) else { return nil }
            return try? TaskwarriorFormat.batch(from: items.enumerated().map { ("task \($0.offset + 1)", $0.element) }, now: now)
        }
        let whole = try #require(JSONParser.decodeTaskwarriorFast(valid, now: now))
        #expect(whole == strict(valid))
        #expect(whole.tasks.count == 5_600 && whole.skipped == 1_400 && whole.losses.droppedFields["tags"] == nil)
        #expect(whole.tasks.count { $0.tags == ["a", "b"] } == 1_867)
        var generator = SeededGenerator(seed: 1415)
        var refused = 0
        for round in 0..<24 {
            var input = valid
            // Half near the middle, where the first segment starts; half anywhere after it.
            let middle =
                round % 2 == 0
                ? input.count / 2 + Int.random(in: -2_000...40_000, using: &generator)
                : Int.random(in: input.count / 2..<input.count - 64, using: &generator)
            switch round % 3 {
            case 0: input[middle] = UInt8(ascii: "{")
            case 1:
                let at = input[middle...].firstIndex(of: UInt8(ascii: "{")) ?? middle
                input.insert(contentsOf: Array(lines[7].utf8) + Array(",\n".utf8), at: at)
            default: input.remove(at: middle)
            }
            guard let fast = JSONParser.decodeTaskwarriorFast(input, now: now) else {
                refused += 1
                continue
            }
            #expect(fast == strict(input))
        }
        #expect(refused > 0)
    }

    /// The Taskwarrior reader that goes straight to tasks either gives up or gives exactly
    /// what the strict path (a JSON tree, then `TaskwarriorFormat`) gives, losses included.
    @Test func theFastTaskwarriorReaderAgreesWithTheStrictOne() throws {
        var generator = SeededGenerator(seed: 14)
        let now = TaskwarriorSample.date("20261201T000000Z")
        let extra =
            #"{"description":"Quote \" and \\ then \u00e9 🥛","entry":"20261119T080000Z","end":null,"status":"pending","uuid":"A1B2C3D4-0000-4000-8000-00000000000F","project":"home","tags":["a","b"],"annotations":[]}"#
        let valid = Array(("[\n" + (TaskwarriorSample.all + [extra]).joined(separator: ",\n") + "\n]\n").utf8)
        func strict(_ input: [UInt8]) -> ImportBatch? {
            guard case .array(let items)? = try? JSONParser.parse(input) else { return nil }
            return try? TaskwarriorFormat.batch(from: items.enumerated().map { ("task \($0.offset + 1)", $0.element) }, now: now)
        }
        var fastAccepted = 0
        for round in 0..<4_000 {
            let input = round == 0 ? valid : Self.mutate(valid, &generator)
            guard let fast = JSONParser.decodeTaskwarriorFast(input, now: now) else { continue }
            fastAccepted += 1
            #expect(strict(input) == fast, "\(String(decoding: input, as: UTF8.self))")
        }
        #expect(fastAccepted > 1, "the fast path was exercised")
        let batch = try #require(JSONParser.decodeTaskwarriorFast(valid, now: now))
        #expect(batch.tasks.count == 5 && batch.skipped == 2, "the sample is taken by the fast path, not given up on")
    }

    /// A large batch of adds skips the id index when every id is new. Whatever the batch (ids
    /// new, already here, deleted here, or given twice), the list after it is the one that
    /// applying its changes one by one gives.
    @Test func aLargeBatchOfAddsEndsAsOneByOneChangesEnd() {
        var generator = SystemRandomNumberGenerator()
        let clock = Clock(milliseconds: 5_000)
        for round in 0..<12 {
            var start = TaskList()
            for number in 0..<Int.random(in: 0..<300, using: &generator) {
                start.apply(
                    .add(Fixtures.task("here \(number)", id: number, section: number % 3 == 0 ? .bonus : .priority)), clock: Clock(milliseconds: 10))
            }
            // Some tasks deleted before (an add older than the delete must stay deleted).
            for task in start.all.prefix(20) { start.apply(.delete(task), clock: Clock(milliseconds: round % 2 == 0 ? 20 : 9_000)) }
            var changes: [TaskChange] = []
            for number in 0..<1_500 {
                // Round 0–3: all new; 4–7: some already here or deleted; 8–11: some given twice.
                let id = round < 4 ? 10_000 + number : round < 8 && number % 97 == 0 ? number % 300 : 10_000 + (round < 8 ? number : number % 1_400)
                changes.append(
                    .add(Fixtures.task("new \(number) ✓", id: id, section: number % 4 == 0 ? .bonus : .priority, completed: number % 5 == 0)))
            }
            var batched = start
            batched.applyAll(changes, clock: clock)
            var oneByOne = start
            for change in changes { oneByOne.apply(change, clock: clock) }
            #expect(batched == oneByOne, "round \(round)")
            #expect(batched.completedCount == oneByOne.completedCount)
            for task in oneByOne.all.prefix(50) { #expect(batched.task(withID: task.id) == task, "round \(round): found by id") }
        }
    }

    /// Any large batch (a --replace, the undo of one, a sync) is applied in bulk: sets that move
    /// tasks within and across sections, deletes, adds of tasks here, deleted or new, and
    /// several changes to one task end exactly as applying them one by one does.
    @Test func aLargeMixedBatchEndsAsOneByOneChangesEnd() {
        var generator = SystemRandomNumberGenerator()
        let keys = OrderKey.sequence(1_000)
        for round in 0..<10 {
            var start = TaskList()
            for number in 0..<600 {
                start.apply(
                    .add(Fixtures.task("here \(number)", id: number, section: number % 3 == 0 ? .bonus : .priority, completed: number % 7 == 0)),
                    clock: Clock(milliseconds: 10 + Int64(number % 5) * 1_000))
            }
            for task in start.all.prefix(30) { start.apply(.delete(task), clock: Clock(milliseconds: 2_500)) }
            // Some changes are older than the fields they touch (stamped 10 to 4,010).
            let clock = Clock(milliseconds: round % 3 == 0 ? 2_000 : 9_000)
            var changes: [TaskChange] = []
            for _ in 0..<1_500 {
                let id = Fixtures.id(Int.random(in: 0..<700, using: &generator))
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<5:
                    let fields = TaskFields(
                        caption: Bool.random(using: &generator) ? "set \(Int.random(in: 0..<9, using: &generator))" : nil,
                        section: Bool.random(using: &generator) ? (Bool.random(using: &generator) ? .bonus : .priority) : nil,
                        completed: Bool.random(using: &generator) ? Bool.random(using: &generator) : nil, completedAt: Fixtures.date(hours: 3),
                        order: Bool.random(using: &generator) ? keys.randomElement(using: &generator) : nil)
                    changes.append(.set(id, fields, was: TaskFields()))
                case 5..<7:
                    changes.append(.delete(start.task(withID: id) ?? Fixtures.task("gone", id: 0)))
                default:
                    var task = Fixtures.task("added ✓", id: 0, section: Bool.random(using: &generator) ? .bonus : .priority)
                    task.id = id
                    task.order = keys.randomElement(using: &generator)!
                    changes.append(.add(task))
                }
            }
            var batched = start
            batched.applyAll(changes, clock: clock)
            var oneByOne = start
            for change in changes { oneByOne.apply(change, clock: clock) }
            #expect(batched == oneByOne, "round \(round)")
            #expect(batched.completedCount == oneByOne.completedCount, "round \(round)")
            for task in oneByOne.all.prefix(40) { #expect(batched.task(withID: task.id) == task, "round \(round): found by id") }
        }
    }

    /// Every export format is written in pieces; the pieces, however small, join into exactly
    /// the document one piece holds.
    @Test func everyExportFormatInSmallPiecesIsTheWholeDocument() {
        var tasks: [TaskItem] = []
        for number in 0..<300 {
            tasks.append(
                Fixtures.task(
                    "Task \(number) \"q\" é 🥛 \(String(repeating: "long ", count: number % 30))", id: 1 + number,
                    section: number % 3 == 0 ? .bonus : .priority, completed: number % 4 == 0))
        }
        let list = TaskList(tasks)
        let now = Fixtures.date(hours: 500)
        let formats: [(String, (Int, ([UInt8]) -> Void) -> Void)] = [
            ("hottask", { size, emit in StoreDocument.encode(list, pieceSize: size, emit: emit) }),
            ("taskwarrior", { size, emit in TaskwarriorFormat.write(list, pieceSize: size, emit: emit) }),
            ("todotxt", { size, emit in TodoTxtFormat.write(list, pieceSize: size, emit: emit) }),
            ("ics", { size, emit in ICalendarFormat.write(list, now: now, pieceSize: size, emit: emit) }),
        ]
        for (name, write) in formats {
            var whole: [[UInt8]] = []
            write(1 << 30) { whole.append($0) }
            var pieces: [[UInt8]] = []
            write(512) { pieces.append($0) }
            #expect(pieces.count > 20, "\(name) went out in pieces")
            #expect(Array(pieces.joined()) == Array(whole.joined()), "\(name)")
        }
    }
}
