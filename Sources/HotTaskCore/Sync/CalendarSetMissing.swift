import FoundationEssentials
import Glibc

/// A calendar the last sync synced (or chosen at set-up) that this sync's discovery did not
/// find is never taken for an empty one: its tasks would be deleted here, and on the server
/// when it answered again. It is asked for by itself: still there (or no clean answer), the
/// sync stops and changes nothing; a 404 (deleted there) lets its tasks' absence be judged,
/// calendar by calendar, by the `DeletionGuard`.
extension CalendarSet {
    /// Before a sync's first round. Throws `SyncFailure` unless every calendar synced before is
    /// a member again or answered 404.
    func checkMissing(base: SyncBase) throws(SyncFailure) {
        var wanted: [String: String] = [:]  // folder path → URL or path to ask
        for url in expected + (base.lists?.byCalendar.keys.sorted() ?? []) { wanted[Self.folderPath(url)] = url }
        // Each folder once: parsing every task's href cost seconds at 100,000.
        for folder in Set(base.entries.values.map { Self.parent($0.href) }) where wanted[Self.folderPath(folder)] == nil {
            wanted[Self.folderPath(folder)] = folder
        }
        let held = Set(members.map { Self.folderPath($0.calendar.url) })
        for (path, address) in wanted.sorted(by: { $0.key < $1.key }) where !held.contains(path) {
            if let spare = spares.first(where: { Self.folderPath($0.calendar.url) == path }) {
                lock.withLock { current.append(spare) }
                continue
            }
            let full = URL(string: address, relativeTo: URL(string: url))?.absoluteString ?? address
            let name = base.lists?.byCalendar.first { Self.folderPath($0.key) == path }.map { "\"\($0.value)\" " } ?? ""
            // A set given no way to ask (in tests) holds what it was given: the rest is gone.
            guard let probe else {
                lock.withLock { _ = provenGone.insert(path) }
                continue
            }
            let there: Bool
            do {
                there = try probe(full)
            } catch {
                throw SyncFailure(
                    "the calendar \(name)(\(full)) was missing from the server's list of calendars, and asking for it failed: "
                        + "\(error.message); nothing was changed here or on the server, try again later")
            }
            if !there { lock.withLock { _ = provenGone.insert(path) } }
            if there {
                throw SyncFailure(
                    "the calendar \(name)(\(full)) was missing from the server's list of calendars, but it is there; "
                        + "nothing was changed here or on the server; try again, and if this stays, run hottask --sync-setup")
            }
        }
    }

    /// The path of a calendar (URL or path), decoded, with its trailing slash.
    static func folderPath(_ address: String) -> String {
        let path = URLComponents(string: address)?.path ?? address
        let decoded = path.percentDecoded ?? path
        return decoded.hasSuffix("/") ? decoded : decoded + "/"
    }

    /// The folder a member's href is in.
    static func parent(_ href: String) -> String {
        guard let slash = href.dropLast(href.hasSuffix("/") ? 1 : 0).lastIndex(of: "/") else { return href }
        return String(href[...slash])
    }

    /// What a refusal calls the calendar `href` is (or was) in: its list's name and its path.
    func calendarLabel(forHref href: String, base: SyncBase) -> String {
        let path = Self.folderPath(Self.parent(href))
        let name = listName(forHref: href) ?? base.lists?.byCalendar.first { Self.folderPath($0.key) == path }?.value
        return (name.map { "\"\($0)\" " } ?? "") + "(\(path))"
    }
}
