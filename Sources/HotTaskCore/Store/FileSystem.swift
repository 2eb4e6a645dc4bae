import FoundationEssentials
import Glibc

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

    /// The names in a folder, "." and ".." left out, in the order the system lists them.
    static func names(in folder: String) throws(Failure) -> [String] {
        guard let stream = opendir(folder) else { throw Failure(reason: reason(), code: errno) }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            // Set before each call: only readdir's own error may end the listing early, never
            // one left by what ran between (a listing cut short must not read as complete).
            errno = 0
            guard let entry = readdir(stream) else { break }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        if errno != 0 { throw Failure(reason: reason(), code: errno) }
        return names
    }

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
            return "it belongs to another user (\(owner(info.st_uid))); HotTask only uses files of its own user: "
                + "chown \(owner(geteuid(), nameOnly: true)) '\(path)', or move it away"
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return "others may write it (mode \(String(info.st_mode & 0o777, radix: 8))); chmod go-w '\(path)' and try again"
        }
        return nil
    }

    /// Why the folder a store lives in is not safe to use, or nil: another user owns it (root
    /// may: /srv, /var), or others may write in it, unless it is sticky (/tmp), where no one can
    /// remove or rename another's files.
    static func untrustedFolder(_ folder: String) -> String? {
        var info = stat()
        guard stat(folder, &info) == 0 else { return nil }
        if info.st_uid != geteuid() && info.st_uid != 0 {
            return "its folder \(folder) belongs to another user (\(owner(info.st_uid))); keep your tasks in a folder of your own (--file)"
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 && info.st_mode & S_ISVTX == 0 {
            return "others may write in its folder \(folder) (mode \(String(info.st_mode & 0o777, radix: 8))); chmod go-w '\(folder)' and try again"
        }
        return nil
    }

    /// "uid 65534, nobody" (or the name alone).
    static func owner(_ uid: uid_t, nameOnly: Bool = false) -> String {
        let name = getpwuid(uid).flatMap { $0.pointee.pw_name.map { String(cString: $0) } }
        if nameOnly { return name ?? String(uid) }
        return name.map { "uid \(uid), \($0)" } ?? "uid \(uid)"
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

    private static func megabytes(_ bytes: Int) -> String {
        (Double(bytes) / 1_048_576).oneDecimal
    }

    /// The start of the names of `path`'s temp files: `.name.tmp-PID-RANDOM` (see `AtomicFile`).
    static func tempPrefix(for path: String) -> String {
        "." + lastComponent(of: path) + ".tmp-"
    }

    /// Removes the temp files killed writers left: every one of `stores` (only while holding
    /// the store's lock: no live save owns one), and those of `sideFiles` whose writer has died
    /// (they are written outside the lock: a live import's is left alone). One listing.
    static func removeCrashDebris(stores: [String], sideFiles: [String]) {
        guard let first = stores.first else { return }
        let folder = folder(of: first)
        let ours = stores.map(tempPrefix(for:))
        let others = sideFiles.map(tempPrefix(for:))
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            if ours.contains(where: name.hasPrefix) {
                unlink(folder + "/" + name)
            } else if let prefix = others.first(where: name.hasPrefix) {
                let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
                guard let pid = Int32(pidText), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
                unlink(folder + "/" + name)
            }
        }
    }

    /// Removes temp files that an interrupted save left beside `path`. Only call it while
    /// holding the store's lock: then no live save can own one of them.
    static func removeStaleTempFiles(besides path: String) {
        removeStaleTempFiles(besides: [path])
    }

    /// `removeStaleTempFiles` for files of one folder, listing it once (a commit cleans up
    /// after four of the store's files).
    static func removeStaleTempFiles(besides paths: [String]) {
        guard let first = paths.first else { return }
        let folder = folder(of: first)
        let prefixes = paths.map(tempPrefix(for:))
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where prefixes.contains(where: name.hasPrefix) {
            unlink(folder + "/" + name)
        }
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
    /// own folder instead of replacing the link with a plain file. Another user's link in a
    /// folder others may write is not followed (`ForeignLink`; commands refuse it first).
    static func resolvingSymlinks(_ path: String) -> String {
        var current = path
        for _ in 0..<16 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
                ForeignLink.refused(link: current, info, in: folder(of: current)) == nil,
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

    static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
