import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// Writes `--export`'s file without ever replacing something that is not a plain file.
///
/// - A symbolic link is followed, and its target replaced (the link stays a link); another
///   user's link in a folder others may write is refused (`ForeignLink`).
/// - A regular file is replaced atomically (temp file, fsync, rename), keeping its mode and
///   owner. When that cannot be done (the folder is not writable, or the file belongs to
///   someone else and we are not root) it is rewritten in place, as `>` would; a file we may
///   not write is refused, as `>` would refuse it. A new file is made 0600: tasks are private.
/// - Anything else, a named pipe, a terminal, `/dev/full`, is written through: its reader gets
///   the bytes and a device stays a device. A pipe nobody reads is an error, not a hang.
/// - A path that is our own stdout or stderr (`/dev/stdout`, `/dev/fd/1`, however spelled) is
///   that descriptor, written as it is (not reopened: a file the shell opened with `>>` is
///   appended to, not truncated). A reader that went away (`| head`) ends the write quietly.
/// - The store itself (and its side files) is refused: an export over it would destroy it.
public enum ExportFile {
    static func write(_ bytes: [UInt8], to path: String, protecting store: String? = nil) throws(StoreDocument.ExportFailure) {
        try write(to: path, protecting: store) { emit in emit(bytes) }
    }

    /// `write` of the pieces `produce` gives its argument, each written as it comes: an export
    /// of 100,000 tasks is never held whole. Where the bytes go is settled (and a bad target
    /// refused) before anything is made.
    static func write(
        to path: String, protecting store: String? = nil, _ produce: (_ emit: ([UInt8]) -> Void) -> Void
    ) throws(StoreDocument.ExportFailure) {
        do throws(FileSystem.Failure) {
            if let link = ForeignLink.first(in: path) { throw FileSystem.Failure(reason: link.reason + ". Nothing was changed") }
            if let descriptor = openDescriptor(named: path) {
                try writeThrough(descriptor, readerMayLeave: true, produce)
                return
            }
            let target = FileSystem.resolvingSymlinks(path)
            // By name too: a side file not made yet (`tasks.json.imported`) is still the store's.
            func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
            if let store, TaskStore(path: absolute(FileSystem.resolvingSymlinks(store))).ownFiles.contains(absolute(target)) {
                throw FileSystem.Failure(reason: "it is the task store itself (or one of its files); export somewhere else")
            }
            var info = stat()
            guard stat(target, &info) == 0 else {
                guard errno == ENOENT else { throw FileSystem.Failure(reason: FileSystem.reason()) }
                try writeAtomically(to: target, mode: 0o600, owner: nil, produce)
                return
            }
            if let store, isStoreFile(info, store: store) {
                throw FileSystem.Failure(reason: "it is the task store itself (or one of its files); export somewhere else")
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                guard access(target, W_OK) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
                let ownerKept = geteuid() == 0 || info.st_uid == geteuid()
                if ownerKept && access(FileSystem.folder(of: target), W_OK) == 0 {
                    try writeAtomically(to: target, mode: info.st_mode & 0o7777, owner: (info.st_uid, info.st_gid), produce)
                } else {
                    try writeThrough(to: target, truncating: true, produce)
                }
            case S_IFDIR:
                throw FileSystem.Failure(reason: "it is a folder")
            default:
                try writeThrough(to: target, truncating: false, produce)
            }
        } catch {
            throw StoreDocument.ExportFailure(reason: error.reason)
        }
    }

    private static func writeAtomically(
        to path: String, mode: mode_t, owner: (uid: uid_t, gid: gid_t)?, _ produce: (([UInt8]) -> Void) -> Void
    ) throws(FileSystem.Failure) {
        // An export takes as long as its document is made (seconds for a large calendar): one
        // interrupted then left its temp file, removed by the next export to the same file.
        FileSystem.removeDeadWritersTempFiles(besides: path)
        var file = try FileSystem.AtomicFile(replacing: path, mode: mode, owner: owner)
        produce { file.write($0) }
        try file.install()
    }

    /// Writes the pieces to an open descriptor, stopping at the first failure. On our own
    /// stdout (`readerMayLeave`), a reader that went away (EPIPE, as with `--export - | head`)
    /// ends the write quietly.
    private static func writeThrough(
        _ descriptor: Int32, readerMayLeave: Bool = false, _ produce: (([UInt8]) -> Void) -> Void
    ) throws(FileSystem.Failure) {
        var failure: FileSystem.Failure?
        produce { piece in
            guard failure == nil else { return }
            do throws(FileSystem.Failure) { try FileSystem.writeAll(piece, to: descriptor) } catch { failure = error }
        }
        if let failure, !(readerMayLeave && failure.code == EPIPE) { throw failure }
    }

    public static func isStandardOutput(_ path: String) -> Bool {
        openDescriptor(named: path) == STDOUT_FILENO
    }

    /// The descriptor a path names without being a file of its own, or nil: our stdout or
    /// stderr (compared by device and inode, so any spelling of /dev/stdout counts), or an open
    /// `/dev/fd/N`.
    private static func openDescriptor(named path: String) -> Int32? {
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            if let number = Int32(path.dropFirst(prefix.count)), fcntl(number, F_GETFD) >= 0 { return number }
        }
        var named = stat()
        guard stat(path, &named) == 0 else { return nil }
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            var open = stat()
            if fstat(descriptor, &open) == 0, open.st_dev == named.st_dev, open.st_ino == named.st_ino { return descriptor }
        }
        return nil
    }

    private static func isStoreFile(_ info: stat, store: String) -> Bool {
        for file in TaskStore(path: FileSystem.resolvingSymlinks(store)).ownFiles {
            var other = stat()
            if stat(file, &other) == 0, other.st_dev == info.st_dev, other.st_ino == info.st_ino { return true }
        }
        return false
    }

    private static func writeThrough(to path: String, truncating: Bool, _ produce: (([UInt8]) -> Void) -> Void) throws(FileSystem.Failure) {
        // Non-blocking first: opening a pipe nobody reads fails at once (ENXIO) instead of
        // waiting forever; then the writes block as usual.
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (truncating ? O_TRUNC : 0))
        guard descriptor >= 0 else {
            if errno == ENXIO { throw FileSystem.Failure(reason: "it is a pipe nobody is reading") }
            throw FileSystem.Failure(reason: FileSystem.reason())
        }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        try writeThrough(descriptor, produce)
    }
}
