import Foundation

/// Which hrefs a server may name as members: only paths inside the calendar's own folder, on
/// the same scheme, host and port. Anything else (`//otherhost/…`, `https://other/…`, a `../`
/// out of the folder) would send a task, and the login, somewhere the user never gave.
struct MemberHref {
    let collection: URL
    /// The calendar's path, percent-decoded, with its trailing slash.
    let collectionPath: String

    /// True when `href` names something inside the calendar (the calendar itself included).
    func isInside(_ href: String) -> Bool {
        let text = href.trimmingCharacters(in: .whitespacesAndNewlines)
        guard
            let url = URL(string: text, relativeTo: collection)?.absoluteURL
                ?? URL(string: HTTPCalendarCollection.encoded(text), relativeTo: collection)?.absoluteURL
        else { return false }
        guard url.scheme?.lowercased() == collection.scheme?.lowercased(), url.host?.lowercased() == collection.host?.lowercased(),
            Self.port(url) == Self.port(collection)
        else { return false }
        // `..` or `.` in any spelling (`%2e%2e` too, decoded by `normalized`) climbs or hides.
        let segments = HTTPCalendarCollection.normalized(text).split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { $0 == ".." || $0 == "." }) { return false }
        let path = HTTPCalendarCollection.normalized(url.absoluteString)
        return path.hasPrefix(collectionPath) || HTTPCalendarCollection.sameFolder(path, collectionPath)
    }

    /// The port a URL reaches: its own, or its scheme's.
    static func port(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
