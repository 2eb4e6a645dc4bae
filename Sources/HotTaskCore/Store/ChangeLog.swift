import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// The change log beside the snapshot (`tasks.json.journal`): the store's one commit point for
/// everything but compaction.
///
/// JSON Lines. The first line names the snapshot the log was started for:
///
///     {"log": 2, "generation": "9f3a1c2e5b7d4e60", "snapshot": "2049:1234:2987234:1795255200.123456789"}
///
/// and each further line is one record, ending in a checksum of everything before it:
///
///     {"g": "9f3a…", "clock": "1795255200123.0", "n": 7, "what": "Completed “Buy milk”", "changes": [...], "sum": "…"}
///
/// `n` numbers the records of a generation from 1, so that a record removed from the middle
/// of the log (a hand edit, a tool that dropped a line) is a gap a reader names as damage, not
/// a change silently gone. Records cut from the very end at a line boundary leave no gap.
///
/// A record is committed once its line is complete and fsynced. A last line without its newline
/// is an append a crash cut short (never acknowledged): readers ignore it and the next append
/// cuts it off. A line whose checksum or content is wrong is skipped with a warning and moved to
/// `tasks.json.journal.damaged` by the next writer. Records of another generation are never
/// replayed; compaction keeps the last of them only so that `--undo` can still take them back.
struct ChangeLog {
    let path: String

    struct Header: Equatable {
        var generation: Generation
        /// The snapshot file as it was when the log began: while it is unchanged, commands that
        /// only add can trust the snapshot's header without reading its tasks.
        var snapshot: FileStamp
        /// The newest change compaction did not keep as history (too large, or past the
        /// history's bounds): `--undo` never passes over it to take back an older one.
        var undoFloor: Clock? = nil
    }

    struct DamagedLine: Equatable {
        var line: Int
        var reason: String
        var bytes: [UInt8]
    }

    struct Contents {
        var header: Header?
        /// Adds from a version 1 journal (before the change log), replayed by id on top.
        var legacyAdds: [TaskItem] = []
        /// Every readable record, in file order, whatever its generation.
        var records: [LogRecord] = []
        var damaged: [DamagedLine] = []
        /// Records of the header's generation that are neither here nor among the damaged
        /// lines (removed from the middle of the log), described.
        var missing: [String] = []
        /// Complete lines, header included.
        var lineCount = 0
        var byteCount = 0
        /// The file as it was read.
        var stamp: FileStamp?
    }

    // MARK: Reading

    /// The log, or nil when there is none. Never throws for damaged content: only when the file
    /// cannot be read at all, or is not a file.
    func read() throws(StoreError) -> Contents? {
        let file: (bytes: [UInt8], stamp: FileStamp?)
        do throws(FileSystem.Failure) {
            // Opened without blocking: a named pipe in its place is an error, never a wait.
            file = try FileSystem.readAllWithStamp(path, limit: StoreLimits.logBytes, sideFile: true)
        } catch  where error.code == ENOENT || error.code == ENOTDIR {
            return nil
        } catch {
            throw StoreError(path: path, problem: .unreadable(error.reason))
        }
        var contents = Contents()
        contents.stamp = file.stamp
        contents.byteCount = file.bytes.count
        var lineNumber = 0
        var start = 0
        var legacy = false
        var numbering = SequenceCheck()
        let bytes = file.bytes
        while let end = Self.lineEnd(in: bytes, from: start) {
            lineNumber += 1
            let line = Array(bytes[start..<end])
            start = end + 1
            if lineNumber == 1 {
                switch Self.header(line) {
                case .header(let header): contents.header = header
                case .legacy: legacy = true
                case .damaged(let reason): contents.damaged.append(DamagedLine(line: 1, reason: reason, bytes: line))
                }
                continue
            }
            if legacy {
                if let task = Self.legacyAdd(line) {
                    contents.legacyAdds.append(task)
                } else {
                    contents.damaged.append(DamagedLine(line: lineNumber, reason: "not an add of the old journal", bytes: line))
                }
                continue
            }
            switch Self.decodeRecord(line) {
            case .success(let record):
                contents.records.append(record)
                if record.generation == contents.header?.generation, let gap = numbering.next(record.sequence, line: lineNumber) {
                    contents.missing.append(gap)
                }
            case .failure(let problem):
                contents.damaged.append(DamagedLine(line: lineNumber, reason: problem.reason, bytes: line))
                numbering.damagedLine()
            }
        }
        contents.lineCount = lineNumber
        return contents
    }

