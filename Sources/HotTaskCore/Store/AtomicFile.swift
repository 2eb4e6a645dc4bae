import CFileSync
import FoundationEssentials
import Glibc

/// Files replaced whole: a temp file beside the one replaced, renamed over it once on disk.
extension FileSystem {
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
        /// The first write that failed; later writes are skipped and `finishWriting` throws it.
        private var failure: Failure?
        /// The bytes written so far.
        private var written = 0

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
            // A large piece starts for the disk now: the fsync at the end then waits for the
            // last piece only, not for the whole file (a snapshot and its backup are 37 MB each
            // at 100,000 tasks). Only a start: the fsync still says whether it all arrived.
            if failure == nil, bytes.count >= Self.earlyWriteBack { _ = hc_start_writeback(fd, off_t(written), off_t(bytes.count)) }
            written += bytes.count
        }

        /// The size from which a piece written is sent to the disk at once.
        private static let earlyWriteBack = 256 << 10

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
}
