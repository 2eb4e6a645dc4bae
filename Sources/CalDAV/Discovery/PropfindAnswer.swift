import FoundationEssentials
import Glibc
import HotTaskCore

/// A PROPFIND answer read for discovery: per resource its absolute URL and the properties
/// found (status 200) as trees, for the ones that hold hrefs or flags rather than text.
struct PropfindAnswer {
    struct Resource {
        var url: URL
        var properties: [String: XMLNode] = [:]

        /// The hrefs a property holds (current-user-principal, calendar-home-set), absolute.
        func hrefs(_ name: String) -> [URL] {
            guard let property = properties[name] else { return [] }
            return property.all("href").compactMap { node in
                let text = node.text.trimmingBlanksAndNewlines()
                return text.isEmpty ? nil : URL(string: text, relativeTo: url)?.absoluteURL
            }
        }

        func isA(_ name: String, _ namespace: String) -> Bool {
            properties["resourcetype"]?.child(name, namespace) != nil
        }

        /// A calendar collection. A schedule inbox or outbox alone (Cyrus's, sabre's) is not one,
        /// but SOGo marks its calendars `schedule-outbox` too: `calendar` decides.
        var isCalendar: Bool { isA("calendar", DAV.caldav) }

        /// True when the calendar takes VTODOs: its component set names VTODO, or it has none.
        var takesTasks: Bool {
            guard let set = properties["supported-calendar-component-set"] else { return true }
            let names = set.all("comp", DAV.caldav).compactMap { $0.attributes["name"]?.uppercased() }
            return names.isEmpty || names.contains("VTODO")
        }

        /// Its ctag and sync token, when the answer gave either.
        var version: CollectionVersion? {
            func text(_ name: String) -> String? {
                properties[name].map { $0.text.trimmingBlanksAndNewlines() }.flatMap { $0.isEmpty ? nil : $0 }
            }
            let version = CollectionVersion(ctag: text("getctag"), syncToken: text("sync-token"))
            return version == CollectionVersion() ? nil : version
        }

        /// As a list may be named (a server's name becomes a list's): see `ListNameRule.fromOutside`.
        var displayName: String? {
            properties["displayname"].flatMap { ListNameRule.fromOutside($0.text) }
        }

        /// The last segment of the path, percent-decoded (`tasks` for /calendars/u/tasks/), as a
        /// list may be named.
        var lastSegment: String {
            let path = url.path
            return ListNameRule.fromOutside(path.split(separator: "/").last.map(String.init) ?? path) ?? "Calendar"
        }
    }

    var resources: [Resource]

    /// Nil when the body is not a WebDAV multistatus.
    init?(_ body: Data, answering base: URL) {
        guard let root = XMLNode.parse(body), root.name == "multistatus", root.namespace == DAV.dav else { return nil }
        resources = root.all("response").compactMap { node in
            let text = node.child("href")?.text.trimmingBlanksAndNewlines() ?? ""
            guard !text.isEmpty,
                let url = URL(string: text, relativeTo: base)?.absoluteURL
                    ?? URL(string: HTTPCalendarCollection.encoded(text), relativeTo: base)?.absoluteURL
            else { return nil }
            var resource = Resource(url: url)
            for propstat in node.all("propstat") where propstat.child("status").flatMap({ DAV.statusCode($0.text) }) == 200 {
                for property in propstat.child("prop")?.children ?? [] { resource.properties[property.name] = property }
            }
            return resource
        }
    }
}