    /// Where the line from `start` ends (its line break), by memchr: a debug build's generic
    /// search took a fifth of reading a log.
    private static func lineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard start < buffer.count, let base = buffer.baseAddress, let found = memchr(base + start, 0x0A, buffer.count - start) else {
                return nil
            }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    private enum HeaderLine {
        case header(Header)
        case legacy
        case damaged(String)
    }

    private static func header(_ line: [UInt8]) -> HeaderLine {
        guard case .object(let object)? = try? JSONParser.parse(line) else { return .damaged("the first line is not a log header") }
        if object["journal"] != nil, object["log"] == nil { return .legacy }
        guard case .number(2)? = object["log"], case .string(let generationText)? = object["generation"],
            let generation = Generation(generationText), case .string(let stampText)? = object["snapshot"],
            let stamp = FileStamp(stampText)
        else { return .damaged("the first line is not a log header of version 2") }
        var floor: Clock?
        if let value = object["undoFrom"] {
            guard case .string(let text) = value, let clock = Clock(text) else { return .damaged("\"undoFrom\" is not a clock") }
            floor = clock
        }
        return .header(Header(generation: generation, snapshot: stamp, undoFloor: floor))
    }

    private static func legacyAdd(_ line: [UInt8]) -> TaskItem? {
        guard case .object(let object)? = try? JSONParser.parse(line), case .string("add")? = object["op"],
            let task = object["task"], let (decoded, _) = try? StoreDocument.decodeTask(task, number: 1)
        else { return nil }
        return decoded
    }

    static func headerLine(_ header: Header) -> [UInt8] {
        let floor = header.undoFloor.map { #", "undoFrom": "\#($0.description)""# } ?? ""
        return Array(#"{"log": 2, "generation": "\#(header.generation.text)", "snapshot": "\#(header.snapshot.text)"\#(floor)}"#.utf8) + [0x0A]
    }

    /// FNV-1a, 64 bits, as 16 hex digits: enough to tell a damaged or torn line from a whole one.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> String {
        let hex = String(bytes.withUnsafeBufferPointer { FNV1a.hash($0) }, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: Writing (with the store's lock held)

    /// Appends one record and fsyncs: the commit. A torn last line is cut off first; a failure
    /// takes back what was written, so that a change reported as failed is not in the log.
    func append(_ line: [UInt8]) throws(FileSystem.Failure) {
        let fd = open(path, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
        defer { close(fd) }
        try cutTornTail(fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
        do throws(FileSystem.Failure) {
            try FileSystem.writeAll(line, to: fd)
            guard fsync(fd) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
        } catch {
            ftruncate(fd, info.st_size)
            throw error
        }
    }

    private func cutTornTail(_ fd: Int32) throws(FileSystem.Failure) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return }
        var last: UInt8 = 0
        guard pread(fd, &last, 1, info.st_size - 1) == 1, last != 0x0A else { return }
        let bytes = try FileSystem.readAll(path, limit: StoreLimits.logBytes)
        let keep = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        guard ftruncate(fd, off_t(keep)) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
    }

    /// Starts the log for a new snapshot, keeping `history` (older records, for `--undo`).
    func start(_ header: Header, history: [LogRecord]) throws(FileSystem.Failure) {
        var bytes = Self.headerLine(header)
        for record in history { bytes += Self.encode(record) }
        try FileSystem.writeAtomically(bytes, to: path)
    }
}

extension FileStamp {
    /// `device:inode:size:seconds.nanoseconds`, as the log header keeps it.
    var text: String { "\(device):\(inode):\(size):\(modifiedSeconds).\(modifiedNanoseconds)" }

    /// Reads `text` back; nil for anything else (every number range-checked, never a trap).
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), let size = Int64(parts[2]),
            size >= 0
        else { return nil }
        let time = parts[3].split(separator: ".", omittingEmptySubsequences: false)
        guard time.count == 2, let seconds = Int64(time[0]), let nanoseconds = Int64(time[1]), nanoseconds >= 0,
            nanoseconds < 1_000_000_000
        else { return nil }
        self.init(device: device, inode: inode, size: size, modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds)
    }
}
