import Foundation
import Testing

@testable import CalDAV

/// Which hrefs a calendar's answer may name: paths in its folder on its own server, written
/// however a server writes them; nothing on another host, and nothing that climbs out.
@Suite("Member hrefs")
struct MemberHrefTests {
    let members = MemberHref(collection: URL(string: "https://dav.example.org:8443/cal/my%20tasks/")!, collectionPath: "/cal/my tasks/")

    @Test("paths in the folder, encoded or not, absolute or relative, are inside; other hosts, schemes, ports and climbs are not")
    func insideAndOutside() {
        let inside = [
            "/cal/my%20tasks/a.ics", "/cal/my tasks/b.ics", " /cal/my%20tasks/c.ics\n", "/cal/my%20tasks/", "/cal/my%20tasks",
            "https://dav.example.org:8443/cal/my%20tasks/d.ics", "e.ics", "/cal/my%20tasks/f.ics?x=1",
            // Unicode's spaces and a tab around it are trimmed too (plain ASCII ends skip the trim).
            "\u{00A0}/cal/my%20tasks/g.ics\u{2003}", "\t/cal/my tasks/h.ics",
        ]
        let outside = [
            "/cal/other/a.ics", "/cal/my%20tasks/../escaped.ics", "/cal/my%20tasks/%2e%2e/escaped.ics", "/cal/my%20tasks/./hidden.ics",
            "//otherhost/cal/my%20tasks/a.ics", "http://dav.example.org:8443/cal/my%20tasks/a.ics",
            "https://dav.example.org/cal/my%20tasks/a.ics", "https://other.example.org:8443/cal/my%20tasks/a.ics", "/", "/cal/",
            "/cal/my%20tasks2/a.ics",
        ]
        #expect(inside.filter { !members.isInside($0) } == [])
        #expect(outside.filter { members.isInside($0) } == [])
    }
}
