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
        return FileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedSeconds: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    /// Reads a whole file, refusing one larger than `limit` bytes before reading it.
    static func readAll(_ path: String, limit: Int = .max) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(reason: reason()) }
        defer { close(fd) }
        var info = stat()
        var bytes: [UInt8] = []
        if fstat(fd, &info) == 0, info.st_size > 0 {
            guard info.st_size <= limit else {
                throw Failure(reason: "it is \(megabytes(Int(info.st_size))) MB; HotTask reads files of at most \(megabytes(limit)) MB")
            }
            bytes.reserveCapacity(Int(info.st_size) + 1)
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: reason())
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            // A pipe or a growing file has no size up front.
            if bytes.count > limit {
                throw Failure(reason: "it is larger than \(megabytes(limit)) MB, the most HotTask reads")
            }
        }
    }

    /// Creates the folder and its parents (mode 0700 for those it creates).
    static func makeDirectories(_ path: String) throws(Failure) {
        guard !path.isEmpty, try kind(of: path) != .directory else { return }
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Failure(reason: "cannot create the folder \(path): \(reason())")
        }
    }

    /// Replaces `path` with `bytes` so that a crash leaves either the old or the new file.
    ///
    /// Writes a temp file beside it (O_EXCL, never following a link), fsyncs it, renames it
    /// over `path` and fsyncs the folder. On failure the temp file is removed.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(Failure) {
        let folder = folder(of: path)
        let name = (path as NSString).lastPathComponent
        let temp = folder + "/." + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(reason: reason()) }
        var failure: String?
        do {
            try writeAll(bytes, to: fd)
        } catch {
            failure = error.reason
        }
        if failure == nil, fsync(fd) != 0 { failure = reason() }
        if close(fd) != 0, failure == nil { failure = reason() }
        if failure == nil, rename(temp, path) != 0 { failure = reason() }
        if let failure {
            unlink(temp)
            throw Failure(reason: failure)
        }
        syncFolder(folder)
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }

    /// Removes temp files that an interrupted save left beside `path`. Only call it while
    /// holding the store's lock: then no live save can own one of them.
    static func removeStaleTempFiles(besides path: String) {
        let folder = folder(of: path)
        let prefix = "." + (path as NSString).lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink(folder + "/" + name)
        }
    }

    /// Makes `backup` another name for the file at `path` (no copy), replacing any old backup
    /// atomically. Best effort: a file system without hard links simply gets no backup.
    static func linkBackup(of path: String, to backup: String) {
        // Named like a save's temp files, so that a crash here leaves nothing the next save
        // does not remove.
        let temp = folder(of: path) + "/." + (path as NSString).lastPathComponent + ".tmp-backup-\(getpid())"
        unlink(temp)
        guard link(path, temp) == 0 else { return }
        rename(temp, backup)
        // When the backup already is this very file, rename does nothing (POSIX): drop the name.
        unlink(temp)
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

    /// Writes every byte to an open file, retrying short writes and interruptions.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(Failure) {
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = reason()
                    return
                }
                written += count
            }
        }
        if let failure { throw Failure(reason: failure) }
    }

    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
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
}

/// One version of the whole store: its snapshot and its journal.
public struct StoreStamp: Equatable, Sendable {
    let snapshot: FileStamp?
    let journal: FileStamp?
}

/// An exclusive advisory lock held on a file beside the store while it is read and rewritten.
final class FileLock {
    private let fd: Int32

    init(path: String) throws(FileSystem.Failure) {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw FileSystem.Failure(reason: "cannot open the lock file \(path): \(FileSystem.reason())") }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let failure = FileSystem.Failure(reason: "cannot lock \(path): \(FileSystem.reason())")
                close(fd)
                throw failure
            }
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
