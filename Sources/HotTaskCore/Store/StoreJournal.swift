import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Recent adds, appended beside the snapshot so that `hottask --add` costs the same with 100
/// or 100,000 tasks: one line and one fsync instead of rewriting the whole file.
///
/// `tasks.json.journal` is JSON Lines. The first line names the snapshot version it extends:
///
///     {"journal": 1, "snapshot": {"device": 2049, "inode": 1234, "size": 2987234, "modified": "1795255200.123456789"}, "count": 10000}
///
/// and each further line is one added task: `{"op": "add", "task": {...store fields...}}`.
/// Adds are idempotent by id, so a journal that outlived its snapshot (a crash right after a
/// full save) or a snapshot restored from the backup loses nothing and duplicates nothing.
/// A last line without its newline is an append a crash cut short: it was never confirmed,
/// so readers ignore it and the next append removes it. Any full save folds the journal into
/// the snapshot and starts an empty one for the new snapshot.
public struct StoreJournal {
    /// Adds allowed before the next add rewrites the snapshot (keeps the journal small to read).
    public static let compactionThreshold = 512

    let path: String

    struct Header: Equatable {
        var snapshot: FileStamp
        var count: Int
    }

    struct Contents {
        var header: Header
        var tasks: [TaskItem]
    }

    // MARK: Reading

    /// The journal, or nil when there is none. A damaged one is an error naming its line.
    func read() throws(StoreError) -> Contents? {
        let bytes: [UInt8]
        do {
            guard try FileSystem.kind(of: path) == .file else { return nil }
            bytes = try FileSystem.readAll(path, limit: TaskStore.maximumFileSize)
        } catch {
            throw StoreError(path: path, problem: .unreadable(error.reason))
        }
        // Only complete lines count: a torn last append was never confirmed.
        let complete = bytes.lastIndex(of: 0x0A).map { Array(bytes[...$0]) } ?? []
        let lines: [(line: Int, value: JSONValue)]
        do {
            lines = try JSONParser.parseLines(complete)
        } catch {
            throw damaged(.syntax(error))
        }
        guard let first = lines.first else { return nil }
        let header = try Self.header(from: first.value, problem: damaged)
        var tasks: [TaskItem] = []
        for (line, value) in lines.dropFirst() {
            let entry = try FieldReader.orThrow(value, what: "line \(line)", damaged)
            guard (try? entry.string("op")) == "add", let task = entry.object["task"] else {
                throw damaged(.invalid("line \(line): expected {\"op\": \"add\", \"task\": {...}}"))
            }
            do {
                tasks.append(try StoreDocument.decodeTask(task, number: line))
            } catch {
                throw damaged(.invalid("line \(line): \(error)"))
            }
        }
        return Contents(header: header, tasks: tasks)
    }

    private func damaged(_ reason: DocumentError) -> StoreError {
        StoreError(path: path, problem: .invalid(reason))
    }

    private static func header(from value: JSONValue, problem: (DocumentError) -> StoreError) throws(StoreError) -> Header {
        guard case .object(let object) = value, case .number(1)? = object["journal"],
            case .object(let snapshot)? = object["snapshot"], case .number(let count)? = object["count"],
            case .number(let device)? = snapshot["device"], case .number(let inode)? = snapshot["inode"],
            case .number(let size)? = snapshot["size"], case .string(let modified)? = snapshot["modified"],
            let stamp = FileStamp(device: device, inode: inode, size: size, modified: modified)
        else { throw problem(.invalid("line 1: not a journal header")) }
        return Header(snapshot: stamp, count: Int(count))
    }

    // MARK: Writing (with the store's lock held)

    /// Starts an empty journal for the snapshot now in place.
    func start(_ header: Header) throws(FileSystem.Failure) {
        let stamp = header.snapshot
        let line = #"{"journal": 1, "snapshot": {"device": \#(stamp.device), "inode": \#(stamp.inode), "size": \#(stamp.size), "modified": "\#(stamp.modifiedSeconds).\#(stamp.modifiedNanoseconds)"}, "count": \#(header.count)}"#
        try FileSystem.writeAtomically(Array((line + "\n").utf8), to: path)
    }

    /// Appends adds as complete lines and fsyncs; a torn last line is cut off first.
    func append(_ tasks: [TaskItem]) throws(FileSystem.Failure) {
        let fd = open(path, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
        defer { close(fd) }
        try cutTornTail(fd)
        var bytes: [UInt8] = []
        for task in tasks {
            var writer = JSONWriter()
            StoreDocument.write(task, to: &writer, compact: true)
            bytes += Array(#"{"op": "add", "task": "#.utf8) + writer.bytes + Array("}\n".utf8)
        }
        // All the lines or none: a failure takes back what was written, so that an add the
        // command reports as failed is not in the list after all.
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
        do throws(FileSystem.Failure) {
            try FileSystem.writeAll(bytes, to: fd)
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
        let bytes = try FileSystem.readAll(path, limit: TaskStore.maximumFileSize)
        let keep = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        guard ftruncate(fd, off_t(keep)) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
    }
}

extension FileStamp {
    /// A stamp read back from a journal header.
    fileprivate init?(device: Double, inode: Double, size: Double, modified: String) {
        let parts = modified.split(separator: ".")
        guard parts.count == 2, let seconds = Int64(parts[0]), let nanoseconds = Int64(parts[1]) else { return nil }
        self.init(
            device: UInt64(device), inode: UInt64(inode), size: Int64(size), modifiedSeconds: seconds,
            modifiedNanoseconds: nanoseconds)
    }
}

extension FieldReader {
    /// A reader for an object, with errors made into the caller's kind.
    fileprivate static func orThrow(
        _ value: JSONValue, what: String, _ problem: (DocumentError) -> StoreError
    ) throws(StoreError) -> FieldReader {
        do {
            return try FieldReader(value, what: what)
        } catch {
            throw problem(error)
        }
    }
}
