import Foundation

/// UUIDs to and from their lowercase text form without going through `String`: the store
/// reads and writes one per task.
enum UUIDBytes {
    static let hexDigits = Array("0123456789abcdef".utf8)

    /// The id's bytes as two big-endian halves: ids ordered by these are ordered by their bytes
    /// (and their text), compared without building anything.
    static func sortKey(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
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
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(0x2D) }
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0xF)])
            }
        }
    }

    /// Reads `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case); nil for anything else.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &value) { raw -> Bool in
            var out = 0
            var index = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard text[index] == 0x2D else { return false }
                    index += 1
                    continue
                }
                guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return false }
                raw[out] = high << 4 | low
                out += 1
                index += 2
            }
            return true
        }
        return valid ? UUID(uuid: value) : nil
    }

    /// A UUID made from text, the same wherever it is made: FNV-1a twice (two seeds), with the
    /// version 8 ("made by the application") and variant bits set.
    static func derived<Bytes: Collection>(from bytes: Bytes) -> UUID where Bytes.Element == UInt8 {
        var raw = withUnsafeBytes(of: FNV1a.hash(bytes).bigEndian, Array.init)
            + withUnsafeBytes(of: FNV1a.hash(bytes, seed: 0x8422_2325_cbf2_9ce4).bigEndian, Array.init)
        raw[6] = (raw[6] & 0x0F) | 0x80
        raw[8] = (raw[8] & 0x3F) | 0x80
        return UUID(uuid: (
            raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
            raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
    }

    static func nibble(_ byte: UInt8) -> UInt8? {
        let value = nibbles[Int(byte)]
        return value < 16 ? value : nil
    }

    /// Each byte's value as a hex digit (either case), 0xFF for any other byte: one load per
    /// digit, 32 per id read.
    private static let nibbles: [UInt8] = (0...255).map { byte in
        switch byte {
        case 0x30...0x39: UInt8(byte - 0x30)
        case 0x61...0x66: UInt8(byte - 0x61 + 10)
        case 0x41...0x46: UInt8(byte - 0x41 + 10)
        default: 0xFF
        }
    }
}

/// Ids as their sorted keys, each with the position it was given at: 24 bytes an id, where a
/// `Set<UUID>` of 100,000 takes 4 MB and a list's id index 10 MB. For work over a whole list
/// at once: ids unique, none already here, many tasks found by id in a list that does not change.
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

    /// The ids of a list's tasks, numbered by their positions in it.
    init(_ list: TaskList) {
        self.init(count: list.count) { add in
            for task in list.priority { add(task.id) }
            for task in list.bonus { add(task.id) }
        }
    }

    /// True when some id was given twice.
    var hasDuplicates: Bool {
        entries.indices.dropFirst().contains { entries[$0 - 1].key == entries[$0].key }
    }

    func contains(_ id: UUID) -> Bool { position(of: id) != nil }

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
