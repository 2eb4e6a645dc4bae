import FoundationEssentials
import Glibc

/// Why a sync stopped: the server (or the way to it) said no. The local store keeps every
/// local change; the next sync starts again from what was acknowledged.
public struct SyncFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// The server did not answer in time: asking again would only wait as long again.
    public let timedOut: Bool
    /// Asking again would get the same answer (an answer too large, a redirect refused).
    public let final: Bool
    public init(_ message: String, timedOut: Bool = false, final: Bool = false) {
        self.message = message
        self.timedOut = timedOut
        self.final = final
    }
    public var description: String { message }
}

/// What a server says of the collection as a whole, to tell cheaply whether anything changed.
public struct CollectionVersion: Equatable, Codable, Sendable {
    /// `CS:getctag`: changes whenever anything in the collection does.
    var ctag: String?
    /// `DAV:sync-token` (RFC 6578).
    public internal(set) var syncToken: String?

    public init(ctag: String? = nil, syncToken: String? = nil) {
        self.ctag = ctag
        self.syncToken = syncToken
    }

    var isKnown: Bool { ctag != nil || syncToken != nil }
}

/// Members changed since a sync token: their ETags, the ones removed, and the new token.
public struct CollectionChanges: Equatable, Sendable {
    public var changed: [String: String?]
    public var removed: [String]
    public var token: String?

    public init(changed: [String: String?] = [:], removed: [String] = [], token: String?) {
        self.changed = changed
        self.removed = removed
        self.token = token
    }
}

/// One calendar object as the server holds it.
public struct CalendarResource: Equatable, Sendable {
    var etag: String?
    var body: String
    /// The bytes of a body too large to keep, which the reader skipped as it came (`body` is
    /// then empty); 0 when `body` is whole.
    var skippedBytes = 0

    public init(etag: String?, body: String) {
        self.etag = etag
        self.body = body
    }

    public init(etag: String?, skippedBytes: Int) {
        self.etag = etag
        body = ""
        self.skippedBytes = skippedBytes
    }

    /// The body's size, whether it was kept or skipped.
    var bytes: Int { skippedBytes > 0 ? skippedBytes : body.utf8.count }
}

/// The answer to a conditional write.
public enum WriteOutcome: Equatable, Sendable {
    /// Written; the server's new ETag when it said.
    case written(etag: String?)
    /// 412: someone changed (or created, or removed) it since we looked.
    case conflict
    /// 404 on a delete or update: it is gone already.
    case gone
    /// The server will not take this one write (403, 409, 415, 507…): the others go on, and
    /// the next sync tries it again.
    case refused(status: Int, reason: String)
}

/// A CalDAV calendar collection, as the sync engine needs it. The HTTP one is in the
/// `CalDAV` module; tests add an in-memory one.
public protocol CalendarCollection {
    /// Where it is, for messages and for telling one collection's sync state from another's.
    var url: String { get }
    /// Throws unless the URL is a calendar that takes VTODOs (a principal, a calendar home, an
    /// events-only calendar or a plain folder is named as such). Asked before a first sync
    /// writes anything.
    func checkTakesTasks() throws(SyncFailure)
    func version() throws(SyncFailure) -> CollectionVersion
    /// Changes since `token` (RFC 6578 sync-collection); nil when the server cannot say (no
    /// support, or a token it no longer knows): then the caller compares ETags instead.
    func changes(since token: String) throws(SyncFailure) -> CollectionChanges?
    /// Every VTODO member and its ETag (calendar-query).
    func listing() throws(SyncFailure) -> [String: String?]
    /// The bodies of these members (calendar-multiget); members that vanished are left out.
    func fetch(_ hrefs: [String]) throws(SyncFailure) -> [String: CalendarResource]
    /// PUT with `If-None-Match: *` (etag nil) or `If-Match: etag`.
    func put(_ href: String, body: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome
    /// DELETE with `If-Match: etag` when known.
    func delete(_ href: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome
    /// Where a new task with this UID goes.
    func href(forUID uid: String) -> String
    /// How many requests may be in flight at once: writes go out over this many connections.
    /// 1 for a collection that is not safe to use from several threads.
    var parallelRequests: Int { get }
    /// Hrefs the server named that are not members of this calendar (another host, a `../`
    /// out of it), left out of every answer so far and never sent to: the sync names them.
    func takeRefusedHrefs() -> [String]
    /// The list (its shown name) a member is in, for a set of calendars each of which is a
    /// list (`CalendarSet`); nil for one calendar, which holds every list and says nothing of it.
    func listName(forHref href: String) -> String?
    /// Where a new task with this UID goes in the calendar of list `list` (its shown name).
    func href(forUID uid: String, inList list: String) -> String
}

extension CalendarCollection {
    public func takeRefusedHrefs() -> [String] { [] }
    public func listName(forHref href: String) -> String? { nil }
    public func href(forUID uid: String, inList list: String) -> String { href(forUID: uid) }
}
