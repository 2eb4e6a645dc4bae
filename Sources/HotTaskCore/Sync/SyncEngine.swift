import FoundationEssentials
import Glibc
import Synchronization

/// What one sync did, for the line `--sync` prints and the UI's footer.
public struct SyncReport: Equatable, Sendable, CustomStringConvertible {
    /// Tasks changed or added here from the server.
    var pulled = 0
    /// Tasks written to the server.
    var pushed = 0
    /// Tasks changed on both sides, field by field.
    var merged = 0
    var deletedHere = 0
    var deletedThere = 0
    /// The captions of the tasks deleted, each side: a deletion is never silent.
    var deletedHereCaptions: [String] = []
    var deletedThereCaptions: [String] = []
    /// What did not go through and is tried again at the next sync (a write the server refused,
    /// a task it listed but did not send): `hottask-sync` names each and exits 5.
    public var problems: [String] = []
    /// What the sync left alone and says once (a member whose body HotTask cannot read): said
    /// on stderr, the sync still succeeds.
    public var notes: [String] = []

    init() {}

    public var description: String {
        var line = "pulled \(pulled), pushed \(pushed), merged \(merged), deleted \(deletedHere) here and \(deletedThere) on the server"
        if !deletedHereCaptions.isEmpty { line += "; deleted here: " + DeletionGuard.list(deletedHereCaptions, limit: 20) }
        if !deletedThereCaptions.isEmpty { line += "; deleted on the server: " + DeletionGuard.list(deletedThereCaptions, limit: 20) }
        return line
    }
}

/// One sync of a store with a calendar collection: what changed on each side since the last
/// agreed version (the `SyncBase`) is merged field by field, committed here as one logged
/// change, and written there with conditional requests.
///
/// Local first, then the server: a local commit never waits on the network after it, and a
/// failed write leaves the base saying "not agreed yet", so the next sync writes it again.
/// A 412 (someone wrote in between) starts another round, at most `maximumRounds`.
final class SyncEngine {
    static let maximumRounds = 4
    /// A round that wrote this many tasks folds the log when it is done.
    static let foldAfterWrites = 200

    /// What the log calls a sync's merge (`LogRecord.isSyncMerge` tells it apart).
    static func recordName(_ url: String) -> String { LogRecord.syncMergePrefix + url }

    let store: TaskStore
    let collection: CalendarCollection
    let now: () -> Date
    /// `--force-delete`: apply deletions the `DeletionGuard` would refuse.
    let forceDelete: Bool
    /// `--resync`: forget what earlier syncs agreed, so that nothing is deleted on either side.
    let forgetBase: Bool
    /// The app's own sync (`hottask-sync --quiet`): its notes are kept for the next `--sync`.
    let quiet: Bool
    /// What `prepare` said (calendars made for lists), for the report.
    private var preparedNotes: [String] = []
    /// Told how many writes are done of how many, from the threads that send them.
    var progress: (@Sendable (_ sent: Int, _ total: Int) -> Void)?

    init(
        store: TaskStore, collection: CalendarCollection, now: @escaping () -> Date = Date.init, forceDelete: Bool = false,
        forgetBase: Bool = false, quiet: Bool = false
    ) {
        self.store = store
        self.collection = collection
        self.now = now
        self.forceDelete = forceDelete
        self.forgetBase = forgetBase
        self.quiet = quiet
    }

