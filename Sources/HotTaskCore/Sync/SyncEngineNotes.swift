import Foundation

/// What a sync says of members it could not take.
extension SyncEngine {
    /// Members listed but not sent: each named when few, else counted with the first few named
    /// (a server that lists 120,000 and sends none gets one line, not 120,000).
    static func undeliveredProblems(_ hrefs: [String]) -> [String] {
        guard hrefs.count > 10 else {
            return hrefs.map { "the server listed \($0) but did not send it readably; it is asked for again next time" }
        }
        let named = hrefs.prefix(3).joined(separator: ", ")
        return ["the server listed \(hrefs.count) tasks (\(named), …) but did not send them readably; they are asked for again next time"]
    }

    /// The largest calendar object a sync reads: a bigger one (an inline ATTACH) is named once
    /// and left alone there, and the rest syncs.
    public static let maximumObjectBytes = 10 << 20

    /// What a sync says of a member whose body HotTask cannot read.
    static func unreadableNote(_ href: String, _ reason: String) -> String {
        "skipped \(href): it is not iCalendar HotTask can read (\(reason)); it is left alone there, and read again when it changes"
    }
}
