import FoundationEssentials
import Glibc

/// UUIDs to and from their lowercase text form without going through `String`: the store
/// reads and writes one per task.
enum UUIDBytes {
    static let hexDigits = Array("0123456789abcdef".utf8)

    /// The id's bytes as two big-endian halves: ids ordered by these are ordered by their bytes
    /// (and their text), compared without building anything.
    static func sortKey(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }

    /// The id whose `sortKey` this is.
    static func id(sortKey key: (UInt64, UInt64)) -> UUID {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { raw in
            raw.storeBytes(of: key.0.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: key.1.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: uuid)
    }

    /// Binary search: the first of `count` positions, in order of their keys (`keyAt`), whose
    /// key is not before `key` (`count` when there is none).
    static func firstPosition(notBefore key: (UInt64, UInt64), count: Int, keyAt: (Int) -> (UInt64, UInt64)) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if keyAt(middle) < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Appends the 36-character lowercase form.
    static func append(_ id: UUID, to bytes: inout [UInt8]) {
        // Made on the stack and appended at once: a byte at a time (and a look-up in
        // `hexDigits`, a global) cost several times more, once for each task a store, an
        // export or a side file writes.
        var text: (UInt64, UInt64, UInt64, UInt64, UInt32) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { raw in
            let start = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            _ = write(id, to: start)
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: 36))
        }
    }

    /// Writes the 36-character lowercase form at `out` (which has room for it); 36.
    @inline(__always)
    static func write(_ id: UUID, to out: UnsafeMutablePointer<UInt8>) -> Int {
        hexPairs.withUnsafeBufferPointer { pairs in
            withUnsafeBytes(of: id.uuid) { raw in
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = 0x2D
                        at += 1
                    }
                    UnsafeMutableRawPointer(out + at).storeBytes(of: pairs[Int(raw[index])], as: UInt16.self)
                    at += 2
                }
            }
        }
        return 36
    }

    /// Writes `value` as 16 lowercase hex digits at `out`; 16.
    @inline(__always)
    static func writeHex(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        hexPairs.withUnsafeBufferPointer { pairs in
            for index in 0..<8 {
                let byte = Int(truncatingIfNeeded: value >> UInt64(56 - 8 * index)) & 0xFF
                UnsafeMutableRawPointer(out + 2 * index).storeBytes(of: pairs[byte], as: UInt16.self)
            }
        }
        return 16
    }

    /// Each byte's two lowercase hex digits, as they lie in memory: a look-up a byte, where a
    /// digit at a time was most of writing an id (one per task in a store, an export, a side file).
    private static let hexPairs: [UInt16] = (0..<256).map { byte in
        var pair: UInt16 = 0
        withUnsafeMutableBytes(of: &pair) { raw in
            raw[0] = hexDigit(UInt8(byte >> 4))
            raw[1] = hexDigit(UInt8(byte & 0xF))
        }
        return pair
    }

    /// The lowercase hex digit of `value` (0 to 15), as `hexDigits` has it, computed.
    @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 &+ value : 0x57 &+ value
    }

    /// Reads `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case); nil for anything else.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36, text[8] == 0x2D, text[13] == 0x2D, text[18] == 0x2D, text[23] == 0x2D else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        // Every digit is read and a bad one only noted (one check at the end): one per task read.
        var bad: UInt8 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            var index = 0
            for out in 0..<16 {
                if index == 8 || index == 13 || index == 18 || index == 23 { index += 1 }
                let high = hexValue(text[index])
                let low = hexValue(text[index + 1])
                bad |= high | low
                raw[out] = high << 4 | low & 0x0F
                index += 2
            }
        }
        return bad & 0xF0 == 0 ? UUID(uuid: value) : nil
    }

    /// A hex digit's value (either case), or 0xFF for any other byte. Without a branch: digits
    /// and letters come in random order in an id, and a mispredicted branch a digit made reading
    /// ids a tenth of `--list` at 100,000 tasks.
    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8 {
        let digit = byte &- 0x30
        let letter = (byte | 0x20) &- 0x61
        let isDigit = UInt8(truncatingIfNeeded: Int8(bitPattern: UInt8(digit < 10 ? 1 : 0)) &* -1)
        let isLetter = UInt8(truncatingIfNeeded: Int8(bitPattern: UInt8(letter < 6 ? 1 : 0)) &* -1)
        return (digit & isDigit) | ((letter &+ 10) & isLetter) | ~(isDigit | isLetter)
    }

    /// A UUID made from text, the same wherever it is made: FNV-1a twice (two seeds), with the
    /// version 8 ("made by the application") and variant bits set.
    static func derived<Bytes: Collection>(from bytes: Bytes) -> UUID where Bytes.Element == UInt8 {
        derived(from: bytes, then: EmptyCollection())
    }

    /// The same for `first` followed by `second`, without joining them (a caption of 50 MB).
    static func derived(from first: some Collection<UInt8>, then second: some Collection<UInt8>) -> UUID {
        TextDigest(first).id(then: second)
    }

    static func nibble(_ byte: UInt8) -> UInt8? {
        let value = hexValue(byte)
        return value < 16 ? value : nil
    }
}

