import FoundationEssentials
import Glibc

/// Several calendars synced as one collection, each of them one list (named by the calendar's
/// display name; the default list's name maps to the default list). A member's href tells the
/// list its task is in, so a task that changed calendar (a phone's move: a DELETE in one, a PUT
/// in the other, the same UID) is the same task with another href, and the sync moves it here.
///
/// The set's version and sync token are its members', all of them: a member added or gone since
/// the token makes it a listing, so that an absence is judged as the `DeletionGuard` judges it.
public final class CalendarSet: CalendarCollection, @unchecked Sendable {
    /// One calendar of the set.
    public struct Member {
        /// The list it holds, by its shown name.
        public var list: String
        public var calendar: CalendarCollection
        /// The path its members' hrefs start with, taken once: it is asked for every href.
        let path: String

        public init(list: String, calendar: CalendarCollection) {
            self.list = list
            self.calendar = calendar
            let path = CalendarSet.path(of: calendar.url)
            self.path = path.hasSuffix("/") ? path : path + "/"
        }
    }

    /// The decoded path of an href or URL; an href that is a plain path (most are) is not parsed.
    static func path(of address: String) -> String {
        if address.first == "/", !address.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            return address
        }
        return URLComponents(string: address)?.path ?? address
    }

    /// The account's address, for messages and for telling this set's sync state from another's.
    public let url: String
    /// Makes a calendar for a list (MKCALENDAR, or extended MKCOL), for `prepare`.
    private let make: ((String) throws(SyncFailure) -> CalendarCollection)?
    /// Gives a calendar (by URL) a new display name (PROPPATCH), for a list renamed here.
    private let rename: ((String, String) throws(SyncFailure) -> Void)?
    /// Whether a calendar (by URL) missing from discovery is there all the same (true), deleted
    /// (false, a 404), or unknown (throws), for `checkMissing`.
    let probe: ((String) throws(SyncFailure) -> Bool)?
    /// Calendars found but not synced (neither chosen nor named as a list): one the last sync
    /// synced (renamed there since) joins again.
    let spares: [Member]
    /// URLs chosen at set-up that discovery did not find this time.
    let expected: [String]
    // Written before any request of a round only (`prepare`, `checkMissing`); read from the sending threads.
    let lock = ThreadLock()
    var current: [Member]
    /// Folder paths of calendars synced before that answered 404: deleted there.
    var provenGone: Set<String> = []

    public init(
        url: String, members: [Member], make: ((String) throws(SyncFailure) -> CalendarCollection)? = nil,
        rename: ((String, String) throws(SyncFailure) -> Void)? = nil, spares: [Member] = [], expected: [String] = [],
        probe: ((String) throws(SyncFailure) -> Bool)? = nil
    ) {
        self.url = url
        self.current = members
        self.make = make
        self.rename = rename
        self.spares = spares
        self.expected = expected
        self.probe = probe
    }

    /// Renames the calendar of list `old` there (its display name) and here, in the set.
    func renameCalendar(of old: String, to new: String) throws(SyncFailure) -> Bool {
        guard let rename, let member = members.first(where: { $0.list == old }) else { return false }
        try rename(member.calendar.url, new)
        lock.withLock {
            for index in current.indices where current[index].calendar.url == member.calendar.url { current[index].list = new }
        }
        return true
    }

    public var members: [Member] { lock.withLock { current } }

    private func member(for href: String) -> Member? {
        let path = Self.path(of: href)
        var found: Member?
        for member in members where path.hasPrefix(member.path) && member.path.utf8.count > (found?.path.utf8.count ?? -1) { found = member }
        return found
    }

    private func member(named list: String) -> Member? {
        members.first { $0.list == list } ?? members.first { $0.list.equalsIgnoringCase(list) }
    }

    public func listName(forHref href: String) -> String? { member(for: href)?.list }

    /// A list without a calendar (none could be made) gets an href in none: its write is refused
    /// and told, and tried again next time. Put in another list's calendar, the next sync would
    /// move the task to that list.
    public func href(forUID uid: String) -> String { members.first.map { $0.calendar.href(forUID: uid) } ?? unplaced(uid) }

    public func href(forUID uid: String, inList list: String) -> String {
        member(named: list).map { $0.calendar.href(forUID: uid) } ?? unplaced(uid)
    }

    private func unplaced(_ uid: String) -> String {
        (url.hasSuffix("/") ? url : url + "/") + "no-calendar/" + uid + ".ics"
    }

    /// Before a sync's first round: makes a calendar for each of `lists` (shown names) that has
    /// none, and says what it did.
    public func prepare(lists: [String]) throws(SyncFailure) -> [String] {
        guard let make else { return [] }
        var said: [String] = []
        for list in lists where member(named: list) == nil {
            let calendar = try make(list)
            lock.withLock { current.append(Member(list: list, calendar: calendar)) }
            said.append("made the calendar \"\(list)\" for the list \(list) at \(calendar.url)")
        }
        return said
    }

    /// A member that takes one request at a time (not safe from several threads) makes the set so.
    public var parallelRequests: Int { members.map(\.calendar.parallelRequests).min() ?? 1 }

    /// Each member at once: one round trip, not one a calendar.
    public func checkTakesTasks() throws(SyncFailure) {
        _ = try each { member throws(SyncFailure) in try member.calendar.checkTakesTasks() }
    }

    /// Each member at once, over threads of their own: calendars sync in parallel.
    private func each<Value>(_ body: @escaping (Member) throws(SyncFailure) -> Value) throws(SyncFailure) -> [Value] {
        let members = members
        var values: [Value] = []
        for result in Parallel.map(members, width: parallelRequests > 1 ? min(members.count, parallelRequests) : 1, body) {
            values.append(try result.get())
        }
        return values
    }

    public func version() throws(SyncFailure) -> CollectionVersion {
        let versions = try each { member throws(SyncFailure) in (member.calendar.url, try member.calendar.version()) }
        let ctags = versions.map { url, version in version.ctag.map { url + " " + $0 } }
        let tokens = versions.map { url, version in version.syncToken.map { (url, $0) } }
        return CollectionVersion(
            ctag: ctags.contains(nil) ? nil : ctags.compactMap { $0 }.joined(separator: "\n"),
            syncToken: tokens.contains { $0 == nil } ? nil : Self.token(Dictionary(tokens.compactMap { $0 }, uniquingKeysWith: { a, _ in a })))
    }

    /// The set's token: each member's, by its URL.
    private static func token(_ tokens: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(tokens)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public func changes(since token: String) throws(SyncFailure) -> CollectionChanges? {
        guard let tokens = try? JSONDecoder().decode([String: String].self, from: Data(token.utf8)),
            Set(tokens.keys) == Set(members.map(\.calendar.url))
        else { return nil }
        let answers = try each { member throws(SyncFailure) in
            (member.calendar.url, try tokens[member.calendar.url].flatMap { token throws(SyncFailure) in try member.calendar.changes(since: token) })
        }
        var all = CollectionChanges(token: nil)
        var next: [String: String] = [:]
        for (url, changes) in answers {
            guard let changes else { return nil }
            all.changed.merge(changes.changed) { a, _ in a }
            all.removed += changes.removed
            next[url] = changes.token ?? tokens[url]
        }
        all.token = Self.token(next)
        return all
    }

    public func listing() throws(SyncFailure) -> [String: String?] {
        var all: [String: String?] = [:]
        for listing in try each({ member throws(SyncFailure) in try member.calendar.listing() }) { all.merge(listing) { a, _ in a } }
        return all
    }

    public func fetch(_ hrefs: [String]) throws(SyncFailure) -> [String: CalendarResource] {
        var byMember: [String: [String]] = [:]
        for href in hrefs { if let member = member(for: href) { byMember[member.calendar.url, default: []].append(href) } }
        var all: [String: CalendarResource] = [:]
        let fetched = try each { member throws(SyncFailure) in
            try byMember[member.calendar.url].map { hrefs throws(SyncFailure) in try member.calendar.fetch(hrefs) } ?? [:]
        }
        for resources in fetched { all.merge(resources) { a, _ in a } }
        return all
    }

    public func put(_ href: String, body: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        guard let member = member(for: href) else { return .refused(status: 0, reason: "\(href) is in none of the calendars synced") }
        return try member.calendar.put(href, body: body, ifMatch: etag)
    }

    public func delete(_ href: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        guard let member = member(for: href) else {
            // A calendar deleted there (a 404, `checkMissing`): its task is gone from it already.
            // Any other is no proof: refused and told, never taken for done.
            let folder = Self.folderPath(Self.parent(href))
            if lock.withLock({ provenGone.contains(folder) }) { return .gone }
            return .refused(status: 0, reason: "\(href) is in none of the calendars synced")
        }
        return try member.calendar.delete(href, ifMatch: etag)
    }

    public func takeRefusedHrefs() -> [String] { members.flatMap { $0.calendar.takeRefusedHrefs() } }
}

extension CalendarSet {
    /// The lists (shown names) that are to have a calendar: each list the store names or a task
    /// is in, but the default list while it holds no task, and a list whose synced tasks are in a
    /// calendar no longer there (deleted there: its tasks' absence is judged as a deletion, never
    /// answered by making the calendar again).
    func listsWanting(in list: TaskList, base: SyncBase) -> [String] {
        var lists = list.lists.names.filter { $0 != list.lists.defaultName }
        var seen = Set(lists)
        for task in list.all where seen.insert(list.lists.name(of: task.list)).inserted { lists.append(list.lists.name(of: task.list)) }
        let gone = base.entries.filter { !$0.value.isTentative && listName(forHref: $0.value.href) == nil }
        guard !gone.isEmpty else { return lists }
        let listOf = Dictionary(list.all.map { ($0.id.uuidString.lowercased(), list.lists.name(of: $0.list)) }, uniquingKeysWith: { a, _ in a })
        let orphaned = Set(gone.keys.compactMap { listOf[$0] })
        return lists.filter { !orphaned.contains($0) }
    }
}
