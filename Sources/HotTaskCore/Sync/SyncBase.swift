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

    /// Reads the base; none yet (or one for another collection) is a first sync. A base that
    /// cannot be read is an error, never silently a first sync (that would turn every
    /// difference into a conflict).
    static func load(besides store: TaskStore, collection: String) throws(SyncFailure) -> SyncBase {
        let path = path(besides: store)
        let bytes: [UInt8]
        do throws(FileSystem.Failure) {
            // Opened without blocking: a named pipe in its place is an error, never a wait.
            bytes = try FileSystem.readAllWithStamp(path, limit: TaskStore.maximumFileSize, sideFile: true).bytes
        } catch  where error.code == ENOENT || error.code == ENOTDIR {
            return SyncBase(collection: collection)
        } catch {
            throw SyncFailure("cannot read the sync state \(path): \(error.reason)")
        }
        // It decides what is deleted where: one another user could write is not trusted.
        if let problem = FileSystem.untrusted(path) { throw SyncFailure("cannot use the sync state \(path): \(problem)") }
        guard let base = try? JSONDecoder().decode(SyncBase.self, from: Data(bytes)), base.version == currentVersion else {
            throw SyncFailure("the sync state \(path) is damaged; move it aside to sync from scratch (local tasks are kept)")
        }
        return base.collection == collection ? base : SyncBase(collection: collection)
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
