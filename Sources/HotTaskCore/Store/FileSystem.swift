import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX file operations the store needs, with errors as readable text.
///
/// POSIX calls rather than FileManager because the store's guarantees depend on exactly
/// these steps: O_EXCL temp files that never follow links, fsync of the file and the folder,
/// an atomic rename, and flock.
enum FileSystem {
    struct Failure: Error {
        let reason: String
        /// The store's lock was held by another process for longer than we wait.
        var busy = false
        /// The errno behind it, where a caller acts on which one (EPIPE).
        var code: Int32 = 0
    }

    static func reason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    enum Kind { case missing, file, directory, other }

    static func kind(of path: String) throws(Failure) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .missing }
            throw Failure(reason: reason())
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Identifies one version of a file: every save renames a new file into place, so the
    /// inode changes with each one; size and mtime catch in-place edits by other programs.
    static func stamp(of path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(info)
    }

    /// Why HotTask will not trust a file beside the store: another user owns it, or others may
    /// write it (as ssh refuses such key files). nil when it is fine or missing.
    static func untrusted(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        // Before the owner and mode: a link's are its own (0777), and chmod would change its target.
        if info.st_mode & S_IFMT == S_IFLNK {
            return "it is a symbolic link; HotTask uses only a file of its own there (put the file itself in place of the link)"
        }
        if info.st_uid != geteuid() {
            return "it belongs to another user (uid \(info.st_uid)); HotTask only uses files of its own user"
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return "others may write it (mode \(String(info.st_mode & 0o777, radix: 8))); chmod go-w it and try again"
        }
        return nil
    }

    /// Reads a whole file, refusing one larger than `limit` bytes before reading it.
    static func readAll(_ path: String, limit: Int = .max, sideFile: Bool = false) throws(Failure) -> [UInt8] {
        try readAllWithStamp(path, limit: limit, sideFile: sideFile).bytes
    }

    /// `readAll`, and the version of the file that was read (from the open file, so that it
    /// names exactly these bytes even if the path is replaced meanwhile). `sideFile`: see `OpenFile`.
    static func readAllWithStamp(_ path: String, limit: Int = .max, sideFile: Bool = false) throws(Failure) -> (bytes: [UInt8], stamp: FileStamp?) {
        let file = try OpenFile(path, sideFile: sideFile)
        return (try file.readAll(limit: limit), file.stamp)
    }

    /// What a file of this mode is, for a message: "a named pipe (FIFO)".
    static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// A file open for reading, closed when the last reference goes. Its version (`stamp`) and
    /// size are taken from the open file: they name exactly the bytes read through it, even if
    /// the path is replaced meanwhile.
    final class OpenFile: @unchecked Sendable {
        let fd: Int32
        let stamp: FileStamp?
        /// The size when opened (0 for anything but a regular file, such as a pipe, which is
        /// read in order rather than at offsets); a file may still grow or shrink as it is read.
        let size: Int

        /// `sideFile`: a file HotTask keeps beside the store (its log, import base, sync base).
        /// It is opened without blocking and without following a link, and must be a regular
        /// file: a named pipe put in its place is an error naming it, never a read that waits
        /// for a writer forever.
        init(_ path: String, sideFile: Bool = false) throws(Failure) {
            let fd = open(path, O_RDONLY | O_CLOEXEC | (sideFile ? O_NONBLOCK | O_NOFOLLOW : 0))
            guard fd >= 0 else {
                let code = errno
                throw Failure(
                    reason: sideFile && code == ELOOP
                        ? "it is a symbolic link; HotTask uses only a file of its own there (put the file itself in place of the link)"
                        : reason(code),
                    code: code)
            }
            var info = stat()
            let known = fstat(fd, &info) == 0
            if sideFile, !known || info.st_mode & S_IFMT != S_IFREG {
                let what = known ? describe(info.st_mode) : "a file that cannot be examined (\(reason()))"
                close(fd)
                throw Failure(reason: "it is \(what), not a regular file; move it away")
            }
            self.fd = fd
            stamp = known ? FileStamp(info) : nil
            size = known && info.st_mode & S_IFMT == S_IFREG ? max(0, Int(info.st_size)) : 0
        }

        deinit { close(fd) }

        /// Refuses a file larger than `limit` bytes, by its size when opened.
        func check(limit: Int) throws(Failure) {
            guard size <= limit else {
                throw Failure(reason: "it is \(megabytes(size)) MB; HotTask reads files of at most \(megabytes(limit)) MB")
            }
        }

        /// The whole file from the start, refusing one larger than `limit` bytes before reading it.
        ///
        /// A regular file is read straight into an array of its size plus one byte (no chunk
        /// copied on, no zeroing first); the extra byte shows whether it grew meanwhile. A pipe,
        /// or a file that grew, goes on in 64 KB chunks up to `limit`.
        func readAll(limit: Int = .max) throws(Failure) -> [UInt8] {
            var bytes: [UInt8] = []
            var offset = 0
            if size > 0 {
                try check(limit: limit)
                var failure: Int32 = 0
                bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
                    (count, failure) = FileSystem.preadFully(fd, at: 0, into: UnsafeMutableRawBufferPointer(buffer))
                }
                if failure != 0 { throw Failure(reason: reason(failure)) }
                if bytes.count <= size { return bytes }
                // It grew while we read: go on as for a pipe.
                offset = bytes.count
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                if bytes.count > limit {
                    throw Failure(reason: "it is larger than \(megabytes(limit)) MB, the most HotTask reads")
                }
                // A pipe cannot be read at an offset; a file is read from where the array ends.
                let count = chunk.withUnsafeMutableBytes { buffer in
                    size > 0 ? pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) : read(fd, buffer.baseAddress, buffer.count)
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Failure(reason: reason())
                }
                if count == 0 { return bytes }
                bytes.append(contentsOf: chunk[0..<count])
                offset += count
            }
        }
    }

    /// `count` bytes of an open file at `offset`, or nil when the file is shorter or cannot be read.
    static func readExactly(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let (got, failure) = bytes.withUnsafeMutableBytes { preadFully(fd, at: offset, into: $0) }
        return got == count && failure == 0 ? bytes : nil
    }

    /// Fills `buffer` from file offset `offset` (pread, again after a signal), stopping early at
    /// the end of the file or at an error: how many bytes it read, and the error's errno or 0.
    static func preadFully(_ fd: Int32, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, failure: Int32) {
        var count = 0
        while count < buffer.count {
            let got = pread(fd, buffer.baseAddress! + count, buffer.count - count, off_t(offset + count))
            if got < 0 {
                if errno == EINTR { continue }
                return (count, errno)
            }
            if got == 0 { break }
            count += got
        }
        return (count, 0)
    }

    /// Creates the folder and its parents (mode 0700 for those it creates). A parent that is
    /// not a folder is an error naming it, never a trap.
    static func makeDirectories(_ path: String) throws(Failure) {
        guard !path.isEmpty, try kind(of: path) != .directory else { return }
        let parent = folder(of: path)
        // `folder(of:)` is always shorter than a path that names a component, so this ends.
        if parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o700) != 0 {
            let code = errno
            if code == EEXIST, (try? kind(of: path)) == .directory { return }
            let why = code == EEXIST ? "something that is not a folder is in its place" : reason(code)
            throw Failure(reason: "cannot create the folder \(path): \(why)")
        }
    }

    /// Replaces `path` with `bytes` so that a crash leaves either the old or the new file.
    ///
    /// Writes a temp file beside it (O_EXCL, never following a link), fsyncs it, renames it
    /// over `path` and fsyncs the folder. On failure the temp file is removed. `owner`, when
    /// given, is set on the new file (best effort: only root may give a file away).
    static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o600, owner: (uid: uid_t, gid: gid_t)? = nil
    ) throws(Failure) {
        var file = try AtomicFile(replacing: path, mode: mode, owner: owner)
        file.write(bytes)
        try file.install()
    }

    /// A file written in pieces under a temp name beside `path` (O_EXCL, never following a
    /// link) and renamed over it only once it is whole and on disk: readers see the old file or
    /// the new one. A snapshot streams through one, so its bytes are never all held at once.
    struct AtomicFile {
        let path: String
        private let temp: String
        private var fd: Int32
        /// Committed or abandoned: the temp file is no longer this one's to remove.
        private var finished = false
        /// The first write that failed; later writes are skipped and `commit` throws it.
        private var failure: Failure?

        init(replacing path: String, mode: mode_t = 0o600, owner: (uid: uid_t, gid: gid_t)? = nil) throws(Failure) {
            self.path = path
            temp = FileSystem.folder(of: path) + "/" + FileSystem.tempPrefix(for: path) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            guard fd >= 0 else { throw Failure(reason: reason()) }
            // The mode exactly, whatever the umask (it applies at open).
            if fchmod(fd, mode) != 0 {
                let failure = Failure(reason: reason())
                abandon()
                throw failure
            }
            if let owner { _ = fchown(fd, owner.uid, owner.gid) }
        }

        mutating func write(_ bytes: [UInt8]) {
            guard failure == nil else { return }
            do { try writeAll(bytes, to: fd) } catch { failure = error }
        }

        /// fsync and close: the new file is whole on disk, not yet in place. On failure the
        /// temp file is removed. Two files that must both be replaced or neither (a snapshot and
        /// its backup) are both finished before either is installed.
        mutating func finishWriting() throws(Failure) {
            guard fd >= 0 else { return }
            if failure == nil, fsync(fd) != 0 { failure = Failure(reason: reason()) }
            if close(fd) != 0, failure == nil { failure = Failure(reason: reason()) }
            fd = -1
            if let failure {
                finished = true
                unlink(temp)
                throw failure
            }
        }

        /// Finishes writing (if not done yet), renames the file over `path` and fsyncs the
        /// folder. On failure the temp file is removed and `path` is left as it was.
        mutating func install() throws(Failure) {
            try finishWriting()
            guard !finished else { return }
            finished = true
            guard rename(temp, path) == 0 else {
                let failure = Failure(reason: reason())
                unlink(temp)
                throw failure
            }
            syncFolder(folder(of: path))
        }

        /// Closes and removes the temp file: `path` is left as it was.
        mutating func abandon() {
            guard !finished else { return }
            finished = true
            if fd >= 0 { close(fd) }
            fd = -1
            unlink(temp)
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }

    /// The start of the names of `path`'s temp files: `.name.tmp-PID-RANDOM` (see `AtomicFile`).
    private static func tempPrefix(for path: String) -> String {
        "." + lastComponent(of: path) + ".tmp-"
    }

    /// Removes temp files that an interrupted save left beside `path`. Only call it while
    /// holding the store's lock: then no live save can own one of them.
    static func removeStaleTempFiles(besides path: String) {
        removeTempFiles(besides: path) { _ in true }
    }

    /// Removes temp files beside `path` whose writer has died (an export interrupted by Ctrl-C
    /// leaves one): a temp file's name carries its writer's pid. One whose process is alive, or
    /// whose name cannot be read, is left alone, so a concurrent writer is never disturbed.
    static func removeDeadWritersTempFiles(besides path: String) {
        removeTempFiles(besides: path) { pidText in
            guard let pid = Int32(pidText.prefix { $0 != "-" }), pid > 0, pid != getpid() else { return false }
            return kill(pid, 0) != 0 && errno == ESRCH
        }
    }

    /// Removes `path`'s temp files for which `removable`, given the name after the prefix, is true.
    private static func removeTempFiles(besides path: String, _ removable: (Substring) -> Bool) {
        let folder = folder(of: path)
        let prefix = tempPrefix(for: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) && removable(name.dropFirst(prefix.count)) {
            unlink(folder + "/" + name)
        }
    }

    /// The file a symbolic link finally points to, so that a save replaces the target in its
    /// own folder instead of replacing the link with a plain file.
    static func resolvingSymlinks(_ path: String) -> String {
        var current = path
        for _ in 0..<16 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { return current }
            current = target.hasPrefix("/") ? target : folder(of: current) + "/" + target
        }
        return current
    }

    /// Writes every byte to an open file (see `Descriptor.write`).
    static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(Failure) {
        do throws(Descriptor.WriteFailure) {
            try Descriptor.write(bytes, to: fd)
        } catch {
            throw Failure(reason: error.reason, code: error.code)
        }
    }

    /// The folder holding `path`: "." for a bare name, "/" for a name at the root. Plain string
    /// rules on "/", because Foundation's `NSString.deletingLastPathComponent` traps (SIGILL)
    /// on short paths such as "t".
    static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// The last component of `path` ("tasks.json" of "a/tasks.json"), by the same rules.
    static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `path` without the slashes it ends in; "/" stays "/".
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    private static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// One version of a file, as `stat` sees it.
public struct FileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// No file: what a log started before its first snapshot names, matching no real file.
    static let none = FileStamp(device: 0, inode: 0, size: 0, modifiedSeconds: 0, modifiedNanoseconds: 0)

    init(_ info: stat) {
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedSeconds: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }
}

