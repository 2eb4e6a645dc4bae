import FoundationEssentials
import Glibc
import HotTaskCore

extension CalendarDiscovery {
    /// Makes a calendar for tasks named `name` in `home`: MKCALENDAR (RFC 4791 §5.3.1) with
    /// the VTODO component set, or extended MKCOL (RFC 5689) where MKCALENDAR is refused.
    /// A path already taken (a calendar for events, one named otherwise) gets `-2`, `-3`…: a
    /// taken path answered 409 or 405 and stopped every sync.
    public func create(named name: String, in home: URL) throws(SyncFailure) -> TaskCalendar {
        let slug = Self.slug(name)
        var url = Self.folder(home).appendingPathComponent(slug, isDirectory: true)
        var number = 1
        // A server that will not answer the probe gets the request it got before the probe.
        while (try? exists(url.absoluteString)) == true {
            number += 1
            guard number <= 20 else { throw SyncFailure("creating the calendar \"\(name)\": the paths \(slug) to \(slug)-20 are all taken") }
            url = Self.folder(home).appendingPathComponent("\(slug)-\(number)", isDirectory: true)
        }
        let properties = """
            <d:displayname>\(DAV.escape(name))</d:displayname>\
            <c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>
            """
        let step = "creating the calendar \"\(name)\" at \(url.absoluteString)"
        let mkcalendar = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>\(properties)</d:prop></d:set></c:mkcalendar>
            """
        let (first, _) = try send("MKCALENDAR", url, body: mkcalendar, headers: [:], step: step)
        if (200..<300).contains(first.status) { return TaskCalendar(name: name, url: url.absoluteString) }
        guard [400, 403, 405, 415, 501].contains(first.status) else { throw Self.failure(first, step: step) }
        let mkcol = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>\
            <d:resourcetype><d:collection/><c:calendar/></d:resourcetype>\(properties)</d:prop></d:set></d:mkcol>
            """
        let (second, _) = try send("MKCOL", url, body: mkcol, headers: [:], step: step)
        if (200..<300).contains(second.status) { return TaskCalendar(name: name, url: url.absoluteString) }
        let said = Self.failure(first, step: "MKCALENDAR").message
        throw SyncFailure("\(Self.failure(second, step: step).message) (to extended MKCOL; \(said))")
    }

    /// Gives the calendar at `url` the display name `name` (PROPPATCH, RFC 4918 §9.2).
    public func rename(_ url: String, to name: String) throws(SyncFailure) {
        guard let target = URL(string: url) else { throw SyncFailure("renaming the calendar \(url): not a URL") }
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>\(DAV.escape(name))</d:displayname></d:prop></d:set></d:propertyupdate>
            """
        let step = "renaming the calendar \(url) to \"\(name)\""
        let (reply, _) = try send("PROPPATCH", target, body: body, headers: [:], step: step)
        // A 207 carries a status per property: a refusal shows as a 4xx inside it.
        let refusedInside = reply.status == 207 && Self.holdsClientError(Array(reply.body))
        guard (200..<300).contains(reply.status), !refusedInside else { throw Self.failure(reply, step: step) }
    }

    /// Whether a multistatus body holds " 4xx " (a status line refusing a property).
    static func holdsClientError(_ body: [UInt8]) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard body.count >= 5 else { return false }
        return (0...(body.count - 5)).contains { at in
            body[at] == 0x20 && body[at + 1] == UInt8(ascii: "4") && isDigit(body[at + 2]) && isDigit(body[at + 3]) && body[at + 4] == 0x20
        }
    }

    /// The path segment for a new calendar: the name's letters and digits, lowercased and
    /// accents dropped, others made dashes (`HotTask` → `hottask`, `Tâches` → `taches`), folded
    /// as the filter folds; a UUID when nothing is left.
    static func slug(_ name: String) -> String {
        var slug = ""
        for scalar in String(decoding: TaskFilter.foldedBytes(name), as: UTF8.self).unicodeScalars {
            if scalar.isASCII && (scalar.isAlphanumeric || scalar == "_") {
                slug.unicodeScalars.append(scalar)
            } else if !slug.hasSuffix("-") && !slug.isEmpty {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? UUID().uuidString.lowercased() : String(slug.prefix(64))
    }
}

extension CalendarDiscovery {
    /// Whether the calendar at `url` is there: a depth-0 PROPFIND, true for its 207, false for a
    /// clean 404 (deleted); any other answer, or none, throws (a hiccup proves nothing).
    public func exists(_ url: String) throws(SyncFailure) -> Bool {
        guard let target = URL(string: url) else { throw SyncFailure("asking for the calendar \(url): not a URL") }
        let step = "asking for the calendar \(url)"
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>
            """
        let (reply, _) = try send("PROPFIND", Self.folder(target), body: body, headers: ["Depth": "0"], step: step)
        if reply.status == 404 { return false }
        guard reply.status == 207 else { throw Self.failure(reply, step: step) }
        // Some servers (Xandikos) answer 207 holding a 404 for the one resource asked.
        guard let root = XMLNode.parse(reply.body), root.name == "multistatus" else { throw Self.failure(reply, step: step) }
        let responses = root.all("response")
        let missing =
            !responses.isEmpty
            && responses.allSatisfy { $0.child("propstat") == nil && $0.child("status")?.text.contains(" 404 ") == true }
        return !missing
    }
}