/// A set of ids, by open addressing on their keys: for one pass over a whole list, where
/// `Set<UUID>` or `SortedIDs` cost several times more (the store read pays it on every start).
/// Hashed with the process's random seed, so that no file can choose ids that collide.
struct IDTable {
    private var keys: [(UInt64, UInt64)] = []
    /// Each slot holds a key's position in `keys` plus one; 0 is empty. At most half full.
    private var slots: [Int32]
    private let seed: Seed

    typealias Seed = (UInt64, UInt64)
    /// Drawn once for the process.
    static let processSeed: Seed = (.random(in: .min ... .max), .random(in: .min ... .max))

    /// `count`: how many ids are expected, to make room once. `seed`: tests try several.
    init(count: Int, seed: Seed = processSeed) {
        self.seed = seed
        var capacity = 16
        while capacity < 2 * count { capacity <<= 1 }
        slots = [Int32](repeating: 0, count: capacity)
        keys.reserveCapacity(count)
    }

    /// The table of the ids `each` gives, or nil when it gives one twice (`count`, how many it
    /// gives, makes room once). About 3 ms for 100,000 ids, where sorting them took 12.
    init?(distinct count: Int, _ each: ((UUID) -> Void) -> Void) {
        var table = IDTable(count: count)
        var repeated = false
        each { id in
            if !repeated, !table.insert(id) { repeated = true }
        }
        guard !repeated else { return nil }
        self = table
    }

    var count: Int { keys.count }

    /// The ids, in the order they were inserted.
    var ids: LazyMapSequence<[(UInt64, UInt64)], UUID> { keys.lazy.map(UUIDBytes.id(sortKey:)) }

    /// Adds `id`; false when it was here already.
    @discardableResult
    mutating func insert(_ id: UUID) -> Bool {
        let key = UUIDBytes.sortKey(id)
        let (slot, found) = probe(key)
        guard !found else { return false }
        keys.append(key)
        slots[slot] = Int32(truncatingIfNeeded: keys.count)
        if 2 * keys.count > slots.count { rehash() }
        return true
    }

    func contains(_ id: UUID) -> Bool {
        probe(UUIDBytes.sortKey(id)).found
    }

    /// How many ids were inserted before `id` (its place in insertion order), or nil.
    func index(of id: UUID) -> Int? {
        let (slot, found) = probe(UUIDBytes.sortKey(id))
        return found ? Int(slots[slot]) - 1 : nil
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func probe(_ key: (UInt64, UInt64)) -> (slot: Int, found: Bool) {
        var slot = firstSlot(key)
        while slots[slot] != 0 {
            if keys[Int(slots[slot]) - 1] == key { return (slot, true) }
            slot = (slot + 1) & (slots.count - 1)
        }
        return (slot, false)
    }

    /// How many slots a look-up of each id here visits, on average (1 is none in the way): for
    /// tests, that ids made in any pattern spread.
    var averageProbeLength: Double {
        guard !keys.isEmpty else { return 0 }
        var visited = 0
        for key in keys {
            var slot = firstSlot(key)
            visited += 1
            while keys[Int(slots[slot]) - 1] != key {
                slot = (slot + 1) & (slots.count - 1)
                visited += 1
            }
        }
        return Double(visited) / Double(keys.count)
    }

    private mutating func rehash() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        for (position, key) in keys.enumerated() {
            slots[probe(key).slot] = Int32(truncatingIfNeeded: position + 1)
        }
    }

