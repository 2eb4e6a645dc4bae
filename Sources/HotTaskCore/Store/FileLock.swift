import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        // O_NONBLOCK, O_NOCTTY: a device in its place must neither hold the open nor become
        // the terminal; it is refused below.
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
        guard fd >= 0 else { throw FileSystem.Failure(reason: "cannot open the lock file \(path): \(FileSystem.reason())") }
        // STORE.md: side files are regular files of your own. A FIFO or device is named, not
        // used (its pid write could reach whatever reads the other end).
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystem.Failure(reason: "cannot open the lock file \(path): \(FileSystem.reason())") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileSystem.Failure(
                reason: "the lock file \(path) is \(FileSystem.describe(info.st_mode)), not a regular file; "
                    + "move it away (it holds no tasks; HotTask makes a new one)")
        }
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
        // Say who holds it (best effort; only messages read it). Not written again when it says
        // so already: a sync takes the lock once per acknowledged write, and each truncation
        // was a metadata write for the file system.
        let pid = Array("\(getpid())\n".utf8)
        var said = [UInt8](repeating: 0, count: pid.count + 1)
        let read = said.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        if read != pid.count || !said.starts(with: pid), ftruncate(fd, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
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
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingBlanksAndNewlines())
    }

    private static func busyMessage(path: String, holder: Int32?, wait: TimeInterval) -> String {
        let who =
            holder.map { pid -> String in
                let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
                    .replacing("\u{0}", with: " ").trimmingBlanks()
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
