import FoundationEssentials
import Glibc
import HotTaskCore

/// Which hrefs a server may name as members: only paths inside the calendar's own folder, on
/// the same scheme, host and port. Anything else (`//otherhost/…`, `https://other/…`, a `../`
/// out of the folder) would send a task, and the login, somewhere the user never gave.
struct MemberHref {
    let collection: URL
    /// The calendar's path, percent-decoded, with its trailing slash.
    let collectionPath: String

    /// True when `href` names something inside the calendar (the calendar itself included).
    func isInside(_ href: String) -> Bool {
        // Foundation's trim made an NSString of every href, a seventh of a quiet sync's CPU at
        // 2,000 tasks: only an href that starts or ends with something else than plain ASCII
        // is handed to it.
        let ends = (href.utf8.first ?? 0, href.utf8.last ?? 0)
        let plain = { (byte: UInt8) in byte > 0x20 && byte < 0x7F }
        let text = plain(ends.0) && plain(ends.1) ? href : href.trimmingBlanksAndNewlines()
        // A path on the calendar's own server (what servers send) is read as text: made a URL,
        // each took 17 µs, a sixth of a sync with nothing to do at 60,000 tasks.
        let decoded = HTTPCalendarCollection.normalized(text)
        if text.hasPrefix("/") && !text.hasPrefix("//") {
            return Self.staysInside(decoded, path: decoded, collectionPath)
        }
        guard
            let url = URL(string: text, relativeTo: collection)?.absoluteURL
                ?? URL(string: HTTPCalendarCollection.encoded(text), relativeTo: collection)?.absoluteURL
        else { return false }
        guard url.scheme?.lowercased() == collection.scheme?.lowercased(), url.host?.lowercased() == collection.host?.lowercased(),
            Self.port(url) == Self.port(collection)
        else { return false }
        return Self.staysInside(decoded, path: HTTPCalendarCollection.normalized(url.absoluteString), collectionPath)
    }

    /// True when `path` is in the calendar's folder and `decoded` (the href, percent-decoded by
    /// `normalized`) has no `..` or `.` in any spelling (`%2e%2e` too) to climb or hide.
    private static func staysInside(_ decoded: String, path: String, _ collectionPath: String) -> Bool {
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { $0 == ".." || $0 == "." }) { return false }
        return path.hasPrefix(collectionPath) || HTTPCalendarCollection.sameFolder(path, collectionPath)
    }

    /// The port a URL reaches: its own, or its scheme's.
    static func port(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