    private func firstSlot(_ key: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: mix(key)) & (slots.count - 1)
    }

    /// Each half, mixed with its part of the seed, through MurmurHash3's finalizer (every input
    /// bit reaches every output bit), the second turned by one bit so that equal halves do not
    /// cancel. Multiplying the halves together instead (wyhash's "mum") bunched ids that differ
    /// only in a few bits of one half, for some seeds (8 slots a look-up instead of 1.2).
    private func mix(_ key: (UInt64, UInt64)) -> UInt64 {
        let second = Self.finalized(key.1 ^ seed.1)
        return Self.finalized(key.0 ^ seed.0) ^ (second << 1 | second >> 63)
    }

    private static func finalized(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return value
    }
}

/// Ids as their sorted keys, each with the position it was given at: 24 bytes an id, where a
/// `Set<UUID>` of 100,000 takes 4 MB and a list's id index 10 MB. For work over a whole list
/// at once that needs positions: many tasks found by id in a list that does not change, ids
/// in their order. Whether ids repeat, or are here at all, `IDTable` answers faster.
struct SortedIDs {
    /// By key, and equal keys by position.
    let entries: [(key: (UInt64, UInt64), position: Int32)]

    /// The ids `each` gives to its argument, numbered from 0 in that order; `count`, how many
    /// there are, makes room once.
    init(count: Int, _ each: ((UUID) -> Void) -> Void) {
        var entries: [(key: (UInt64, UInt64), position: Int32)] = []
        entries.reserveCapacity(count)
        each { entries.append((UUIDBytes.sortKey($0), Int32(truncatingIfNeeded: entries.count))) }
        // Equal ids by position, so that `position(of:)` gives the first.
        entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        self.entries = entries
    }

    /// The ids of `tasks`, numbered by their positions.
    init(_ tasks: [TaskItem]) {
        self.init(count: tasks.count) { add in for task in tasks { add(task.id) } }
    }

    /// The ids of a list's tasks, numbered by their positions in it.
    init(_ list: TaskList) {
        self.init(count: list.count) { add in
            for task in list.priority { add(task.id) }
            for task in list.bonus { add(task.id) }
        }
    }

    /// For each of the `count` positions, whether its id was given at an earlier one: one pass
    /// over the sorted ids, where looking up each (a binary search, a cache miss a step) was a
    /// fifth of an import's merge.
    func givenEarlier(count: Int) -> [Bool] {
        var earlier = [Bool](repeating: false, count: count)
        for index in entries.indices.dropFirst() where entries[index].key == entries[index - 1].key {
            earlier[Int(entries[index].position)] = true
        }
        return earlier
    }

    /// The position `id` was given at (the first, when it was given twice).
    func position(of id: UUID) -> Int? {
        let at = firstEntry(notBefore: UUIDBytes.sortKey(id))
        return at < entries.count && entries[at].key == UUIDBytes.sortKey(id) ? Int(entries[at].position) : nil
    }

    /// Every position `id` was given at, first to last.
    func forEachPosition(of id: UUID, _ body: (Int) -> Void) {
        let key = UUIDBytes.sortKey(id)
        var at = firstEntry(notBefore: key)
        while at < entries.count, entries[at].key == key {
            body(Int(entries[at].position))
            at += 1
        }
    }

    private func firstEntry(notBefore key: (UInt64, UInt64)) -> Int {
        UUIDBytes.firstPosition(notBefore: key, count: entries.count) { entries[$0].key }
    }
}
