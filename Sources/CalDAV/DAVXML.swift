import Foundation

/// An XML element as a small tree, names resolved to their namespaces: enough to read a
/// WebDAV multistatus whatever prefixes the server chose.
struct XMLNode {
    var namespace: String
    var name: String
    var text = ""
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
    }

    struct Multistatus {
        var responses: [Response]
        var syncToken: String?
    }

    static func multistatus(_ data: Data) -> Multistatus? {
        guard let root = XMLNode.parse(data), root.name == "multistatus", root.namespace == dav else { return nil }
        var responses: [Response] = []
        for node in root.all("response") {
            guard let href = node.child("href")?.text.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
            var response = Response(href: href, status: node.child("status").flatMap { statusCode($0.text) })
            for propstat in node.all("propstat") where propstat.child("status").flatMap({ statusCode($0.text) }) == 200 {
                for property in propstat.child("prop")?.children ?? [] {
                    response.properties[property.name] = property.text
                }
            }
            responses.append(response)
        }
        return Multistatus(
            responses: responses, syncToken: root.child("sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
