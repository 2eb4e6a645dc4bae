import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// Where each task's object lies in a snapshot (`tasks.json.index`), so that a change by id
/// reads a few hundred bytes instead of searching the whole file.
///
/// Written after each compaction, from the bytes just written; never a commit point and never
/// trusted alone. It names the snapshot's generation, size and task count, and every object it
/// points to is parsed from the snapshot itself and must carry the id it was looked up by. An
/// index that is missing, of another generation, damaged or wrong in any way is ignored and the
/// snapshot is searched instead (`TaskStore.pointLookup`).
///
/// Layout (little-endian): a 64-byte header — `HTINDEX1`, the generation's 16 hex digits, the
/// snapshot's size, the task count, whether any live task has a parent (1 none, 2 some; 0 in an
/// index written before subtasks, which says nothing) — then one 32-byte entry per live task,
/// sorted by id: the id's 16 bytes, the object's offset and its length.
struct SnapshotIndex {
    struct Entry: Equatable {
        var id: UUID
        var offset: Int
        var length: Int
    }

    static let magic = Array("HTINDEX1".utf8)
    static let headerSize = 64
    static let entrySize = 32

    /// The index file's bytes for a snapshot of `size` bytes holding `entries` (sorted in place:
    /// the caller's array is not copied).
    static func encode(_ entries: consuming [Entry], generation: Generation, snapshotSize: Int, hasSubtasks: Bool) -> [UInt8] {
        var bytes = magic + Array(generation.text.utf8)
        append(UInt64(snapshotSize), to: &bytes)
        append(UInt64(entries.count), to: &bytes)
        append(hasSubtasks ? 2 : 1, to: &bytes)
        bytes += [UInt8](repeating: 0, count: headerSize - bytes.count)
        bytes.reserveCapacity(headerSize + entries.count * entrySize)
        // Sorted by the id's bytes as two big-endian halves, made once each (no array per
        // comparison: that sort was a seventh of a 100,000-task import; halves made in every
        // comparison, still a twenty-fifth).
        var keyed = entries.map { (key: UUIDBytes.sortKey($0.id), offset: $0.offset, length: $0.length) }
        entries = []
        keyed.sort { $0.key < $1.key }
        for entry in keyed {
            // The id's bytes are its halves, big-endian.
            withUnsafeBytes(of: entry.key.0.bigEndian) { bytes += $0 }
            withUnsafeBytes(of: entry.key.1.bigEndian) { bytes += $0 }
            append(UInt64(entry.offset), to: &bytes)
            append(UInt64(entry.length), to: &bytes)
        }
        return bytes
    }

    /// The entries whose id, written in lowercase, starts with `prefix`; nil when the index at
    /// `path` does not describe this snapshot (the caller then searches the snapshot).
    static func entries(withIDPrefix prefix: String, at path: String, generation: Generation, snapshotSize: Int, count: Int)
        -> [Entry]?
    {
        guard let fd = openChecked(path, generation: generation, snapshotSize: snapshotSize, count: count) else { return nil }
        defer { close(fd) }
        // The first entry whose id is not below the prefix, by binary search over preads.
        func entry(_ index: Int) -> Entry? {
            guard let bytes = FileSystem.readExactly(fd, at: headerSize + index * entrySize, count: entrySize) else { return nil }
            let id = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
            let offset = number(bytes, at: 16)
            let length = number(bytes, at: 24)
            guard offset <= UInt64(snapshotSize), length <= UInt64(snapshotSize) - offset, length > 0 else { return nil }
            return Entry(id: id, offset: Int(offset), length: Int(length))
        }
        func text(_ id: UUID) -> String { id.uuidString.lowercased() }
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            guard let candidate = entry(middle) else { return nil }
            if text(candidate.id) < prefix { low = middle + 1 } else { high = middle }
        }
        var found: [Entry] = []
        var index = low
        while index < count {
            guard let candidate = entry(index) else { return nil }
            guard text(candidate.id).hasPrefix(prefix) else { break }
            found.append(candidate)
            index += 1
        }
        return found
    }

    /// True when the index at `path` describes this snapshot and says no live task in it has a
    /// parent: a change by id then needs no search of the snapshot for subtasks.
    static func saysNoSubtasks(at path: String, generation: Generation, snapshotSize: Int, count: Int) -> Bool {
        guard let fd = openChecked(path, generation: generation, snapshotSize: snapshotSize, count: count) else { return false }
        defer { close(fd) }
        return FileSystem.readExactly(fd, at: 40, count: 8).map { number($0, at: 0) } == 1
    }

    /// The index file, open, when its header and size describe this snapshot.
    private static func openChecked(_ path: String, generation: Generation, snapshotSize: Int, count: Int) -> Int32? {
        guard FileSystem.untrusted(path) == nil else { return nil }
        // Without blocking, and only a regular file: a named pipe here would wait for a writer.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == headerSize + count * entrySize,
            let header = FileSystem.readExactly(fd, at: 0, count: headerSize), Array(header[0..<8]) == magic,
            Array(header[8..<24]) == Array(generation.text.utf8), number(header, at: 24) == UInt64(snapshotSize),
            number(header, at: 32) == UInt64(count)
        else {
            close(fd)
            return nil
        }
        return fd
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func number(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }
}
