import Dispatch
import FoundationEssentials
import Glibc

/// The base file read ahead, on a thread of its own, while the sync's first request is on the
/// network: a sync with nothing to do of 2,000 tasks in 10 calendars spent 70 ms reading it
/// after the answer (issue 53). `SyncBase.readFile` takes it, under the sync lock as before,
/// only while the file is still the one read (the same stamp: every write of it renames a new
/// file into place); otherwise it reads the file again.
final class SyncBaseAhead: @unchecked Sendable {
    static let shared = SyncBaseAhead()

    private let lock = ThreadLock()
    private let group = DispatchGroup()
    private var read: (path: String, stamp: FileStamp, base: SyncBase)?

    /// Starts reading the base file at `path`.
    func start(_ path: String) {
        OwnThread.run(in: group) { [self] in
            guard let file = try? FileSystem.readAllWithStamp(path, limit: StoreLimits.readBytes, sideFile: true), let stamp = file.stamp,
                let base = try? JSONValueDecoder.decode(SyncBase.self, from: file.bytes)
            else { return }
            lock.withLock { read = (path, stamp, base) }
        }
    }

    /// The base read ahead from `path`, if the file there is still the one read; taken once.
    func take(_ path: String) -> SyncBase? {
        group.wait()
        let ahead = lock.withLock {
            defer { read = nil }
            return read
        }
        guard let ahead, ahead.path == path, FileSystem.stamp(of: path) == ahead.stamp else { return nil }
        return ahead.base
    }
}

extension TaskStore {
    /// Starts reading the sync state beside the store ahead of the sync that will need it.
    public func readSyncStateAhead() {
        SyncBaseAhead.shared.start(SyncBase.path(besides: self))
    }
}
