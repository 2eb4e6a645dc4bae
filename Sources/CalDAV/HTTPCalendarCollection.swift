import FoundationEssentials
import Glibc
import HotTaskCore
import Synchronization

/// A CalDAV calendar collection over HTTP(S) (RFC 4791, RFC 6578), over the system's libcurl
/// with connections kept alive (`CurlTransport`); the system's certificates, or `ca_file`.
public final class HTTPCalendarCollection: CalendarCollection {
    public let url: String
    private let collection: URL
    /// The collection's path, with its trailing slash.
    private let collectionPath: String
    /// Sends each request, logged in (Basic, or Digest when the server asks for it).
    private let exchange: HTTPExchange
    /// Tries for one request when the connection fails or the answer is cut short.
    static let attempts = 3
    /// Members asked for in one calendar-multiget.
    static let fetchBatch = 100
    /// Requests in flight at once (writes, multiget batches): each on a kept-alive connection.
    public let parallelRequests: Int
    /// Which hrefs are members; the ones refused so far, for the sync to name.
    private let members: MemberHref
    private let refused = Mutex<[String]>([])
    /// Where the calendar answers from when the server redirected it (a 301 to a new path on
    /// the same host): its members are there.
    private let moved = Mutex<MemberHref?>(nil)
    /// When the whole sync must be done: no request starts after it (`SyncDeadline`).
    private let deadline: Date
    private let allowed: TimeInterval
    /// The version the home's listing gave, for the sync's first look only (`changes(since:)`
    /// with the same token: nothing changed): it was asked a moment ago, and a later look
    /// (after the sync's writes) must go to the server.
    private let listed = Mutex<CollectionVersion?>(nil)

    /// Takes the version the listing that found this calendar gave (nil: none).
    public func remember(listed version: CollectionVersion?) {
        listed.withLock { $0 = version }
    }

    public init(
        url: String, username: String?, password: String?, timeout: TimeInterval = 30, parallelRequests: Int = 8, caFile: String? = nil,
        deadline: TimeInterval = 1800
    ) throws(SyncFailure) {
        allowed = deadline
        self.deadline = Date().addingTimeInterval(deadline)
        let withSlash = url.hasSuffix("/") ? url : url + "/"
        guard let parsed = URL(string: withSlash), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            parsed.host != nil
        else {
            throw SyncFailure("the sync url \"\(url)\" is not an http:// or https:// address of a calendar")
        }
        self.url = withSlash
        collection = parsed
        collectionPath = Self.normalized(withSlash)
        members = MemberHref(collection: parsed, collectionPath: collectionPath)
        exchange = HTTPExchange(authenticator: Authenticator(username: username, password: password), timeout: timeout, caFile: caFile)
        self.parallelRequests = max(1, min(parallelRequests, 32))
    }

    // MARK: CalendarCollection

    public func checkTakesTasks() throws(SyncFailure) {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
            <d:prop><d:resourcetype/><c:supported-calendar-component-set/></d:prop></d:propfind>
            """
        let answer = try send("PROPFIND", collection, body: body, headers: ["Depth": "0"], streamed: false)
        guard answer.status == 207, let resource = PropfindAnswer(answer.body, answering: collection)?.resources.first else {
            throw failure(answer, doing: "asking what the sync url is")
        }
        if resource.isCalendar && resource.takesTasks { return }
        let what: String
        if resource.isCalendar {
            let components =
                resource.properties["supported-calendar-component-set"]?.all("comp", DAV.caldav)
                .compactMap { $0.attributes["name"] } ?? []
            what = "a calendar that takes only \(components.joined(separator: ", ")), not tasks"
        } else if resource.isA("principal", DAV.dav) {
            what = "an account (a principal), not a calendar"
        } else if resource.isA("collection", DAV.dav) {
            what = "a folder that is not a calendar (a calendar home, or a plain folder)"
        } else {
            what = "not a calendar (a plain resource)"
        }
        throw SyncFailure("\(url) is \(what); nothing was written. hottask --sync-setup URL finds your task calendars")
    }

    /// The listing's version, once.
    private func takeListed() -> CollectionVersion? {
        listed.withLock { known in
            defer { known = nil }
            return known
        }
    }

    public func version() throws(SyncFailure) -> CollectionVersion {
        // Asked of the calendar itself, always: the listing's text of a ctag may differ from
        // its own (a server that leaves one out there), and a listing that then seems to have
        // moved would hold back every deletion. The listed token is spent all the same: a later
        // `changes(since:)` in this sync must go to the server.
        _ = takeListed()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns:c="urn:ietf:params:xml:ns:caldav">
            <d:prop><cs:getctag/><d:sync-token/></d:prop></d:propfind>
            """
        let answer = try send("PROPFIND", collection, body: body, headers: ["Depth": "0"])
        guard answer.status == 207, let multistatus = answer.multistatus, let first = multistatus.responses.first else {
            throw failure(answer, doing: "asking for the calendar's version")
        }
        return CollectionVersion(ctag: first.properties["getctag"], syncToken: first.properties["sync-token"])
    }

