import FoundationEssentials
import Glibc
import HotTaskCore

/// An XML element as a small tree, names resolved to their namespaces: enough to read a
/// WebDAV multistatus whatever prefixes the server chose.
struct XMLNode {
    var namespace: String
    var name: String
    var text = ""
    /// Bytes of text too long to keep (`XMLReader.maximumHeld`): `text` is then empty, not
    /// part of what was sent.
    var skippedBytes = 0
    var children: [XMLNode] = []
    /// As written (`<c:comp name="VTODO"/>`); discovery reads them.
    var attributes: [String: String] = [:]

    func child(_ name: String, _ namespace: String = DAV.dav) -> XMLNode? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    func all(_ name: String, _ namespace: String = DAV.dav) -> [XMLNode] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// The document's root, nil when it is not well-formed (`XMLReader`).
    static func parse(_ data: Data) -> XMLNode? {
        XMLReader.parse(data)
    }
}

enum DAV {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"

    /// One `<response>` of a multistatus: its href, its own status (a removed member in a
    /// sync-collection answer), and the properties found with status 200.
    struct Response {
        var href: String
        var status: Int?
        var properties: [String: String] = [:]
        /// Properties too large to keep, by name, with the bytes they took: one calendar
        /// object an answer carries past `XMLReader.maximumHeld`.
        var oversized: [String: Int] = [:]

        /// Nil for a `<response>` without an href.
        init?(_ node: XMLNode) {
            guard let href = node.child("href")?.text.trimmingBlanksAndNewlines() else { return nil }
            self.href = href
            status = node.child("status").flatMap { statusCode($0.text) }
            for propstat in node.all("propstat") where propstat.child("status").flatMap({ statusCode($0.text) }) == 200 {
                for property in propstat.child("prop")?.children ?? [] {
                    if property.skippedBytes > 0 {
                        oversized[property.name] = property.skippedBytes
                    } else {
                        properties[property.name] = property.text
                    }
                }
            }
        }

        /// About what it takes in memory: its text and a dictionary entry's overhead per item.
        var size: Int {
            href.utf8.count + 64 + properties.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 64 }
        }
    }

    struct Multistatus {
        var responses: [Response]
        var syncToken: String?
    }

    /// A whole answer's multistatus, nil when it is not one (as `MultistatusStream` reads it).
    static func multistatus(_ data: Data) -> Multistatus? {
        let stream = MultistatusStream()
        _ = data.withUnsafeBytes { stream.consume($0) }
        return stream.finish()
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;")
    }
}
