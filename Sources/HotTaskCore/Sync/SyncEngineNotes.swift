import FoundationEssentials
import Glibc

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

extension SyncEngine {
    /// A relation from the server that closes a cycle (two writers each putting one task under
    /// the other) is broken as any is, at the lowest id, and said, as an import says it: the
    /// cycles `after` has that `before` had not, when `changes` touched a relation.
    static func cycleNotes(_ changes: [TaskChange], before: TaskList, after: TaskList) -> [String] {
        guard changes.contains(where: \.touchesParent) else { return [] }
        let known = Set(Subtasks(before).brokenCycles)
        let tasks = after.all
        let byID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return Subtasks(tasks).brokenCycles.filter { !known.contains($0) }.compactMap { byID[$0] }.map { task in
            "the subtasks of \(quotedCaption(CaptionRule.shown(task.caption))) lead back to it (a cycle, from the server): it is shown top-level"
        }
    }
}