    public func changes(since token: String) throws(SyncFailure) -> CollectionChanges? {
        // The listing a moment ago gave this very token: nothing changed since (RFC 6578).
        if takeListed()?.syncToken == token { return CollectionChanges(token: token) }
        var changes = CollectionChanges(token: token)
        // A 507 on the collection means "more to come": ask again from the token given.
        for _ in 0..<64 {
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(DAV.escape(changes.token ?? token))</d:sync-token>
                <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
                """
            let answer = try send("REPORT", collection, body: body, headers: ["Depth": "1"])
            guard answer.status == 207 else {
                // A token the server no longer knows (403 valid-sync-token), or no RFC 6578 at
                // all (400, 403, 501): the caller compares ETags instead.
                if (400..<500).contains(answer.status) && answer.status != 401 || answer.status == 501 { return nil }
                throw failure(answer, doing: "asking what changed")
            }
            guard let multistatus = answer.multistatus else { return nil }
            var truncated = false
            for response in multistatus.responses where admits(response.href) {
                let href = Self.normalized(response.href)
                if response.status == 507 || Self.sameFolder(href, collectionPath) {
                    truncated = truncated || response.status == 507
                } else if response.status == 404 || response.status == 410 {
                    changes.removed.append(href)
                    changes.changed[href] = nil
                } else {
                    changes.changed[href] = .some(Self.opaque(response.properties["getetag"]))
                }
            }
            changes.token = multistatus.syncToken ?? changes.token
            if !truncated { return changes }
        }
        return nil
    }

    public func listing() throws(SyncFailure) -> [String: String?] {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>
            <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>
            """
        let answer = try send("REPORT", collection, body: body, headers: ["Depth": "1"])
        guard answer.status == 207, let multistatus = answer.multistatus else {
            throw failure(answer, doing: "listing the tasks")
        }
        var members: [String: String?] = [:]
        for response in multistatus.responses where admits(response.href) {
            let href = Self.normalized(response.href)
            guard !Self.sameFolder(href, collectionPath), response.status == nil || response.status == 200 else { continue }
            members[href] = .some(Self.opaque(response.properties["getetag"]))
        }
        return members
    }

    public func fetch(_ hrefs: [String]) throws(SyncFailure) -> [String: CalendarResource] {
        let batches = stride(from: 0, to: hrefs.count, by: Self.fetchBatch).map { Array(hrefs[$0..<min($0 + Self.fetchBatch, hrefs.count)]) }
        var resources: [String: CalendarResource] = [:]
        for result in Parallel.map(batches, width: parallelRequests, fetchBatch) {
            resources.merge(try result.get()) { first, _ in first }
        }
        return resources
    }

    /// One calendar-multiget.
    private func fetchBatch(_ batch: [String]) throws(SyncFailure) -> [String: CalendarResource] {
        let list = batch.map { "<d:href>\(DAV.escape(Self.encoded($0)))</d:href>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
            <d:prop><d:getetag/><c:calendar-data/></d:prop>\(list)</c:calendar-multiget>
            """
        let answer = try send("REPORT", collection, body: body, headers: ["Depth": "1"])
        guard answer.status == 207, let multistatus = answer.multistatus else {
            throw failure(answer, doing: "fetching tasks")
        }
        var resources: [String: CalendarResource] = [:]
        for response in multistatus.responses where admits(response.href) {
            if let skipped = response.oversized["calendar-data"] {
                resources[Self.normalized(response.href)] = CalendarResource(etag: Self.opaque(response.properties["getetag"]), skippedBytes: skipped)
                continue
            }
            guard let data = response.properties["calendar-data"] else { continue }
            resources[Self.normalized(response.href)] = CalendarResource(etag: Self.opaque(response.properties["getetag"]), body: data)
        }
        return resources
    }

    public func takeRefusedHrefs() -> [String] {
        refused.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    /// True for a member of this calendar; anything else is kept to be named once, and skipped.
    private func admits(_ href: String) -> Bool {
        if isMember(href) { return true }
        refused.withLock { if !$0.contains(href) && $0.count < 100 { $0.append(href) } }
        return false
    }

    private func isMember(_ href: String) -> Bool {
        members.isInside(href) || moved.withLock { $0?.isInside(href) ?? false }
    }

    /// Notes where the calendar answered from, when a redirect on the same host moved it.
    private func follow(_ finalURL: String?) {
        guard let finalURL, let url = URL(string: finalURL), finalURL != collection.absoluteString,
            url.scheme?.lowercased() == collection.scheme?.lowercased(), url.host?.lowercased() == collection.host?.lowercased(),
            MemberHref.port(url) == MemberHref.port(collection)
        else { return }
        let folder = Self.normalized(finalURL.hasSuffix("/") ? finalURL : finalURL + "/")
        moved.withLock { $0 = MemberHref(collection: url, collectionPath: folder) }
    }

    public func put(_ href: String, body: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        var headers = ["Content-Type": "text/calendar; charset=utf-8"]
        if let etag { headers["If-Match"] = etag } else { headers["If-None-Match"] = "*" }
        let answer = try send("PUT", try member(href), body: body, headers: headers)
        switch answer.status {
        case 200, 201, 204: return .written(etag: Self.opaque(answer.etag))
        case 412: return .conflict
        case 404, 410: return .gone
        case let status where Self.refusesOneWrite(status): return .refused(status: status, reason: Self.reason(status))
        default: throw failure(answer, doing: "writing a task")
        }
    }

    public func delete(_ href: String, ifMatch etag: String?) throws(SyncFailure) -> WriteOutcome {
        var headers: [String: String] = [:]
        if let etag { headers["If-Match"] = etag }
        let answer = try send("DELETE", try member(href), body: nil, headers: headers)
        switch answer.status {
        case 200, 202, 204: return .written(etag: nil)
        case 404, 410: return .gone
        case 412: return .conflict
        case let status where Self.refusesOneWrite(status): return .refused(status: status, reason: Self.reason(status))
        default: throw failure(answer, doing: "deleting a task")
        }
    }

    /// Answers about this one object, not the server or the login: the other writes go on.
    static func refusesOneWrite(_ status: Int) -> Bool {
        [400, 403, 405, 409, 413, 415, 422, 423, 507].contains(status)
    }

    static func reason(_ status: Int) -> String {
        HTTPStatusPhrase.of(status)
    }

    /// An ETag's opaque value: a weak one (`W/"x"`, as a proxy that compresses makes them) is
    /// compared and sent back as `"x"`, which is what the server behind the proxy gave.
    static func opaque(_ etag: String?) -> String? {
        guard let etag = etag?.trimmingBlanks() else { return nil }
        return etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
    }

    public func href(forUID uid: String) -> String {
        let safe = uid.unicodeScalars.allSatisfy { $0.isAlphanumeric || "-_.@".unicodeScalars.contains($0) }
        let name = safe && uid.count <= 200 ? uid : TodoMapping.id(forUID: uid).uuidString.lowercased()
        return collectionPath + name + ".ics"
    }

    // MARK: HTTP

    struct Answer {
        var status: Int
        var body: Data
        var etag: String?
        /// The address that answered, after redirects.
        var finalURL: String?
        /// A 207's body, read once (`send` asks again when it cannot be read: cut short).
        var multistatus: DAV.Multistatus?
        /// For a 401: the login refused, or the schemes HotTask does not speak.
        var refusal: String?
        /// For a 429 or 503: how long the server asked us to wait, in seconds.
        var retryAfter: Int?
    }

    private func member(_ href: String) throws(SyncFailure) -> URL {
        guard isMember(Self.encoded(href)), let url = URL(string: Self.encoded(href), relativeTo: collection)?.absoluteURL else {
            throw SyncFailure("\(self.url): will not write \(href): it is not in the calendar's folder on its host")
        }
        return url
    }

    /// Sends one request, again when the connection drops (every request HotTask sends is
    /// conditional or read-only, so sending it twice cannot write twice). A 207 is read as it
    /// comes, unless `streamed` is false: its body is then kept whole (a few properties' trees).
    private func send(_ method: String, _ target: URL, body: String?, headers: [String: String], streamed: Bool = true) throws(SyncFailure)
        -> Answer
    {
        var request = HTTPRequest(url: target)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            if headers["Content-Type"] == nil { request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type") }
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("HotTask", forHTTPHeaderField: "User-Agent")
        var lastError = ""
        var outOfSpace: Answer?
        var timeouts = 0
        for attempt in 0..<Self.attempts {
            if attempt > 0 { usleep(useconds_t(200_000 * attempt)) }
            // A server slow enough to keep each request under its limit still ends here.
            guard Date() < deadline else {
                throw SyncFailure(
                    "the sync took longer than its limit of \(Self.minutes(allowed)) and was stopped; what it did is kept, run it again",
                    final: true)
            }
            // A 207 is read as it comes; a fresh reader each try (one cut short is asked again).
            let stream = streamed ? MultistatusStream() : nil
            let outcome = perform(request, stream: stream)
            switch outcome {
            case .success(let answer) where answer.status == 429 || answer.status == 503:
                // Too many requests, or busy: wait as asked (at most 10 s) and ask again.
                lastError = "the server is busy (\(answer.status))"
                if attempt + 1 < Self.attempts { usleep(useconds_t(min(max(answer.retryAfter ?? 1, 0), 10)) * 1_000_000) }
            case .success(let answer) where answer.status == 507 && method != "REPORT":
                lastError = "the server is out of space (507)"
                outOfSpace = answer
            case .success(var answer) where answer.status == 207:
                if target == collection { follow(answer.finalURL) }
                if stream?.tooLarge == true {
                    throw SyncFailure(
                        "\(url): the server sent an answer holding more than HotTask keeps of one (\(MultistatusStream.maximumKept >> 20) MB, more than a calendar of the store's 250,000 tasks)",
                        final: true)
                }
                answer.multistatus = stream?.finish() ?? DAV.multistatus(answer.body)
                if answer.multistatus != nil { return answer }
                lastError = "its answer was cut short"
            case .success(let answer):
                return answer
            case .failure(let reason, _, final: true):
                throw SyncFailure("\(url): \(reason)", final: true)
            case .failure(let reason, timedOut: true, _):
                // Each try waits half the limit: the second time-out ends the request.
                if timeouts > 0 { throw SyncFailure("cannot reach \(url): \(reason)", timedOut: true) }
                timeouts += 1
                lastError = reason
            case .failure(let reason, _, _):
                lastError = reason
            }
        }
        if let outOfSpace { return outOfSpace }
        throw SyncFailure("cannot reach \(url): \(lastError)")
    }

    /// "30 min", "2 s".
    static func minutes(_ seconds: TimeInterval) -> String {
        seconds >= 120 ? "\(Int(seconds / 60)) min" : "\(Int(seconds)) s"
    }

    private enum Outcome {
        case success(Answer)
        case failure(String, timedOut: Bool, final: Bool)
    }

    private func perform(_ request: HTTPRequest, stream: MultistatusStream?) -> Outcome {
        switch exchange.perform(request, stream: stream) {
        case .success(let reply):
            .success(
                Answer(
                    status: reply.status, body: reply.body, etag: reply.header("ETag"), finalURL: reply.finalURL, refusal: reply.refusal,
                    retryAfter: reply.header("Retry-After").flatMap { Int($0.trimmingBlanks()) }))
        case .failure(let failure): .failure(failure.message, timedOut: failure.timedOut, final: failure.final)
        }
    }

    private func failure(_ answer: Answer, doing what: String) -> SyncFailure {
        switch answer.status {
        case 401: SyncFailure("\(url): \(answer.refusal ?? "login refused") (401) while \(what)")
        case 403: SyncFailure("\(url) does not allow this (403) while \(what)")
        case 404: SyncFailure("\(url) has no calendar there (404); check the sync url")
        case 207: SyncFailure("\(url) sent an answer HotTask cannot read while \(what)")
        default: SyncFailure("\(url) answered \(answer.status) while \(what)")
        }
    }

    // MARK: Hrefs

    /// A member's path, percent-decoded, without scheme and host (a trailing slash kept): one
    /// spelling per member, whichever way the server wrote it.
    static func normalized(_ href: String) -> String {
        var path = Substring(href)
        if let scheme = path.firstRange(of: "://") {
            let afterHost = path[scheme.upperBound...].firstIndex(of: "/") ?? path.endIndex
            path = path[afterHost...]
        }
        let text = path.isEmpty ? "/" : String(path)
        // Without a `%` there is nothing to decode (Foundation's decoding of every href went
        // through an NSString, a tenth of a quiet sync's CPU at 2,000 tasks).
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        return text.percentDecoded ?? text
    }

    /// True when two paths name the same folder, with or without the trailing slash.
    static func sameFolder(_ a: String, _ b: String) -> Bool {
        func trimmed(_ path: String) -> Substring { path.hasSuffix("/") ? path.dropLast() : Substring(path) }
        return trimmed(a) == trimmed(b)
    }

    static func encoded(_ path: String) -> String {
        path.percentEncodedPath
    }
}
