import FoundationEssentials
import Glibc

/// What a sync learned of its agreement with the server, committed in the store's own record:
/// the base entries of the tasks it pulled or merged, in the same record as the local changes
/// they belong to, and each write's new ETag as soon as the server acknowledges it. So a sync
/// cut at any request leaves the store and the base agreeing on what the server has.
///
/// A record's delta is replayed with its changes (`TaskStore.State.pendingSync`); compaction
/// folds the deltas into the base file (`tasks.json.sync`) before the snapshot that stops
/// replaying them, so the base is always the file with the log's deltas on top.
struct SyncDelta: Codable, Equatable, Sendable {
    /// The collection the entries are for; another one starts the base afresh.
    var collection: String
    /// Forget what earlier syncs agreed first (`--resync`).
    var reset = false
    /// The collection's version once a round is done.
    var server: CollectionVersion?
    /// Entries agreed now, by task key.
    var set: [String: SyncBase.Entry] = [:]
    /// Entries no longer agreed (the task is gone on both sides, or left alone there).
    var dropped: [String] = []
    /// Members found unreadable (or said now), by href; nil when none.
    var unreadable: [String: SyncBase.Unreadable]? = nil
    /// Members no longer unreadable (read now, or gone); nil when none.
    var readable: [String]? = nil
    /// The calendars' lists as synced now (a set of calendars); nil: unchanged.
    var lists: SyncBase.SyncedLists? = nil

    init(collection: String, reset: Bool = false, server: CollectionVersion? = nil) {
        self.collection = collection
        self.reset = reset
        self.server = server
    }

    var isEmpty: Bool {
        !reset && server == nil && set.isEmpty && dropped.isEmpty && unreadable == nil && readable == nil && lists == nil
    }

    /// This delta in order as pieces whose entries take at most about `bytes` each: the first
    /// carries the reset and the drops, the last the collection's version.
    func pieces(ofAtMost bytes: Int) -> [SyncDelta] {
        var pieces = [SyncDelta(collection: collection, reset: reset)]
        pieces[0].dropped = dropped
        pieces[0].unreadable = unreadable
        pieces[0].readable = readable
        pieces[0].lists = lists
        var size = 0
        for key in set.keys.sorted() {
            guard let entry = set[key] else { continue }
            let entrySize = entry.calendar.utf8.count + entry.caption.utf8.count + 512
            if size + entrySize > bytes, !pieces[pieces.count - 1].set.isEmpty {
                pieces.append(SyncDelta(collection: collection))
                size = 0
            }
            pieces[pieces.count - 1].set[key] = entry
            size += entrySize
        }
        pieces[pieces.count - 1].server = server
        return pieces
    }

    /// As the log's record carries it: compact JSON with sorted keys.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain strings, numbers and dictionaries cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    init?(json: String) {
        guard let delta = try? JSONValueDecoder.decode(SyncDelta.self, from: Array(json.utf8)) else { return nil }
        self = delta
    }
}

extension SyncBase {
    /// The base with `delta` on top.
    mutating func apply(_ delta: SyncDelta) {
        if delta.reset || delta.collection != collection { self = SyncBase(collection: delta.collection) }
        if let server = delta.server { self.server = server }
        if let lists = delta.lists { self.lists = lists }
        for key in delta.dropped { entries[key] = nil }
        entries.merge(delta.set) { _, new in new }
        if delta.unreadable != nil || delta.readable != nil {
            var skipped = unreadable ?? [:]
            for href in delta.readable ?? [] { skipped[href] = nil }
            skipped.merge(delta.unreadable ?? [:]) { _, new in new }
            unreadable = skipped.isEmpty ? nil : skipped
        }
    }

    /// Folds the log's deltas into the base file (compaction, holding the store's lock).
    static func fold(_ deltas: [SyncDelta], besides store: TaskStore) throws(FileSystem.Failure) {
        guard let first = deltas.first else { return }
        var base: SyncBase
        do throws(SyncFailure) {
            base = try readFile(besides: store) ?? SyncBase(collection: first.collection)
        } catch {
            throw FileSystem.Failure(reason: error.message)
        }
        for delta in deltas { base.apply(delta) }
        do throws(SyncFailure) {
            try base.save(besides: store)
        } catch {
            throw FileSystem.Failure(reason: error.message)
        }
    }
}

extension SyncDelta {
    /// At most how many bytes this delta takes in a log line, judged without encoding it: a
    /// byte of text takes at most 7 there (a control character is `\u001f` in the delta's JSON,
    /// and that JSON is escaped again as the line's string), and an entry's keys, numbers and
    /// flags well under `entryBytes`. A group commit of a few acknowledgements is then not
    /// encoded once only to be measured (a fifth of each group's CPU).
    var lineBytesBound: Int {
        var text = collection.utf8.count + (server?.ctag?.utf8.count ?? 0) + (server?.syncToken?.utf8.count ?? 0)
        var other = 512
        for (key, entry) in set {
            other += Self.entryBytes
            text += key.utf8.count + entry.uid.utf8.count + entry.href.utf8.count + (entry.etag?.utf8.count ?? 0)
            text += entry.orderKey.utf8.count + entry.clocks.utf8.count + entry.calendar.utf8.count
            for value in entry.agreed.values { text += value.textBytes }
        }
        for key in dropped { text += key.utf8.count + 4 }
        for (href, skipped) in unreadable ?? [:] {
            other += 128
            text += href.utf8.count + (skipped.etag?.utf8.count ?? 0) + skipped.reason.utf8.count
        }
        for href in readable ?? [] { text += href.utf8.count + 4 }
        for (url, name) in lists?.byCalendar ?? [:] { text += url.utf8.count + name.utf8.count + 8 }
        for name in lists?.names ?? [] { text += name.utf8.count + 4 }
        return 7 * text + 2 * other
    }

    /// True when a record of this delta alone, named `what`, surely takes at most `limit` bytes
    /// in the log (its header, numbers, origin and checksum well under 512).
    func surelyFits(what: String, in limit: Int) -> Bool {
        lineBytesBound + 7 * (what.utf8.count + (TaskStore.origin?.utf8.count ?? 0)) + 512 <= limit
    }

    /// More than an entry's keys, separators, sort order and flags take as JSON.
    private static let entryBytes = 1024
}

extension FieldValue {
    /// The bytes of text this value is written with (a few more for a short value).
    fileprivate var textBytes: Int {
        switch self {
        case .caption(let text), .note(let text): text.utf8.count
        case .order(let key): key.text.utf8.count
        case .due(let due): DueDate.baseKey(due).utf8.count
        case .tags(let tags): tags.reduce(4) { $0 + $1.utf8.count + 4 }
        case .repeatRule(let rule): rule.stored.utf8.count
        case .list(let name): name.utf8.count
        case .parent: 40
        case .section, .completed: 16
        }
    }
}
