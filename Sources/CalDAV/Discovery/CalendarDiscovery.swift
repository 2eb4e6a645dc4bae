import FoundationEssentials
import Glibc
import HotTaskCore

/// A calendar that takes tasks: its display name (or last path segment) and absolute URL.
public struct TaskCalendar: Equatable, Sendable {
    public let name: String
    public let url: String
    /// Its ctag and sync token, when the listing that found it gave them: a sync then need not
    /// ask a calendar whose token it kept (`HTTPCalendarCollection.listed`).
    public var version: CollectionVersion?

    /// The last segment of its path, which `--calendar` also matches.
    public var segment: String {
        URL(string: url)?.path.split(separator: "/").last.map(String.init) ?? name
    }

    /// The calendar `--calendar NAME` names: by display name, then by path segment, exactly;
    /// then the same ignoring case (a server that made `shared` when asked for `Shared` answers
    /// 409 to a second request for it). nil when none does.
    public static func named(_ name: String, in calendars: [TaskCalendar]) -> TaskCalendar? {
        let folded = name.lowercased()
        return calendars.first { $0.name == name } ?? calendars.first { $0.segment == name }
            ?? calendars.first { $0.name.lowercased() == folded } ?? calendars.first { $0.segment.lowercased() == folded }
    }
}

/// Finds the task calendars of an account from whatever URL its owner has, as DAVx5 and
/// `vdirsyncer discover` do: the URL itself, else RFC 6764's `/.well-known/caldav` (redirects
/// followed), then `current-user-principal` (RFC 5397), `calendar-home-set` and the home's
/// calendars that take VTODOs (RFC 4791 §5.2.3, §6.2.1).
public final class CalendarDiscovery {
    /// What was found.
    public struct Found {
        /// The URL given, when it is itself a calendar that takes tasks.
        public var given: TaskCalendar?
        /// Where new calendars go.
        public var homes: [URL] = []
        public var calendars: [TaskCalendar] = []
        /// Calendars the server named on another host or scheme: left out, for set-up to name.
        public var elsewhere: [String] = []
    }

    let start: URL
    let exchange: HTTPExchange
    /// Redirects followed for one request at most.
    static let redirects = 5

    /// `url` may be a host (https is then assumed), a server root, a principal, a calendar home
    /// or a calendar.
    public init(url: String, username: String?, password: String?, timeout: TimeInterval = 30, caFile: String? = nil) throws(SyncFailure) {
        let text = url.contains("://") ? url : "https://" + url
        guard let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            parsed.host != nil
        else {
            throw SyncFailure("\"\(url)\" is not an http:// or https:// address or a host name")
        }
        start = parsed.path.isEmpty ? parsed.appendingPathComponent("/") : parsed
        exchange = HTTPExchange(
            authenticator: Authenticator(username: username, password: password), timeout: timeout, followsRedirects: false, caFile: caFile)
    }

