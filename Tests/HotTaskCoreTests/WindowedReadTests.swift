import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The store (and a HotTask document to import) is read from its file through a window that
/// slides along it, one per thread, instead of being held whole. Whatever the window's size,
/// the result must be exactly what reading the same bytes from memory gives: the same list, or
/// the same refusal (which sends the file to the strict path).
@Suite("Reading through a window")
struct WindowedReadTests {
    let folder = TemporaryFolder()

    /// Decodes `bytes` from a file through windows of `size` bytes.
    func readThroughWindow(_ bytes: [UInt8], size: Int) throws -> StoreSnapshot? {
        let path = folder.path("document-\(size).json")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try FileSystem.OpenFile(path)
        return JSONParser.decodeStoreFast(file, limit: StoreLimits.readBytes, windowSize: size)
    }

    /// A snapshot over 1 MB (read by two threads), with a task whose caption is larger than the
    /// smallest window, escapes, emoji, completed tasks and a tombstone.
    static func largeSnapshot() -> [UInt8] {
        var tasks: [TaskItem] = []
        for number in 0..<5_000 {
            tasks.append(
                Fixtures.task(
                    "Task \(number) with \"quotes\", é and 🥛 \(String(repeating: "x", count: number % 50))", id: 100 + number,
                    section: number % 3 == 0 ? .bonus : .priority, completed: number % 4 == 0, hours: number % 24))
        }
        tasks[2_500].caption = String(repeating: "🥛", count: 995)  // 3,980 bytes
        var list = TaskList(tasks)
        _ = list.apply(.delete(tasks[17]), clock: Clock(milliseconds: 9))
        return StoreDocument.encode(list, header: SnapshotHeader(generation: Generation.random(), clock: Clock(milliseconds: 9), list: list))
    }

    /// A Taskwarrior export over 1 MB (read by two threads), with a description larger than the
    /// smallest window, escapes, fields HotTask carries, and tasks it skips.
    static func largeTaskwarriorExport() -> [UInt8] {
        var lines: [String] = []
        for number in 0..<6_000 {
            let id = String(format: "%012x", number)
            let description = number == 3_000 ? String(repeating: "🥛", count: 995) : "Task \(number) with \\\"quotes\\\", é and 🥛"
            let status = number % 97 == 0 ? "deleted" : number % 5 == 0 ? "completed" : "pending"
            let extra = number % 3 == 0 ? #","tags":["home","t\#(number % 7)"],"project":"work.q4""# : ""
            let end = status == "completed" ? #","end":"20261121T100000Z""# : ""
            lines.append(
                #"{"uuid":"00000000-0000-4000-8000-\#(id)","description":"\#(description)","status":"\#(status)","entry":"20261120T100000Z"\#(end)\#(extra)}"#
            )
        }
        return Array(("[\n" + lines.joined(separator: ",\n") + "\n]\n").utf8)
    }

