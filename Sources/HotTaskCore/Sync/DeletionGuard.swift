import FoundationEssentials
import Glibc

/// How a round learned which of the synced tasks the server no longer has.
enum RemovalEvidence: Equatable {
    /// The collection's version was unchanged: nothing looked at, nothing removed.
    case unchanged
    /// A sync-collection answer for a token we hold: each removed member is a 404 in it.
    case syncToken
    /// A listing of every member compared with the base: a missing member is only absence.
    case listing
}

/// A sync that would delete what it cannot prove was deleted: it changes nothing, here or on
/// the server, and says what it saw and how to go on (`--force-delete`, `--resync`).
public struct SyncRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// The same in a line that fits the UI's footer, pointing to `hottask --sync` for the rest.
    public let summary: String
    public var description: String { message }
}

/// The rules that keep a sync from emptying either side on thin evidence (RELIABILITY.md,
/// "Sync deletes only what was proven deleted"). vdirsyncer refuses the same way when one side
/// was completely emptied; here a deletion also needs its own proof.
///
/// - From the server: a 404 member in a sync-collection answer, or absence from a listing. Either
///   way, a round that would remove every synced task (the calendar emptied, or replaced by one
///   whose members are all new) is refused, and so is a listing that lacks more than half of
///   four or more synced tasks: an answer cut short, a server restored, another calendar.
/// - From here: a task deleted by a HotTask command leaves a tombstone in the store. A synced
///   task that is simply missing (the store replaced or restored from a copy) is not deleted
///   on the server.
struct DeletionGuard {
    let base: SyncBase
    /// The list as the store holds it now, with its tombstones.
    let list: TaskList
    let remote: [UUID: SyncEngine.Remote]
    let evidence: RemovalEvidence
    /// How many members the listing held (for the message), when it was a listing.
    let listed: Int?
    /// For a set of calendars: the rules then hold for each calendar too (one list's calendar
    /// gone is not a few tasks of many).
    var set: CalendarSet? = nil

    /// Why this round must not go ahead, or nil.
    func refusal(deletingThere pushes: [SyncEngine.Push]) -> SyncRefusal? {
        let synced = base.entries.count
        let removedThere = remote.values.filter { if case .removed = $0 { true } else { false } }.count
        let emptied = synced >= 2 && removedThere == synced
        let shrunk = evidence == .listing && removedThere > 0 && (removedThere == synced || (synced >= 4 && removedThere * 2 > synced))
        if emptied || shrunk {
            let seen: String
            switch (evidence, listed) {
            case (.listing, let count?) where count > 0:
                seen =
                    "the calendar lists \(count) task\(count == 1 ? "" : "s") but lacks \(removedThere) of the \(synced) synced before"
                    + (removedThere == synced ? " (another calendar under the same address?)" : "")
            case (.listing, _):
                seen = "the calendar lists no tasks, but \(synced) were synced with it before"
            default:
                seen = "the server says all \(synced) tasks synced before were deleted (the calendar emptied or replaced)"
            }
            return SyncRefusal(
                message: seen + "; " + Self.advice(deleting: "\(removedThere) here"),
                summary: Self.summary(removedThere))
        }
        if let refusal = calendarRefusal() { return refusal }
        let lost = pushes.filter { push in
            push.entry == nil && list.task(withID: push.id) == nil && list.deleted[push.id] == nil
        }
        if !lost.isEmpty {
            let names = lost.compactMap { base.entries[$0.id.uuidString.lowercased()]?.caption }.map(CaptionRule.shown)
            return SyncRefusal(
                message: "\(lost.count) synced task\(lost.count == 1 ? " is" : "s are") missing from the store with no record of "
                    + "\(lost.count == 1 ? "its" : "their") deletion (was it replaced or restored from a copy?): "
                    + Self.list(names) + "; " + Self.advice(deleting: "\(lost.count) on the server"),
                summary: Self.summary(lost.count))
        }
        return nil
    }

    /// For a set of calendars, the same rules calendar by calendar: a calendar deleted there
    /// (no longer a member) whose synced tasks are all gone, or one a listing shows emptied or
    /// lacking more than half of four or more. A calendar still there whose sync token reports
    /// its tasks deleted one by one is a person's deletions, as in one calendar. Counted by the
    /// folder of each href (no URL parsed per task); only a calendar refused is named.
    private func calendarRefusal() -> SyncRefusal? {
        guard let set else { return nil }
        var synced: [String: (count: Int, href: String)] = [:]
        for entry in base.entries.values { synced[CalendarSet.parent(entry.href), default: (0, entry.href)].count += 1 }
        var removed: [String: Int] = [:]
        for (id, change) in remote {
            guard case .removed = change, let entry = base.entries[id.uuidString.lowercased()] else { continue }
            removed[CalendarSet.parent(entry.href), default: 0] += 1
        }
        for (folder, gone) in removed.sorted(by: { $0.key < $1.key }) {
            guard let (count, href) = synced[folder] else { continue }
            let deletedThere = set.listName(forHref: href) == nil
            let emptied = count >= 2 && gone == count && (deletedThere || evidence == .listing)
            let shrunk = evidence == .listing && count >= 4 && gone * 2 > count
            guard emptied || shrunk else { continue }
            let calendar = set.calendarLabel(forHref: href, base: base)
            let seen =
                gone == count
                ? "the calendar \(calendar) lacks all \(count) tasks synced with it before (deleted on the server, or moved?)"
                : "the calendar \(calendar) lacks \(gone) of the \(count) tasks synced with it before"
            return SyncRefusal(message: seen + "; " + Self.advice(deleting: "\(gone) here"), summary: Self.summary(gone))
        }
        return nil
    }

    /// Fits the UI's footer beside "sync failed HH:MM" at 80 columns.
    static func summary(_ count: Int) -> String {
        "refused \(count) deletion\(count == 1 ? "" : "s"); see hottask --sync"
    }

    static func advice(deleting what: String) -> String {
        "nothing was changed here or on the server. To delete those \(what) all the same: hottask --sync --force-delete; "
            + "to keep every task of both sides instead: hottask --sync --resync"
    }

    /// Captions in quotes, the first few, for a message or a summary line.
    static func list(_ captions: [String], limit: Int = 5) -> String {
        let shown = captions.prefix(limit).map { "\"\($0)\"" }.joined(separator: ", ")
        return captions.count > limit ? shown + " and \(captions.count - limit) more" : shown
    }
}