    public func discover() throws(SyncFailure) -> Found {
        var found = Found()
        // 1. The URL given: it may answer everything at once (a principal that is its own home,
        // as on Radicale and DAViCal), or be a calendar.
        var principal: URL?
        var firstProblem: SyncFailure?
        var first: PropfindAnswer?
        do {
            first = try propfind(start, depth: 0, Self.contextProperties, step: "asking \(start.absoluteString) what it is").0
        } catch {
            firstProblem = error
        }
        if let resource = first?.resources.first {
            if resource.isCalendar && resource.takesTasks {
                found.given = TaskCalendar(name: resource.displayName ?? resource.lastSegment, url: Self.folder(resource.url).absoluteString)
            }
            principal = resource.hrefs("current-user-principal").first
            found.homes = resource.hrefs("calendar-home-set")
        }
        // 2. RFC 6764: the well-known URL of the host.
        var wellKnownProblem: SyncFailure?
        if principal == nil && found.homes.isEmpty {
            var components = URLComponents(url: start, resolvingAgainstBaseURL: false)
            components?.path = "/.well-known/caldav"
            components?.query = nil
            if let wellKnown = components?.url {
                do {
                    let (answer, _) = try propfind(wellKnown, depth: 0, Self.contextProperties, step: "asking \(wellKnown.absoluteString)")
                    principal = answer.resources.first?.hrefs("current-user-principal").first
                    found.homes = answer.resources.first?.hrefs("calendar-home-set") ?? []
                } catch {
                    wellKnownProblem = error
                }
            }
        }
        // 3. The principal's calendar home.
        if found.homes.isEmpty, let principal {
            let (answer, _) = try propfind(
                principal, depth: 0, ["calendar-home-set"], step: "asking the principal \(principal.absoluteString) for its calendar home")
            found.homes = answer.resources.first?.hrefs("calendar-home-set") ?? []
            if found.homes.isEmpty {
                throw SyncFailure("the principal \(principal.absoluteString) names no calendar-home-set: it is not a CalDAV account")
            }
        }
        if found.homes.isEmpty {
            if found.given != nil { return found }
            // The URL's own failure (an unreachable host or a refused login is the same for
            // both), and then the well-known URL's.
            if let firstProblem, let wellKnownProblem, !firstProblem.message.contains("cannot reach"),
                !firstProblem.message.contains("(401)")
            {
                throw SyncFailure("no CalDAV server found: \(firstProblem.message); \(wellKnownProblem.message)")
            }
            if let problem = firstProblem ?? wellKnownProblem { throw problem }
            throw SyncFailure(
                "no CalDAV account found at \(start.absoluteString): neither it nor /.well-known/caldav names a current-user-principal or a calendar home"
            )
        }
        // 4. The calendars in each home that take tasks.
        for home in found.homes { try list(home, into: &found) }
        return found
    }

    /// The task calendars of the URL given, taken to be a calendar home (a set of lists synced
    /// before, whose home set-up wrote): one request, where `discover` makes up to four. When
    /// the server answers that it is not one any more, `discover` finds where the calendars are
    /// now; a server out of reach is said so at once.
    public func discoverInHome() throws(SyncFailure) -> Found {
        var found = Found()
        found.homes = [start]
        do {
            try list(start, into: &found)
            return found
        } catch  where !error.timedOut && !error.final && !error.message.contains("cannot reach") {
            return try discover()
        }
    }

    /// Adds the calendars in `home` that take tasks, once each by URL: the same calendar in two
    /// homes' listings is one member, whatever version each listing gave.
    private func list(_ home: URL, into found: inout Found) throws(SyncFailure) {
        let (answer, _) = try propfind(Self.folder(home), depth: 1, Self.calendarProperties, step: "listing the calendars in \(home.absoluteString)")
        for calendar in Self.taskCalendars(in: answer, home: home) where !found.calendars.contains(where: { $0.url == calendar.url }) {
            if let url = URL(string: calendar.url), refusal(of: url, step: "") != nil {
                found.elsewhere.append(calendar.url)
            } else {
                found.calendars.append(calendar)
            }
        }
    }

    /// The calendars of a home's listing that take tasks: not the home itself (SOGo's reports
    /// a component set), not a schedule inbox or outbox (Cyrus, sabre), not a plain file
    /// (SOGo's `personal.ics`); a calendar that is also an outbox (SOGo's) is a calendar.
    static func taskCalendars(in answer: PropfindAnswer, home: URL) -> [TaskCalendar] {
        answer.resources.compactMap { resource in
            guard resource.isCalendar, resource.takesTasks,
                !HTTPCalendarCollection.sameFolder(resource.url.path, home.path)
            else { return nil }
            return TaskCalendar(
                name: resource.displayName ?? resource.lastSegment, url: folder(resource.url).absoluteString, version: resource.version)
        }
    }

    static let contextProperties = [
        "d:resourcetype", "d:displayname", "d:current-user-principal", "c:calendar-home-set", "c:supported-calendar-component-set",
    ]
    /// With each calendar's version, as DAVx5 lists them: a sync with nothing to do then needs
    /// no request per calendar.
    static let calendarProperties = ["d:resourcetype", "d:displayname", "c:supported-calendar-component-set", "cs:getctag", "d:sync-token"]

