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

    static func readAll(_ path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(reason: reason()) }
        defer { close(fd) }
        var info = stat()
        var bytes: [UInt8] = []
        if fstat(fd, &info) == 0, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: reason())
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
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
        if failure == nil, fsync(fd) != 0 { failure = reason() }
        if close(fd) != 0, failure == nil { failure = reason() }
        if failure == nil, rename(temp, path) != 0 { failure = reason() }
        if let failure {
            unlink(temp)
            throw Failure(reason: failure)
        }
        syncFolder(folder)
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