    /// Runs one sync. Throws `SyncFailure` for the server, `StoreError` for the store.
    func run() throws -> SyncReport {
        let lock: FileLock
        do {
            try FileSystem.makeDirectories(FileSystem.folder(of: store.path))
            lock = try FileLock(path: SyncBase.path(besides: store) + ".lock", wait: 0)
        } catch {
            throw SyncFailure(error.busy ? "another sync of this store is running" : error.reason)
        }
        defer { withExtendedLifetime(lock) {} }
        // The store first, then the base file: a compaction in between is then seen in the file.
        // Only syncs write sync state, and this one holds the sync lock: the base stays as read,
        // but for what this sync commits.
        var base = try SyncBase.load(besides: store, collection: collection.url, pending: try store.pendingSync())
        // What .ics imports kept: tasks new to the server go up as their files had them. One that
        // cannot be read stops the sync, naming it: going on, those tasks went up under HotTask's
        // own UIDs, and a server that had them under theirs kept both.
        let carried: CarriedFields
        do {
            carried = try CarriedFields.load(besides: store)
        } catch {
            throw StoreError(path: error.path, problem: .unreadable(error.reason))
        }
        var reset = forgetBase
        if forgetBase { base = SyncBase(collection: collection.url) }
        // Nothing agreed yet: make sure the URL is a task calendar before anything is written
        // (a principal taken for a calendar got one new calendar per task on Radicale).
        if base.entries.isEmpty && !base.server.isKnown { try collection.checkTakesTasks() }
        preparedNotes = try prepareCalendars(base: base)
        var report = SyncReport()
        report.notes = preparedNotes
        for attempt in 0..<Self.maximumRounds {
            let done = try round(&base, report: &report, afterConflict: attempt > 0, carried: carried, reset: reset)
            reset = false
            if done {
                // Linear: 120,000 undelivered members once made this a minute of CPU.
                var seen = Set<String>()
                report.problems = report.problems.filter { seen.insert($0).inserted }
                return report
            }
        }
        throw SyncFailure(
            "\(collection.url) kept changing tasks while HotTask wrote them (\(Self.maximumRounds) tries); local tasks are kept, try again")
    }

    // MARK: One round

    /// What the server holds for a task this round.
    enum Remote {
        case changed(RemoteTodo, href: String, etag: String?)
        case removed
        /// Now something HotTask leaves alone (cancelled, no longer a VTODO).
        case ignored
    }

    /// One write to the server, planned under the store's lock and sent after the commit.
    struct Push {
        var id: UUID
        var href: String
        var etag: String?
        /// nil: delete.
        var entry: SyncBase.Entry?
        var isNew: Bool
        /// The task's caption, for what a delete says.
        var caption: String? = nil
        /// A move between lists: the member in the calendar it left, deleted once the write
        /// (if any) is acknowledged; the entry forgets it when the delete is.
        var movedFrom: String? = nil
        /// False: only the delete of `movedFrom` (its write went through before).
        var putting = true
    }