/// An advisory lock on the file beside the store, held while the store is changed.
///
/// Waiting is bounded: a process stopped with the lock held (Ctrl-Z) must not freeze every
/// other HotTask. The holder writes its pid into the file so that the message can name it.
final class FileLock {
    private let fd: Int32

    struct Busy: Error {
        /// The process that last took the lock, if it said.
        let holder: Int32?
    }

    /// Takes the exclusive lock, waiting at most `wait` seconds (0: only if free now).
    init(path: String, wait: TimeInterval) throws(FileSystem.Failure) {
        if let problem = FileSystem.untrusted(path) {
            throw FileSystem.Failure(reason: "the lock file \(path) is not safe to use: \(problem)")
        }
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw FileSystem.Failure(reason: "cannot open the lock file \(path): \(FileSystem.reason())") }
        let deadline = Date().addingTimeInterval(wait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            // No close here: `fd` is set, so a throw from here on runs deinit, which closes it.
            // Closing it here too closed it twice, and the second close could take the
            // descriptor another thread had just opened (the UI's background compaction).
            guard code == EWOULDBLOCK || code == EINTR else {
                throw FileSystem.Failure(reason: "cannot lock \(path): \(FileSystem.reason(code))")
            }
            if Date() >= deadline {
                let holder = Self.liveHolder(fd) ?? Self.holder(fd)
                throw FileSystem.Failure(reason: Self.busyMessage(path: path, holder: holder, wait: wait), busy: true)
            }
            usleep(5_000)
        }
        // Say who holds it (best effort; only messages read it).
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
    }

    /// The process that holds the lock on `fd`'s file now, from the kernel's table of locks
    /// (`/proc/locks`; `F_GETLK` does not see `flock` locks). nil when it cannot be told (no
    /// /proc, or the holder is in another pid namespace and shows as 0).
    static func liveHolder(_ fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let table = try? FileSystem.readAll("/proc/locks", limit: 1 << 22) else { return nil }
        // The kernel writes the file as MAJOR:MINOR:INODE, the first two in (at least two) hex digits.
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        for line in String(decoding: table, as: UTF8.self).split(separator: "\n") where !line.contains("->") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]), pid > 0 else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[0], radix: 16) == major, UInt64(file[1], radix: 16) == minor,
                UInt64(file[2]) == UInt64(info.st_ino)
            else { continue }
            return pid
        }
        return nil
    }

    /// The pid the last HotTask to take the lock wrote into the file (it may have let go since).
    private static func holder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func busyMessage(path: String, holder: Int32?, wait: TimeInterval) -> String {
        let who =
            holder.map { pid -> String in
                let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
                    .replacingOccurrences(of: "\u{0}", with: " ").trimmingCharacters(in: .whitespaces)
                return "process \(pid)" + (command.map { $0.isEmpty ? "" : " (\($0.prefix(60)))" } ?? "")
            } ?? "another process"
        let seconds = wait == wait.rounded() ? String(Int(wait)) : String(wait)
        return "\(who) has held the lock \(path) for over \(seconds) s; nothing was changed. "
            + "If it is a HotTask stopped with Ctrl-Z, resume it (fg) or end it, then try again"
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

/// The one loop that writes bytes to a descriptor: the store, exports, stdout and stderr, the
/// rescue file and the terminal's mode switches all go through it.
public enum Descriptor {
    public struct WriteFailure: Error, Sendable {
        /// The errno (EPIPE: the reader has gone).
        public let code: Int32
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Writes every byte, retrying short writes and interruptions; a descriptor a parent left
    /// non-blocking is waited on rather than failing with EAGAIN.
    public static func write(_ buffer: UnsafeRawBufferPointer, to fd: Int32) throws(WriteFailure) {
        guard let base = buffer.baseAddress else { return }
        var written = 0
        while written < buffer.count {
            let count = Glibc.write(fd, base + written, buffer.count - written)
            if count >= 0 {
                written += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            default: throw WriteFailure(code: errno)
            }
        }
    }

    /// `text`'s UTF-8 bytes, the same way.
    public static func write(_ text: String, to fd: Int32) throws(WriteFailure) {
        var text = text
        var failure: WriteFailure?
        text.withUTF8 { utf8 in
            do throws(WriteFailure) { try write(UnsafeRawBufferPointer(utf8), to: fd) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public static func write(_ bytes: [UInt8], to fd: Int32) throws(WriteFailure) {
        var failure: WriteFailure?
        bytes.withUnsafeBytes { buffer in
            do throws(WriteFailure) { try write(buffer, to: fd) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// A small file of the app's own (not the store) replaced whole, so that a crash leaves the
/// old or the new one: its folders are made (0700) and the file is 0600 (or `mode`).
public enum SmallFile {
    /// Nil when written, else why not.
    public static func replace(_ path: String, with text: String, mode: mode_t = 0o600) -> String? {
        do {
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: mode)
            return nil
        } catch {
            return error.reason
        }
    }
}
