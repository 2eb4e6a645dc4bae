import Foundation

/// What the last sync agreed on with the server, kept beside the store (`tasks.json.sync`):
/// the collection's version and, per task, the version both sides had then. The three-way
/// merge compares each side with it; without it every difference would be a conflict.
struct SyncBase: Codable, Equatable, Sendable {
    static let currentVersion = 1

    var version = SyncBase.currentVersion
    /// The collection this is the base for; another URL starts afresh.
    var collection: String
    var server = CollectionVersion()
    /// By local id (lowercase text).
    var entries: [String: Entry] = [:]
    /// Members whose body HotTask cannot read (not iCalendar), by href: left alone there, and
    /// skipped until their ETag changes. nil in a base from before them.
    var unreadable: [String: Unreadable]? = nil

    /// A member HotTask cannot read, as it was last fetched.
    struct Unreadable: Codable, Equatable, Sendable {
        var etag: String?
        /// What the parser said.
        var reason: String
        /// Said on a terminal already (a sync of the app says nothing: the next `--sync` does).
        var named: Bool
    }

    struct Entry: Codable, Equatable, Sendable {
        var uid: String
        var href: String
        var etag: String?
        var caption: String
        var section: String
        var completed: Bool
        var sortOrder: Int?
        /// The due date agreed on (`DueDate.baseKey`: "" for none); nil in a base written before
        /// due dates, when the later change wins.
        var due: String?
        /// The local order key the task had when this was agreed (a local move changes it).
        var orderKey: String
        /// When each field got the value agreed on (as the store writes clocks):
        /// a field pushed later unchanged keeps the time of the edit that made it.
        var clocks: String
        /// The calendar object as the server has it, for writing back what HotTask does not know.
        var calendar: String
        /// Written by a sync that did not hear back: the server may or may not have it. Such an
        /// entry is the base of a merge when the server has the task, and the task is created
        /// again when it does not; it is never evidence that the server deleted it.
        var tentative: Bool? = nil

        var isTentative: Bool { tentative == true }

        var fieldClocks: FieldClocks { StoreDocument.clocks(from: Substring(clocks)) ?? FieldClocks() }

        var fields: SharedFields {
            SharedFields(caption: caption, section: Section(rawValue: section) ?? .bonus, completed: completed, sortOrder: sortOrder)
        }
    }

    init(collection: String) {
        self.collection = collection
    }

    /// The base file of a store.
    static func path(besides store: TaskStore) -> String { store.path + ".sync" }

    /// The base: the file with the deltas of the log's records on top (`pending`, from a read of
    /// the store made before the file is read, so that a compaction in between is seen in the
    /// file). None yet, or one for another collection, is a first sync. A base that cannot be
    /// read is an error, never silently a first sync (that would turn every difference into a
    /// conflict).
    static func load(besides store: TaskStore, collection: String, pending: [SyncDelta]) throws(SyncFailure) -> SyncBase {
        var base = try readFile(besides: store) ?? SyncBase(collection: collection)
        for delta in pending { base.apply(delta) }
        return base.collection == collection ? base : SyncBase(collection: collection)
    }

    /// The base file alone; nil when there is none.
    static func readFile(besides store: TaskStore) throws(SyncFailure) -> SyncBase? {
        let path = path(besides: store)
        let bytes: [UInt8]
        do throws(FileSystem.Failure) {
            // Opened without blocking: a named pipe in its place is an error, never a wait.
            bytes = try FileSystem.readAllWithStamp(path, limit: StoreLimits.readBytes, sideFile: true).bytes
        } catch  where error.code == ENOENT || error.code == ENOTDIR {
            return nil
        } catch {
            throw SyncFailure("cannot read the sync state \(path): \(error.reason)")
        }
        // It decides what is deleted where: one another user could write is not trusted.
        if let problem = FileSystem.untrusted(path) { throw SyncFailure("cannot use the sync state \(path): \(problem)") }
        guard let base = try? JSONDecoder().decode(SyncBase.self, from: Data(bytes)), base.version == currentVersion else {
            throw SyncFailure("the sync state \(path) is damaged; move it aside to sync from scratch (local tasks are kept)")
        }
        return base
    }

    func save(besides store: TaskStore) throws(SyncFailure) {
        let path = Self.path(besides: store)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(self)
            FileSystem.removeDeadWritersTempFiles(besides: path)
            try FileSystem.writeAtomically(Array(data), to: path)
        } catch let error as FileSystem.Failure {
            throw SyncFailure("cannot write the sync state \(path): \(error.reason)")
        } catch {
            throw SyncFailure("cannot write the sync state \(path): \(error)")
        }
    }
}