    /// Returns false when a write met a 412 and another round is needed. The round's local
    /// changes and the base entries they agree on are one record; a task about to be created
    /// there is recorded as tentative in it; each answer of the server is committed as it
    /// comes (`AcknowledgedWrites`); the collection's version last.
    private func round(
        _ base: inout SyncBase, report: inout SyncReport, afterConflict: Bool, carried: CarriedFields, reset: Bool
    ) throws -> Bool {
        let view = try remoteChanges(base: base, afterConflict: afterConflict)
        let remote = view.remote
        let serverVersion = view.version

        let startedAt = now()
        var pushes: [Push] = []
        var counts = SyncReport()
        var delta = SyncDelta(collection: collection.url, reset: reset)
        try store.transaction(.everything) { txn in
            let state = try txn.whole()
            var plan = SyncPlan(list: state.list, base: base, remote: remote, now: startedAt, collection: collection, carried: carried)
            plan.build()
            if !forceDelete {
                var deletionGuard = DeletionGuard(base: base, list: state.list, remote: remote, evidence: view.evidence, listed: view.listed)
                deletionGuard.set = collection as? CalendarSet
                if let refusal = deletionGuard.refusal(deletingThere: plan.pushes) { throw refusal }
            }
            pushes = plan.pushes
            counts = plan.counts
            delta.dropped = plan.forgotten.sorted()
            delta.set = plan.agreed
            for push in pushes where push.isNew {
                guard var entry = push.entry else { continue }
                entry.tentative = true
                delta.set[push.id.uuidString.lowercased()] = entry
            }
            // Members HotTask cannot read: recorded, and named once (by a sync that can say it).
            var unreadable = view.unreadable
            for (href, skipped) in base.unreadable ?? [:] where !skipped.named && !quiet && unreadable[href] == nil {
                unreadable[href] = SyncBase.Unreadable(etag: skipped.etag, reason: skipped.reason, named: true)
                counts.notes.append(Self.unreadableNote(href, skipped.reason))
            }
            for (href, skipped) in view.unreadable where skipped.named { counts.notes.append(Self.unreadableNote(href, skipped.reason)) }
            if !unreadable.isEmpty { delta.unreadable = unreadable }
            if !view.readable.isEmpty { delta.readable = view.readable }
            let listsChange = Self.listsForCalendars(collection, in: state.list, base: base, delta: &delta)
            counts.notes += Self.cycleNotes(plan.changes, before: state.list, after: plan.working)
            guard !plan.changes.isEmpty || !delta.isEmpty || listsChange != nil else { return }
            try txn.commit(plan.changes, what: Self.recordName(collection.url), sync: delta, lists: listsChange, now: startedAt)
        }
        base.apply(delta)
        report.pulled += counts.pulled
        report.merged += counts.merged
        report.deletedHere += counts.deletedHere
        report.deletedHereCaptions += counts.deletedHereCaptions
        report.problems += counts.problems
        report.notes += counts.notes
        report.problems += Self.undeliveredProblems(view.undelivered)
        report.notes += (view.refusedHrefs + collection.takeRefusedHrefs()).map {
            "skipped \($0): the server named it outside the calendar (another host, or out of its folder); nothing is sent there"
        }

        // Every write at once over the collection's connections, each answer committed as it
        // comes; their outcomes are then taken in order for the report.
        let sent = SentCount(total: pushes.count, progress: progress)
        let acknowledged = AcknowledgedWrites(store: store, collection: collection.url, now: startedAt)
        let outcomes = Parallel.map(pushes, width: collection.parallelRequests) { [collection] push throws(SyncFailure) -> WriteOutcome in
            defer { sent.one() }
            let outcome: WriteOutcome
            if !push.putting {
                outcome = .written(etag: push.entry?.etag)
            } else if let entry = push.entry {
                // An update whose ETag the server never gave: "If-Match: *" (it must still be there).
                outcome = try collection.put(push.href, body: entry.calendar, ifMatch: push.isNew ? nil : push.etag ?? "*")
            } else {
                outcome = try collection.delete(push.href, ifMatch: push.etag)
            }
            if push.putting { acknowledged.acknowledge(push, outcome) }
            // A move: the copy in the calendar it left goes once the new one is written, and the
            // entry forgets it only when the server says so (a cut in between deletes it next time).
            if let from = push.movedFrom, var entry = push.entry, case .written(let etag) = outcome {
                switch try collection.delete(from, ifMatch: nil) {
                case .written, .gone: break
                case .conflict, .refused: return outcome  // tried again next time
                }
                entry.movedFrom = nil
                var moved = push
                moved.entry = entry
                acknowledged.acknowledge(moved, .written(etag: etag))
            }
            return outcome
        }
        for committed in try acknowledged.finish() { base.apply(committed) }
        var conflicted = false
        var firstFailure: SyncFailure?
        for (push, outcome) in zip(pushes, outcomes) where push.putting {
            let written: WriteOutcome
            switch outcome {
            case .success(let value): written = value
            case .failure(let failure):
                // The others' outcomes still count; this one is written again next time.
                firstFailure = firstFailure ?? failure
                continue
            }
            guard let entry = push.entry else {
                let caption = push.caption.map(CaptionRule.shown) ?? push.href
                switch written {
                case .written, .gone:
                    report.deletedThere += 1
                    report.deletedThereCaptions.append(caption)
                case .conflict:
                    conflicted = true
                case .refused(let status, let reason):
                    report.problems.append("the server refused to delete \"\(caption)\" (\(status) \(reason)); it is tried again next time")
                }
                continue
            }
            switch written {
            case .written:
                report.pushed += 1
            case .conflict, .gone:
                // Changed or removed meanwhile: the next round fetches it and merges again.
                conflicted = true
            case .refused(let status, let reason):
                // The base keeps saying "not agreed": the next sync writes it again.
                report.problems.append(
                    "the server refused \"\(CaptionRule.shown(entry.caption))\" (\(status) \(reason)); it is tried again next time")
            }
        }
        // What went through is committed already, before the failure is told.
        if let firstFailure { throw firstFailure }
        if conflicted { return false }
        var version = serverVersion
        if !pushes.isEmpty {
            if let token = serverVersion.syncToken {
                // A member made after a token and deleted since need not be reported from it at
                // all (RFC 6578 §3.5.1): after making members, take the token past our own
                // writes now, if nothing else changed, or another client's delete of one of them
                // would never be seen. Updates and deletes of older members need not: the next
                // sync-collection reports them, with the ETags the base already holds.
                if pushes.contains(where: { $0.isNew && $0.entry != nil }), let changes = try collection.changes(since: token) {
                    let known = Dictionary(base.entries.values.map { ($0.href, $0.etag) }, uniquingKeysWith: { a, _ in a })
                    let onlyOurs =
                        changes.removed.allSatisfy { known[$0] == nil }
                        && changes.changed.allSatisfy { href, etag in etag != nil && known[href] == etag }
                    version = onlyOurs ? CollectionVersion(syncToken: changes.token ?? token) : CollectionVersion()
                }
            } else {
                version = CollectionVersion()  // ctag only: the next sync compares ETags
            }
        }
        // Many acknowledgements are folded into the base file at once: every later command
        // reads the log whole, and each of these records carries a calendar body (a quiet sync
        // after a first upload of 2,000 decoded them for most of its CPU). So is a large pull:
        // the 1.6 MB record of 2,000 tasks pulled cost each later sync 0.46 s of CPU.
        let logBytes = FileSystem.stamp(of: store.journalPath)?.size ?? 0
        let folds = pushes.count >= Self.foldAfterWrites || logBytes >= Int64(StoreLimits.commandRecordInLog)
        if version != base.server || folds {
            let agreed = SyncDelta(collection: collection.url, server: version)
            // A fold reads the whole store: read once, the version's record is appended to it
            // (reading the log's header view first decoded every acknowledgement twice).
            try store.storeTransaction(folds ? .everything : .header) { txn throws(StoreError) in
                if version != base.server {
                    try txn.commit([], what: AcknowledgedWrites.recordName(collection.url), sync: agreed, now: startedAt)
                }
                // Everything is committed already: a fold that fails (a full disk) is left to a
                // later writer, as a log past its limits is.
                if folds { try? txn.fold() }
            }
            base.apply(agreed)
        }
        return true
    }