    /// A PROPFIND, redirects followed (a relative Location too); the answer and the URL that
    /// gave it.
    func propfind(_ url: URL, depth: Int, _ properties: [String], step: String) throws(SyncFailure) -> (PropfindAnswer, URL) {
        let prop = properties.map { name in name.contains(":") ? "<\(name)/>" : "<c:\(name)/>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"><d:prop>\(prop)</d:prop></d:propfind>
            """
        let (reply, answered) = try send("PROPFIND", url, body: body, headers: ["Depth": String(depth)], step: step)
        guard reply.status == 207, let answer = PropfindAnswer(reply.body, answering: answered) else {
            throw Self.failure(reply, step: step)
        }
        return (answer, answered)
    }

    /// Sends one request, following redirects; the reply and the URL that gave it.
    func send(_ method: String, _ url: URL, body: String, headers: [String: String], step: String) throws(SyncFailure)
        -> (HTTPExchange.Reply, URL)
    {
        var target = url
        for _ in 0...Self.redirects {
            if let refusal = refusal(of: target, step: step) { throw refusal }
            var request = HTTPRequest(url: target)
            request.httpMethod = method
            request.httpBody = Data(body.utf8)
            request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type")
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.setValue("HotTask", forHTTPHeaderField: "User-Agent")
            let reply: HTTPExchange.Reply
            switch exchange.perform(request) {
            case .success(let answer): reply = answer
            case .failure(let failure) where failure.final: throw SyncFailure("\(step): \(failure.message)", final: true)
            case .failure(let failure): throw SyncFailure("\(step): cannot reach \(target.absoluteString): \(failure.message)")
            }
            guard [301, 302, 303, 307, 308].contains(reply.status), let location = reply.header("Location"),
                let next = URL(string: location, relativeTo: target)?.absoluteURL
            else { return (reply, target) }
            target = next
        }
        throw SyncFailure("\(step): more than \(Self.redirects) redirects from \(url.absoluteString)")
    }

    /// Why a request to `url` is not sent, nil when it may be: the login goes only to the host
    /// and port given, over the scheme given or https (never from https down to http), as a
    /// sync's libcurl does; a redirect or an href elsewhere is refused, naming it.
    func refusal(of url: URL, step: String) -> SyncFailure? {
        let scheme = url.scheme?.lowercased()
        let started = start.scheme?.lowercased()
        let prefix = step.isEmpty ? "" : step + ": "
        if started == "https" && scheme != "https" {
            return SyncFailure(
                "\(prefix)the server sent HotTask to \(url.absoluteString), plain http from an https address; "
                    + "nothing was sent there (HotTask sends no login unencrypted)", final: true)
        }
        let upgrade = started == "http" && scheme == "https"
        if url.host?.lowercased() != start.host?.lowercased() || (!upgrade && MemberHref.port(url) != MemberHref.port(start)) {
            return SyncFailure(
                "\(prefix)the server sent HotTask to \(url.absoluteString), another host than the one given; nothing was sent there "
                    + "(if you trust it, run hottask --sync-setup with that address)", final: true)
        }
        return nil
    }

    /// "STEP: the server answered 405 (and what it said)".
    static func failure(_ reply: HTTPExchange.Reply, step: String) -> SyncFailure {
        if reply.status == 401 { return SyncFailure("\(step): \(reply.refusal ?? "login refused") (401)") }
        if reply.status == 207 { return SyncFailure("\(step): the answer is not a WebDAV multistatus") }
        let said = serverMessage(reply.body).map { ": \($0)" } ?? ""
        let reason = HTTPStatusPhrase.of(reply.status)
        return SyncFailure("\(step): the server answered \(reply.status) \(reason)\(said)")
    }

    /// What the server said in its body, shortly: a DAV error's message (sabre's `s:message`)
    /// or the first line of text, markup removed.
    static func serverMessage(_ body: Data) -> String? {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        if let root = XMLNode.parse(body), let message = root.children.first(where: { $0.name == "message" }) {
            return message.text.trimmingBlanksAndNewlines()
        }
        let plain = withoutMarkup(text)
            .split(whereSeparator: \.isNewline).map { $0.trimmingBlanks() }.first { !$0.isEmpty }
        return plain.map { String($0.prefix(200)) }
    }

    /// The text with each `<…>` a space.
    private static func withoutMarkup(_ text: String) -> String {
        var plain = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            plain += rest[..<open] + " "
            rest = rest[rest.index(after: close)...]
        }
        return plain + rest
    }

    /// The URL with a trailing slash (collections are folders).
    static func folder(_ url: URL) -> URL {
        url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/") ?? url
    }
}
