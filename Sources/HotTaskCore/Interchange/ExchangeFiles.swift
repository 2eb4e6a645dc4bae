import FoundationEssentials
import Glibc

/// The side files an import leaves (`tasks.json.imported`, `tasks.json.carried`), committed
/// inside the import's own commit (issue 51), as a sync's state is in its records (`SyncDelta`).
///
/// They are written first, whole, under a name that carries a token
/// (`tasks.json.imported.next-<token>`). The import's record names the token
/// (`LogRecord.exchange`), or, folded into a new snapshot as it is committed, the snapshot's
/// generation is the token. Once committed they are renamed into place. A kill between leaves
/// files that the next import, export or fold settles by the store itself: renamed into place
/// when the store holds the record that names them, removed when it does not. So a killed
/// import never leaves the bases a step behind the store, where a task edited here was then
/// overwritten by a re-import of a file that had not changed.
///
/// Only writers holding the store's lock write or settle them.
extension TaskStore {
    /// What a pending file's name adds to the file it replaces.
    static let pendingMark = ".next-"

    /// The side files an import commits.
    var exchangeFiles: [String] { [ImportBase.path(besides: self), CarriedFields.path(besides: self)] }

    /// Where `file` waits for the commit that names `token`.
    static func pendingPath(_ file: String, token: Generation) -> String { file + pendingMark + token.text }

    /// The pending files beside the store, each with the file it replaces and its token, and
    /// the temp files of pending writes that were killed (all debris: they are written under
    /// the lock, which the caller holds).
    private func pendingExchange() -> (pending: [(file: String, token: Generation, path: String)], debris: [String]) {
        let folder = FileSystem.folder(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return ([], []) }
        var pending: [(file: String, token: Generation, path: String)] = []
        var debris: [String] = []
        for file in exchangeFiles {
            let name = FileSystem.lastComponent(of: file) + Self.pendingMark
            for entry in names {
                if entry.hasPrefix(name), let token = Generation(String(entry.dropFirst(name.count))) {
                    pending.append((file, token, folder + "/" + entry))
                } else if entry.hasPrefix("." + name) {
                    debris.append(folder + "/" + entry)
                }
            }
        }
        return (pending, debris)
    }

    /// Settles the pending files by the store as `generation` and `records` (the records
    /// replayed on it) show it: those whose token the store holds are renamed into place, the
    /// rest removed. `except`: the token being committed now, left for its commit.
    func settleExchange(generation: Generation?, records: [LogRecord], except: Generation? = nil) {
        let (pending, debris) = pendingExchange()
        for path in debris { unlink(path) }
        guard !pending.isEmpty else { return }
        let committed = Set(records.lazy.filter { $0.generation == generation }.compactMap(\.exchange))
        for file in pending where file.token != except {
            if file.token == generation || committed.contains(file.token) {
                rename(file.path, file.file)
            } else {
                unlink(file.path)
            }
        }
        FileSystem.syncFolder(FileSystem.folder(of: path))
    }

    /// Settles the pending files, reading the store only when there are any (after a kill).
    func settleExchange(in txn: StoreTransaction) throws(StoreError) {
        guard !pendingExchange().pending.isEmpty else { return }
        let state = try txn.whole()
        settleExchange(generation: state.header?.generation, records: state.history)
    }

    /// Puts the files pending under `token` in place: their commit is done.
    func adoptExchange(_ token: Generation) {
        var moved = false
        for file in exchangeFiles where rename(Self.pendingPath(file, token: token), file) == 0 { moved = true }
        if moved { FileSystem.syncFolder(FileSystem.folder(of: path)) }
    }

    /// The base an import of `tasks` leaves beside the store, written under `token` on a
    /// thread of its own as the import goes on (`writeExchange` waits for it).
    func pendingBase(_ tasks: [TaskItem], ids: SortedIDs, onto base: ImportBase, token: Generation) -> ImportBase.PendingWrite {
        ImportBase.PendingWrite(tasks, ids: ids, onto: base, path: Self.pendingPath(ImportBase.path(besides: self), token: token))
    }

    /// Finishes what an import of `source` leaves beside the store under `token`, ready for its
    /// commit: the base `base` writes, and `carried`. Returns the token, or nil when nothing
    /// was written. A file that cannot be written refuses the import, changing nothing:
    /// committed without it, the bases would disagree with the store, and a later re-import
    /// would overwrite edits made here. What was written under the token is the caller's to
    /// discard (`discardExchange`), as it is on any refusal before the commit.
    func writeExchange(token: Generation, base: ImportBase.PendingWrite?, carried: CarriedFields?, source: String) throws -> Generation? {
        func refuse(_ file: String, _ error: StoreDocument.ExportFailure) -> UserFacingError {
            UserFacingError(
                .storeUnwritable,
                "cannot import \(source): could not write \(file) (\(error.reason)), which keeps what the file said for its next import. Nothing was changed"
            )
        }
        var written = false
        do throws(StoreDocument.ExportFailure) {
            written = try base?.written() ?? false
        } catch {
            throw refuse(ImportBase.path(besides: self), error)
        }
        if let carried {
            let file = CarriedFields.path(besides: self)
            do throws(StoreDocument.ExportFailure) {
                try carried.save(to: Self.pendingPath(file, token: token))
            } catch {
                throw refuse(file, error)
            }
            written = true
        }
        return written ? token : nil
    }

    /// Removes the files pending under `token`: they were never named by a commit.
    func discardExchange(_ token: Generation) {
        for file in exchangeFiles { unlink(Self.pendingPath(file, token: token)) }
    }
}
