import Foundation

@testable import HotTaskCore

/// A calendar that forgot every sync token (as RFC 6578 allows after a restore) and answers
/// the next `emptyListings` listings with no members, around an honest one.
public final class ForgetfulCalendar: CalendarCollection {
    let inner: InMemoryCalendar
    public var emptyListings = 0
    /// The next listing names one member under another host (as a proxy may): HotTask skips it.
    public var proxiedMember = false
    private var refused: [String] = []

    public init(_ inner: InMemoryCalendar) { self.inner = inner }

    public var url: String { inner.url }
    public func checkTakesTasks() throws(SyncFailure) { try inner.checkTakesTasks() }
    /// Restored: a version of another lineage.
    public func version() throws(SyncFailure) -> CollectionVersion {
        let version = try inner.version()
        return CollectionVersion(ctag: version.ctag.map { "restored-" + $0 }, syncToken: version.syncToken.map { "restored-" + $0 })
    }
    public func changes(since token: String) throws(SyncFailure) -> CollectionChanges? { nil }
    public func listing() throws(SyncFailure) -> [String: String?] {
        guard emptyListings == 0 else {
            emptyListings -= 1
            return [:]
        }
        var listing = try inner.listing()
        if proxiedMember, let href = listing.keys.sorted().first {
            proxiedMember = false
            listing[href] = nil
            refused.append("https://proxy.invalid" + href)
        }
        return listing
    }
    public func takeRefusedHrefs() -> [String] {
        defer { refused = [] }
        return refused
    }
    public func fetch(_ hrefs: [String]) throws(SyncFailure) -> [String: CalendarResource] { try inner.fetch(hrefs) }
    public func put(_ href: String, body: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        try inner.put(href, body: body, ifMatch: etag)
    }
    public func delete(_ href: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome { try inner.delete(href, ifMatch: etag) }
    public func href(forUID uid: String) -> String { inner.href(forUID: uid) }
    public var parallelRequests: Int { 1 }
}

/// A calendar that refuses (403) every write of the task whose SUMMARY is `refuse`.
public final class RefusingCalendar: CalendarCollection {
    let inner: InMemoryCalendar
    public var refuse: String?

    public init(_ inner: InMemoryCalendar, refuse: String?) {
        self.inner = inner
        self.refuse = refuse
    }

    public var url: String { inner.url }
    public func checkTakesTasks() throws(SyncFailure) { try inner.checkTakesTasks() }
    public func version() throws(SyncFailure) -> CollectionVersion { try inner.version() }
    public func changes(since token: String) throws(SyncFailure) -> CollectionChanges? { try inner.changes(since: token) }
    public func listing() throws(SyncFailure) -> [String: String?] { try inner.listing() }
    public func fetch(_ hrefs: [String]) throws(SyncFailure) -> [String: CalendarResource] { try inner.fetch(hrefs) }
    public func put(_ href: String, body: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        if let refuse, body.contains("SUMMARY:\(refuse)\r\n") { return .refused(status: 403, reason: "forbidden") }
        return try inner.put(href, body: body, ifMatch: etag)
    }
    public func delete(_ href: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome { try inner.delete(href, ifMatch: etag) }
    public func href(forUID uid: String) -> String { inner.href(forUID: uid) }
    public var parallelRequests: Int { 1 }
}

/// A calendar whose connection is cut after `writesBeforeCut` writes, as a killed sync or a
/// closed lid cuts it: the last write reaches the server but its answer is lost (the sync
/// hears a failure), and nothing after it is sent. `writesBeforeCut` nil: an honest calendar.
public final class CutCalendar: CalendarCollection {
    let inner: InMemoryCalendar
    /// Shared by the calendars of one set: the cut counts every write to any of them.
    public final class Budget {
        public var writesBeforeCut: Int?
        public var writesSent = 0
        public init(writesBeforeCut: Int?) { self.writesBeforeCut = writesBeforeCut }
    }
    public let budget: Budget
    public var writesBeforeCut: Int? {
        get { budget.writesBeforeCut }
        set { budget.writesBeforeCut = newValue }
    }
    public var writesSent: Int { budget.writesSent }

    public init(_ inner: InMemoryCalendar, writesBeforeCut: Int?) {
        self.inner = inner
        budget = Budget(writesBeforeCut: writesBeforeCut)
    }

    public init(_ inner: InMemoryCalendar, budget: Budget) {
        self.inner = inner
        self.budget = budget
    }

    private func write(_ send: () throws(SyncFailure) -> WriteOutcome) throws(SyncFailure) -> WriteOutcome {
        if let limit = budget.writesBeforeCut, budget.writesSent >= limit { throw SyncFailure("the connection was cut") }
        budget.writesSent += 1
        let outcome = try send()
        if let limit = budget.writesBeforeCut, budget.writesSent == limit { throw SyncFailure("the connection was cut") }
        return outcome
    }

    public var url: String { inner.url }
    public func checkTakesTasks() throws(SyncFailure) { try inner.checkTakesTasks() }
    public func version() throws(SyncFailure) -> CollectionVersion { try inner.version() }
    public func changes(since token: String) throws(SyncFailure) -> CollectionChanges? { try inner.changes(since: token) }
    public func listing() throws(SyncFailure) -> [String: String?] { try inner.listing() }
    public func fetch(_ hrefs: [String]) throws(SyncFailure) -> [String: CalendarResource] { try inner.fetch(hrefs) }
    public func put(_ href: String, body: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        try write { () throws(SyncFailure) in try inner.put(href, body: body, ifMatch: etag) }
    }
    public func delete(_ href: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        try write { () throws(SyncFailure) in try inner.delete(href, ifMatch: etag) }
    }
    public func href(forUID uid: String) -> String { inner.href(forUID: uid) }
    public var parallelRequests: Int { 1 }
}
