import FoundationEssentials
import Glibc

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
    /// For a set of calendars (`CalendarSet`): each calendar's list as last synced, and the
    /// store's lists then, to tell a rename there from one here. nil for one calendar.
    var lists: SyncedLists? = nil

    struct SyncedLists: Codable, Equatable, Sendable {
        /// Calendar URL → the list's name.
        var byCalendar: [String: String]
        /// The store's list names, in order (a rename keeps a list's place).
        var names: [String]
    }

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
        /// The value of each shared field (`TaskField.shared`) both sides agreed on. A field the
        /// HotTask that wrote the entry did not know is missing (see `TaskField.oldBasesMean`).
        var agreed: [TaskField: FieldValue]
        var sortOrder: Int?
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
        /// The href the task had in another calendar before a move between lists (here or on a
        /// phone): deleted there after the write to the new calendar, and the entry keeps it until
        /// the server acknowledges the delete, so a sync cut at any request leaves one copy.
        var movedFrom: String? = nil

        init(
            uid: String, href: String, etag: String?, fields: SharedFields, orderKey: String, clocks: String, calendar: String,
            tentative: Bool? = nil
        ) {
            self.uid = uid
            self.href = href
            self.etag = etag
            agreed = [:]
            for field in TaskField.shared { agreed[field] = fields[field] }
            sortOrder = fields.sortOrder
            self.orderKey = orderKey
            self.clocks = clocks
            self.calendar = calendar
            self.tentative = tentative
        }

        var isTentative: Bool { tentative == true }

        var caption: String {
            if case .caption(let caption)? = agreed[.caption] { return caption }
            return ""
        }

        var fieldClocks: FieldClocks { StoreDocument.clocks(from: Substring(clocks)) ?? FieldClocks() }

        /// The value agreed on for `field`: nil when the base's writer did not know the field
        /// and it means no value (then any value on a side counts as a change there).
        func base(_ field: TaskField) -> FieldValue? {
            agreed[field] ?? field.oldBasesMean
        }

        /// The agreed fields; one the base does not know has no value.
        var fields: SharedFields {
            var fields = SharedFields(caption: caption, section: .bonus, completed: false, sortOrder: sortOrder)
            for field in TaskField.shared { if let value = agreed[field] { fields[field] = value } }
            return fields
        }

        // The file's keys: the shared fields' own (`TaskField.key`), and these.
        private enum Key: String, CodingKey {
            case uid, href, etag, sortOrder, orderKey, clocks, calendar, tentative, movedFrom
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            uid = try container.decode(String.self, forKey: .uid)
            href = try container.decode(String.self, forKey: .href)
            etag = try container.decodeIfPresent(String.self, forKey: .etag)
            sortOrder = try container.decodeIfPresent(Int.self, forKey: .sortOrder)
            orderKey = try container.decode(String.self, forKey: .orderKey)
            clocks = try container.decode(String.self, forKey: .clocks)
            calendar = try container.decode(String.self, forKey: .calendar)
            tentative = try container.decodeIfPresent(Bool.self, forKey: .tentative)
            movedFrom = try container.decodeIfPresent(String.self, forKey: .movedFrom)
            let fields = try decoder.container(keyedBy: FieldKey.self)
            agreed = [:]
            for field in TaskField.shared {
                if let value = try field.decodeBase(from: fields) {
                    agreed[field] = value
                } else if case .always = field.inOldBases {
                    throw DecodingError.keyNotFound(FieldKey(field.key), .init(codingPath: decoder.codingPath, debugDescription: "no \(field.key)"))
                }
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(uid, forKey: .uid)
            try container.encode(href, forKey: .href)
            try container.encodeIfPresent(etag, forKey: .etag)
            try container.encodeIfPresent(sortOrder, forKey: .sortOrder)
            try container.encode(orderKey, forKey: .orderKey)
            try container.encode(clocks, forKey: .clocks)
            try container.encode(calendar, forKey: .calendar)
            try container.encodeIfPresent(tentative, forKey: .tentative)
            try container.encodeIfPresent(movedFrom, forKey: .movedFrom)
            var fields = encoder.container(keyedBy: FieldKey.self)
            for field in TaskField.shared { if let value = agreed[field] { try field.encodeBase(value, to: &fields) } }
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
        // It decides what is deleted where: one another user could write is not trusted.
        func trust() throws(SyncFailure) {
            if let problem = FileSystem.untrusted(path) { throw SyncFailure("cannot use the sync state \(path): \(problem)") }
        }
        // Read ahead while the network answered (`SyncBaseAhead`), when the file is still that one.
        if let ahead = SyncBaseAhead.shared.take(path), ahead.version == currentVersion {
            try trust()
            return ahead
        }
        let bytes: [UInt8]
        do throws(FileSystem.Failure) {
            // Opened without blocking: a named pipe in its place is an error, never a wait.
            bytes = try FileSystem.readAllWithStamp(path, limit: StoreLimits.readBytes, sideFile: true).bytes
        } catch  where error.code == ENOENT || error.code == ENOTDIR {
            return nil
        } catch {
            throw SyncFailure("cannot read the sync state \(path): \(error.reason)")
        }
        try trust()
        guard let base = try? JSONValueDecoder.decode(SyncBase.self, from: bytes), base.version == currentVersion else {
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