    @Test("a Taskwarrior export reads the same through windows of any size as from memory, on one thread or two")
    func aTaskwarriorExportReadsAsMemoryThroughAnyWindow() throws {
        let bytes = Self.largeTaskwarriorExport()
        let fromMemory = try #require(JSONParser.decodeTaskwarriorFast(bytes, now: Fixtures.date(hours: 0)))
        for size in [4096, 1 << 16, 1 << 20, 8 << 20] {
            let path = folder.path("export-\(size).json")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let file = try FileSystem.OpenFile(path)
            let windowed = try #require(
                try JSONParser.decodeTaskwarriorFast(file, limit: StoreLimits.readBytes, windowSize: size, now: Fixtures.date(hours: 0)))
            #expect(windowed.tasks == fromMemory.tasks, "window \(size)")
            #expect(windowed.carried == fromMemory.carried && windowed.skipped == fromMemory.skipped, "window \(size)")
        }
        // Cut short, it gives up through a window as from memory.
        let cut = Array(bytes[0..<(bytes.count - 40)])
        let path = folder.path("export-cut.json")
        try Data(cut).write(to: URL(fileURLWithPath: path))
        #expect(JSONParser.decodeTaskwarriorFast(cut) == nil)
        #expect(try JSONParser.decodeTaskwarriorFast(try FileSystem.OpenFile(path), limit: StoreLimits.readBytes, windowSize: 4096) == nil)
    }

    @Test("a store reads the same through windows of any size as from memory, on one thread or two")
    func anyWindowReadsAsMemory() throws {
        let large = Self.largeSnapshot()
        #expect(large.count > 1 << 20, "large enough for the second thread")
        let small = StoreDocument.encode(Fixtures.sampleList())
        for document in [large, small] {
            let fromMemory = try #require(JSONParser.decodeStoreFast(document))
            #expect(fromMemory == (try StoreDocument.decodeStrictly(document)))
            // 4 KB is smaller than one task (the long caption's): the window must grow.
            for size in [4 << 10, 64 << 10, 1 << 20] {
                #expect(try readThroughWindow(document, size: size) == fromMemory, "window of \(size) bytes")
            }
        }
    }

    @Test("damage anywhere is refused through a window exactly when it is refused from memory")
    func damageIsJudgedAsFromMemory() throws {
        let valid = Self.largeSnapshot()
        var generator = SeededGenerator(seed: 2211)
        var refused = 0
        for round in 0..<16 {
            var input = valid
            // Half near the middle, where the second thread starts; half anywhere.
            let at =
                round % 2 == 0
                ? input.count / 2 + Int.random(in: -2_000...40_000, using: &generator)
                : Int.random(in: 0..<input.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: input[at] = UInt8(ascii: "{")
            case 1: input.insert(contentsOf: Array(",\n    {\"id\": 1}".utf8), at: at)
            case 2: input.remove(at: at)
            case 3: input.removeSubrange(at...)  // cut short, as a torn copy is
            default: input[at] = UInt8.random(in: 0...255, using: &generator)
            }
            let fromMemory = JSONParser.decodeStoreFast(input)
            if fromMemory == nil { refused += 1 }
            for size in [4 << 10, 1 << 20] {
                #expect(try readThroughWindow(input, size: size) == fromMemory, "round \(round), window of \(size) bytes")
            }
        }
        #expect(refused > 0)
    }

    @Test("an id given twice in a store large enough to be checked on the other thread is refused, wherever the two are")
    func anIDGivenTwiceInALargeStoreIsRefused() throws {
        var tasks: [TaskItem] = []
        for number in 0..<24_000 {
            tasks.append(Fixtures.task("Task \(number)", id: 100 + number, section: number % 3 == 0 ? .bonus : .priority))
        }
        var list = TaskList(tasks)
        _ = list.apply(.delete(tasks[23_990]), clock: Clock(milliseconds: 9))
        #expect(StoreDocument.twoThreads(count: list.count), "large enough for the check beside the list's making")
        let valid = String(
            decoding: StoreDocument.encode(list, header: SnapshotHeader(generation: Generation.random(), clock: Clock(milliseconds: 9), list: list)),
            as: UTF8.self)
        let read = try #require(JSONParser.decodeStoreFast(Array(valid.utf8)))
        #expect(read.list == list)
        // Both in the first half, across the halves, both in the second, and a task and a tombstone.
        for (kept, given) in [(5, 70), (10, 20_000), (16_000, 23_000), (23_990, 1)] {
            let text = valid.replacingOccurrences(
                of: "\"\(Fixtures.id(100 + given).uuidString.lowercased())\"", with: "\"\(Fixtures.id(100 + kept).uuidString.lowercased())\"")
            #expect(text != valid)
            // Whether refused, not the list read (100,000 characters in a failure's message).
            let refused = JSONParser.decodeStoreFast(Array(text.utf8)) == nil
            let refusedThroughAWindow = try readThroughWindow(Array(text.utf8), size: 1 << 20) == nil
            #expect(refused && refusedThroughAWindow, "task \(given) given the id of \(kept)")
            if given == 1 { #expect(throws: DocumentError.self) { try StoreDocument.decodeStrictly(Array(text.utf8)) } }
        }
    }

    @Test("whitespace after the document is read to the end; anything else after it is refused")
    func whatFollowsTheDocument() throws {
        let document = StoreDocument.encode(Fixtures.sampleList())
        let fromMemory = try #require(JSONParser.decodeStoreFast(document))
        let spaces = [UInt8](repeating: 0x20, count: 100_000)
        #expect(try readThroughWindow(document + spaces, size: 4 << 10) == fromMemory)
        #expect(try readThroughWindow(document + spaces + Array("x".utf8), size: 4 << 10) == nil)
        #expect(try readThroughWindow(document + Array("{}".utf8), size: 4 << 10) == nil)
    }

    @Test("a store whose snapshot the fast reader refuses is still read, or refused with the strict reader's reason")
    func aRefusedSnapshotGoesToTheStrictPath() throws {
        let store = TaskStore(path: folder.storePath)
        // Valid JSON the fast reader does not take (a key written with an escape).
        let list = Fixtures.sampleList()
        var text = String(decoding: StoreDocument.encode(list), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"caption\"", with: "\"capti\\u006fn\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(JSONParser.decodeStoreFast(Array(text.utf8)) == nil)
        #expect(try store.load().shown.map(\.caption) == list.shown.map(\.caption))
        // Cut short: the message is the strict parser's, naming where the text ends.
        try Data(text.utf8.prefix(text.utf8.count - 40)).write(to: URL(fileURLWithPath: store.path))
        do {
            _ = try store.load()
            Issue.record("a snapshot cut short was read")
        } catch {
            #expect("\(error)".contains("not valid JSON"), "\(error)")
        }
    }

    @Test("Array.rearrange puts self[order[i]] at i, for any permutation")
    func rearrangeIsAGather() {
        var generator = SeededGenerator(seed: 77)
        for count in [0, 1, 2, 3, 10, 257] {
            for _ in 0..<20 {
                let values = (0..<count).map { "value \($0)" }
                let order = Array(0..<count).shuffled(using: &generator)
                var rearranged = values
                rearranged.rearrange(takingFrom: order)
                #expect(rearranged == order.map { values[$0] })
            }
        }
    }
}

/// The import base is kept sorted by id, one entry an id: it must answer as the hash table it
/// replaced did, where each recorded entry replaced the one before for its id.
@Suite("Import base")
struct ImportBaseTests {
    let folder = TemporaryFolder()

    @Test("recording, saving and loading keep the last word on each id, as a dictionary does")
    func lastWordWins() throws {
        var generator = SeededGenerator(seed: 4242)
        let store = TaskStore(path: folder.storePath)
        var model: [UUID: ImportBase.Entry] = [:]
        var base = ImportBase()
        let ids = (0..<300).map { Fixtures.task("x", id: 10_000 + $0).id }
        var previous: [TaskItem] = []
        for round in 0..<12 {
            // A file names some ids, some twice (the later wins), in any order; every fourth
            // round the same file again, which changes nothing.
            let tasks =
                round % 4 == 3
                ? previous
                : (0..<Int.random(in: 0...200, using: &generator)).map { number in
                    Fixtures.task(
                        "caption \(Int.random(in: 0..<5, using: &generator))", id: 10_000 + Int.random(in: 0..<ids.count, using: &generator),
                        section: Bool.random(using: &generator) ? .priority : .bonus, completed: Bool.random(using: &generator), hours: number)
                }
            // An import records and writes in one pass (`saveRecording`): the same file, and
            // the same answer to "did it change", as recording then saving.
            let streamed = folder.storePath + ".streamed-\(round)"
            let streamedChanged = try base.saveRecording(tasks, to: streamed)
            let changed = base.record(ImportBase.Said(tasks))
            #expect(streamedChanged == changed, "round \(round)")
            if round % 4 == 3 { #expect(!changed, "round \(round): the same file again") }
            if changed {
                let saved = folder.storePath + ".saved-\(round)"
                try base.save(to: saved)
                #expect(try Data(contentsOf: URL(fileURLWithPath: streamed)) == Data(contentsOf: URL(fileURLWithPath: saved)), "round \(round)")
            } else {
                #expect(!FileManager.default.fileExists(atPath: streamed), "round \(round)")
            }
            for task in tasks { model[task.id] = ImportBase.Entry(task) }
            previous = tasks
            if round % 3 == 2 {
                try base.save(besides: store)
                base = try ImportBase.load(besides: store)
            }
            for id in ids { #expect(base[id] == model[id], "round \(round)") }
        }
    }

    @Test("a damaged base file loses only its damaged lines")
    func damagedLinesAreSkipped() throws {
        let store = TaskStore(path: folder.storePath)
        let kept = Fixtures.task("kept", id: 1)
        let other = Fixtures.task("other", id: 2, section: .bonus, completed: true)
        var base = ImportBase()
        base.record(ImportBase.Said([kept, other]))
        try base.save(besides: store)
        let path = ImportBase.path(besides: store)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        // A line far longer than the reader's window that ends in a good entry (the whole line
        // is not one), a short one, a bad digit, then the two good ones; the last has lost its
        // line break, and reads as before.
        let damaged =
            String(repeating: "z", count: 200_000) + lines[1] + "\nshort\n" + lines[0].replacingOccurrences(of: " ", with: "g")
            + "\n" + lines[0] + "\n" + lines[1]
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = try ImportBase.load(besides: store)
        let first = lines[0].hasPrefix(kept.id.uuidString.lowercased()) ? kept : other
        let second = first.id == kept.id ? other : kept
        #expect(loaded[first.id] == ImportBase.Entry(first))
        #expect(loaded[second.id] == ImportBase.Entry(second))
        // Without the last line, the entry at the end of the long line is not taken.
        try Data(damaged.utf8.dropLast(lines[1].utf8.count)).write(to: URL(fileURLWithPath: path))
        #expect(try ImportBase.load(besides: store)[second.id] == nil)
    }
}
