import FoundationEssentials
import Glibc

/// Tells the run loop when another process may have changed the store: inotify on the store's
/// folder, for the store's own files (the snapshot, its log and the files beside it), so that the
/// loop sleeps until a change rather than looking twice a second. Nil where inotify is not
/// available (the loop then looks every half second, as before).
final class StoreWatch {
    let descriptor: Int32
    private let folder: String
    private let name: String
    private var watch: Int32

    /// What inotify reports that may be a change to the store: a write (the log's appends),
    /// a file closed after writing, made, removed or renamed in (a new snapshot).
    private static let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)

    init?(storePath: String) {
        // The store's own folder: a symbolic link to the store is followed, as its saves are.
        var path = storePath
        if let resolved = realpath(storePath, nil) {
            path = String(cString: resolved)
            free(resolved)
        }
        let slash = path.lastIndex(of: "/")
        folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        watch = -1
        guard armOnFolderOrAncestor() else {
            close(descriptor)
            return nil
        }
    }

    /// The folder that does not exist yet (the very first start, `--file` into a new folder) is
    /// waited for on its nearest ancestor that does: made there, it is watched instead. Without
    /// this the loop looked every half second until a restart.
    private var waitingFor: String?

    /// What an ancestor reports that may be the way to the store's folder appearing.
    private static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Watches the store's folder, or else its nearest ancestor that exists. False when neither
    /// can be watched.
    private func armOnFolderOrAncestor() -> Bool {
        if watch >= 0 { inotify_rm_watch(descriptor, watch) }
        var candidate = folder
        var child: String? = nil
        while true {
            watch = inotify_add_watch(descriptor, candidate, child == nil ? Self.mask : Self.ancestorMask)
            if watch >= 0 {
                waitingFor = child
                return true
            }
            guard errno == ENOENT, candidate != "/", candidate != "." else { return false }
            let slash = candidate.lastIndex(of: "/")
            child = slash.map { String(candidate[candidate.index(after: $0)...]) } ?? candidate
            candidate = slash.map { $0 == candidate.startIndex ? "/" : String(candidate[..<$0]) } ?? "."
        }
    }

    deinit {
        close(descriptor)
    }

    /// Whether the folder is still watched (it is not once it was removed or moved).
    private(set) var isWatching = true

    /// Reads what inotify has to say; true when one of the store's files changed (or events
    /// were lost, which may have been such a change). The lock file is left out: every writer
    /// opens and closes it, the UI's own save that finds it busy too, which would wake the loop
    /// to try again at once, for ever.
    func takeChanges() -> Bool {
        var changed = false
        var rearm = false
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            buffer.withUnsafeBytes { bytes in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = bytes[nameStart..<min(count, nameStart + Int(event.len))].prefix { $0 != 0 }
                    offset = nameStart + Int(event.len)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        changed = true
                    } else if event.wd != watch {
                        // A watch given up for a nearer one (its IN_IGNORED): nothing of the store.
                    } else if let waited = waitingFor {
                        // Watching an ancestor: the way to the folder changed (made, or moved
                        // in), or the ancestor went. Watched again from as near as exists now.
                        if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0
                            || String(decoding: nameBytes, as: UTF8.self) == waited
                        {
                            rearm = true
                        }
                    } else if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        isWatching = false
                        changed = true
                    } else if concerns(String(decoding: nameBytes, as: UTF8.self)) {
                        changed = true
                    }
                }
            }
        }
        if rearm {
            if !armOnFolderOrAncestor() {
                isWatching = false
            }
            // The folder may have come with the store in it (another process's first add).
            changed = changed || waitingFor == nil || !isWatching
        }
        return changed
    }

    /// The store's files: its name, and its name followed by a dot (the log, the backup, the
    /// index, the sync and import bases, temp files of a save), but not the lock.
    private func concerns(_ file: String) -> Bool {
        guard file.hasPrefix(name) else { return false }
        let rest = file.dropFirst(name.count)
        return rest.isEmpty || (rest.hasPrefix(".") && rest != ".lock")
    }
}
