import FoundationEssentials
import Glibc
import HotTaskCore

/// The last resort when the UI quits and cannot save: every task it holds is written to a
/// file of its own, so that nothing typed is lost whatever happened to the store.
enum Rescue {
    /// Writes `list` as an export document to `<store>.rescue-<UTC stamp>` beside the store
    /// (mode 0600, never over an existing file), or in the temp folder when that folder cannot
    /// take it. Returns what to tell the person, naming the file.
    static func write(_ list: TaskList, besides storePath: String, now: Date = Date()) -> String {
        let bytes = StoreDocument.encode(list)
        let storeName = storePath.split(separator: "/").last.map(String.init) ?? "tasks.json"
        let name = "\(storeName).rescue-\(stamp(now))"
        let folder = storePath.contains("/") ? String(storePath[..<(storePath.lastIndex(of: "/") ?? storePath.endIndex)]) : "."
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var failures: [String] = []
        for directory in [folder.isEmpty ? "/" : folder, temporary] {
            for attempt in 1...9 {
                let path = "\(directory)/\(name)" + (attempt == 1 ? "" : "-\(attempt)")
                switch create(path, bytes) {
                case nil:
                    return "every task the app held (\(list.count)) is in \(path); once the store is mended, "
                        + "hottask --import '\(path)' brings them back"
                case EEXIST?:
                    continue
                case let code?:
                    failures.append("\(path): \(String(cString: strerror(code)))")
                }
                break
            }
        }
        return "and no rescue file could be written (\(failures.joined(separator: "; ")))"
    }

    /// 20261122T101500Z: sorts by time, and has no character a shell or a file system minds.
    static func stamp(_ date: Date) -> String {
        Timestamp.formatCompact(date)
    }

    /// Creates `path` with `bytes` (exclusively, not through a symlink) and syncs it; nil when
    /// it worked, else the errno. A half-written file is removed.
    private static func create(_ path: String, _ bytes: [UInt8]) -> Int32? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return errno }
        var failure: Int32?
        do {
            try Descriptor.write(bytes, to: fd)
        } catch {
            failure = error.code
        }
        if failure == nil, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure != nil { unlink(path) }
        return failure
    }
}
