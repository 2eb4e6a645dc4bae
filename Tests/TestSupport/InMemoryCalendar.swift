import Foundation

@testable import HotTaskCore

/// A calendar collection in memory that keeps the protocol's promises (ETags, conditional
/// writes, sync tokens): the sync engine's tests run thousands of rounds against it, and the
/// real servers' tests (Radicale, Xandikos) check that it behaves like them.
public final class InMemoryCalendar: CalendarCollection {
    public let url: String
    /// The folder of its members' hrefs.
    private let folder: String
    public private(set) var objects: [String: CalendarResource] = [:]
    /// Every change, numbered: a sync token is the number of the last one seen.
    private var history: [(version: Int, href: String)] = []
    private var counter = 0
    public private(set) var requests: [String] = []
    /// Runs before a write is looked at (a phone editing at the worst moment).
    public var beforeWrite: ((InMemoryCalendar, String) -> Void)?
    /// When false, `changes(since:)` says "not supported" (a server without RFC 6578).
    public var offersSyncCollection = true
    /// Members a multiget leaves out of its answer (a server that failed on them).
    public var withheld = Set<String>()

    /// `name`: one calendar of several on the same server (`memory://server/NAME/`).
    public init(name: String? = nil) {
        url = name.map { "memory://server/\($0)/" } ?? "memory://calendar/"
        folder = "/\(name ?? "calendar")/"
    }

    /// Not safe from several threads: one request at a time.
    public let parallelRequests = 1

    /// Set to say what the URL is instead of a task calendar.
    public var notATaskCalendar: String?

    public func checkTakesTasks() throws(SyncFailure) {
        if let notATaskCalendar { throw SyncFailure("\(url) is \(notATaskCalendar)") }
    }

    public func version() throws(SyncFailure) -> CollectionVersion {
        requests.append("PROPFIND")
        return CollectionVersion(ctag: "c\(counter)", syncToken: offersSyncCollection ? "t\(counter)" : nil)
    }

    public func changes(since token: String) throws(SyncFailure) -> CollectionChanges? {
        requests.append("REPORT sync-collection")
        guard offersSyncCollection, token.hasPrefix("t"), let seen = Int(token.dropFirst()), seen <= counter else { return nil }
        var changes = CollectionChanges(token: "t\(counter)")
        for (_, href) in history where history.contains(where: { $0.version > seen && $0.href == href }) {
            if let object = objects[href] { changes.changed[href] = .some(object.etag) } else { changes.removed.append(href) }
        }
        changes.removed = Array(Set(changes.removed)).sorted()
        return changes
    }

    public func listing() throws(SyncFailure) -> [String: String?] {
        requests.append("REPORT calendar-query")
        return objects.mapValues { resource -> String? in resource.etag }
    }

    public func fetch(_ hrefs: [String]) throws(SyncFailure) -> [String: CalendarResource] {
        requests.append("REPORT calendar-multiget")
        return objects.filter { hrefs.contains($0.key) && !withheld.contains($0.key) }
    }

    public func put(_ href: String, body: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        requests.append("PUT")
        beforeWrite?(self, href)
        if let etag {
            guard let current = objects[href] else { return .gone }
            guard current.etag == etag || etag == "*" else { return .conflict }
        } else if objects[href] != nil {
            return .conflict
        }
        return .written(etag: store(href, body))
    }

    public func delete(_ href: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        requests.append("DELETE")
        beforeWrite?(self, href)
        guard let current = objects[href] else { return .gone }
        if let etag, current.etag != etag { return .conflict }
        remove(href)
        return .written(etag: nil)
    }

    public func href(forUID uid: String) -> String { "\(folder)\(uid).ics" }

    // MARK: What a phone does

    /// Writes an object as another client would.
    @discardableResult
    public func store(_ href: String, _ body: String) -> String {
        counter += 1
        let etag = "\"e\(counter)\""
        objects[href] = CalendarResource(etag: etag, body: body)
        history.append((counter, href))
        return etag
    }

    public func remove(_ href: String) {
        counter += 1
        objects[href] = nil
        history.append((counter, href))
    }

    /// Changes one property of the VTODO at `href` as a phone would (LAST-MODIFIED `now`;
    /// nil removes it).
    public func edit(_ href: String, _ name: String, _ value: String?, now: Date) {
        guard let body = objects[href]?.body, var calendar = (try? ICalendar.parse(body))?.first,
            let index = calendar.components.firstIndex(where: { $0.name == "VTODO" })
        else { return }
        calendar.components[index].set(name, value)
        calendar.components[index].set("LAST-MODIFIED", ICalendar.format(now))
        store(href, calendar.text)
    }

    public func forgetRequests() { requests = [] }
}
