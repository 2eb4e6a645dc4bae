import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes `--export`'s file without ever replacing something that is not a plain file.
///
/// - A symbolic link is followed, and its target replaced (the link stays a link).
/// - A regular file is replaced atomically (temp file, fsync, rename), keeping its mode and
///   owner; a new file is made 0600, as tasks are private.
/// - Anything else, a named pipe, a terminal, `/dev/full`, is written through: its reader gets
///   the bytes and a device stays a device.
/// - `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are the open descriptor itself, written as it
///   is (not reopened: a file the shell opened with `>>` is appended to, not truncated).
public enum ExportFile {
    public static func write(_ bytes: [UInt8], to path: String) throws(StoreDocument.ExportFailure) {
        do throws(FileSystem.Failure) {
            if let descriptor = openDescriptor(named: path) {
                try FileSystem.writeAll(bytes, to: descriptor)
                return
            }
            let target = FileSystem.resolvingSymlinks(path)
            var info = stat()
            guard stat(target, &info) == 0 else {
                guard errno == ENOENT else { throw FileSystem.Failure(reason: FileSystem.reason()) }
                try FileSystem.writeAtomically(bytes, to: target, mode: 0o600)
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                try FileSystem.writeAtomically(bytes, to: target, mode: info.st_mode & 0o7777, owner: (info.st_uid, info.st_gid))
            case S_IFDIR:
                throw FileSystem.Failure(reason: "it is a folder")
            default:
                try writeThrough(bytes, to: target)
            }
        } catch {
            throw StoreDocument.ExportFailure(reason: error.reason)
        }
    }

    /// The descriptor a path names without being a file of its own, or nil.
    private static func openDescriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), fcntl(number, F_GETFD) >= 0 { return number }
            }
            return nil
        }
    }

    private static func writeThrough(_ bytes: [UInt8], to path: String) throws(FileSystem.Failure) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
        defer { close(descriptor) }
        try FileSystem.writeAll(bytes, to: descriptor)
    }
}