    /// What a round learned of the server: each task's news, the version to record once the
    /// round is done, and how removals were learned (for the `DeletionGuard`).
    struct RemoteView {
        var remote: [UUID: Remote] = [:]
        var version: CollectionVersion
        var evidence = RemovalEvidence.unchanged
        /// Members in the listing, when it was a listing.
        var listed: Int?
        /// Members listed but not sent.
        var undelivered: [String] = []
        /// Members sent in a form HotTask cannot read, new or changed since they were recorded.
        var unreadable: [String: SyncBase.Unreadable] = [:]
        /// Members recorded as unreadable that now read, or are gone.
        var readable: [String] = []
        /// The collection changed while it was listed: its absences prove nothing this round.
        var listingMoved = false
        /// Members the listing named outside the calendar (another host, out of its folder):
        /// skipped, so their absence from it proves nothing.
        var refusedHrefs: [String] = []
    }

    /// What changed on the server since the base: by sync token where the server keeps one,
    /// else by comparing every member's ETag with the base.
    /// After a 412 the version is not trusted to say "nothing changed": the conflicting member
    /// is looked at again whatever it says.
    private func remoteChanges(base: SyncBase, afterConflict: Bool) throws -> RemoteView {
        var changed: [String: String?] = [:]
        var removed: [String] = []
        let byHref = Dictionary(base.entries.map { ($0.value.href, $0.key) }, uniquingKeysWith: { a, _ in a })
        // A write the last sync did not hear back about may never have arrived: its absence from a
        // listing is no evidence of a delete there.
        let heardBack = byHref.filter { base.entries[$0.value]?.isTentative != true }
        // With a sync token, one sync-collection says both "nothing changed" and what did: no
        // PROPFIND first (a round trip saved on every sync that has something to do).
        let changes = try base.server.syncToken.flatMap { token throws(SyncFailure) in try collection.changes(since: token) }
        var version = CollectionVersion()
        if changes == nil {
            version = try collection.version()
            if version.isKnown, version == base.server, !afterConflict { return RemoteView(version: version) }
        }
        var view = RemoteView(version: version)
        if let changes {
            changed = changes.changed
            removed = changes.removed
            view.version = CollectionVersion(syncToken: changes.token ?? base.server.syncToken)
            view.evidence = changed.isEmpty && removed.isEmpty ? .unchanged : .syncToken
        } else {
            changed = try collection.listing()
            view.evidence = .listing
            view.listed = changed.count
            view.refusedHrefs = collection.takeRefusedHrefs()
            // Absence from a listing is evidence only if nothing changed while it was made, and
            // only if it skipped no member: a synced task the server now names under another
            // host (a proxy) is missing from it, not deleted. Looked at again next time.
            if !view.refusedHrefs.isEmpty {
                view.listingMoved = true
            } else if !heardBack.isEmpty, heardBack.keys.contains(where: { changed[$0] == nil }) {
                let after = try collection.version()
                if after.isKnown && after == version {
                    removed = heardBack.keys.filter { changed[$0] == nil }
                } else {
                    // Looked at again next time (the version is not recorded).
                    view.listingMoved = true
                }
            }
        }
        // Copies a move is leaving are neither the task nor evidence of its delete: they go.
        let leaving = Set(base.entries.values.compactMap(\.movedFrom))
        if !leaving.isEmpty {
            changed = changed.filter { !leaving.contains($0.key) }
            removed = removed.filter { !leaving.contains($0) }
        }
        let skipped = base.unreadable ?? [:]
        let wanted = changed.filter { href, etag in
            // A body that did not read, unchanged since: left alone.
            if let etag, skipped[href]?.etag == etag { return false }
            guard let key = byHref[href], let entry = base.entries[key], let etag else { return true }
            return entry.etag != etag
        }
        let fetched = wanted.isEmpty ? [:] : try collection.fetch(wanted.keys.sorted())
        // A member the server listed but did not send is neither changed nor removed: it is
        // asked for again next time (the version is kept). One sent in a form HotTask cannot
        // read is left alone there, named once, and read again when its ETag changes.
        view.undelivered += wanted.keys.filter { fetched[$0] == nil }.sorted()
        for (href, resource) in fetched {
            let bytes = resource.bytes
            let reading =
                bytes > Self.maximumObjectBytes
                ? TodoMapping.Reading.unreadable(
                    "\((Double(bytes) / 1_048_576).oneDecimal) MB, over the \(Self.maximumObjectBytes >> 20) MB a task may take")
                : TodoMapping.read(resource.body)
            if case .unreadable = reading {} else if skipped[href] != nil { view.readable.append(href) }
            switch reading {
            case .todo(let todo):
                let id = byHref[href].flatMap(UUID.init(uuidString:)) ?? TodoMapping.id(forUID: todo.uid)
                view.remote[id] = .changed(todo, href: href, etag: resource.etag)
            case .ignored:
                if let id = byHref[href].flatMap(UUID.init(uuidString:)) { view.remote[id] = .ignored }
            case .unreadable(let reason):
                view.unreadable[href] = SyncBase.Unreadable(etag: resource.etag, reason: reason, named: !quiet)
            }
        }
        for href in removed where skipped[href] != nil { view.readable.append(href) }
        for href in removed {
            // The same task under another spelling of its href is changed, not removed.
            if let id = byHref[href].flatMap(UUID.init(uuidString:)), view.remote[id] == nil { view.remote[id] = .removed }
        }
        if !view.undelivered.isEmpty || view.listingMoved { view.version = base.server }
        return view
    }
}

/// Writes done so far, counted from the sending threads, for `SyncEngine.progress`.
private final class SentCount: Sendable {
    let total: Int
    let progress: (@Sendable (Int, Int) -> Void)?
    private let done = Mutex(0)

    init(total: Int, progress: (@Sendable (Int, Int) -> Void)?) {
        self.total = total
        self.progress = progress
    }

    func one() {
        let now = done.withLock { done in
            done += 1
            return done
        }
        progress?(now, total)
    }
}
