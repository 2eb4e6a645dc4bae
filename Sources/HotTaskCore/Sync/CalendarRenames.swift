import FoundationEssentials
import Glibc

/// Renames between a set of calendars and the store's lists, before a sync's first round: a
/// calendar renamed there renames its list here (one logged change, its tasks follow), and a
/// list renamed here renames its calendar there (PROPPATCH of its display name). Told apart by
/// the names the last sync recorded (`SyncBase.SyncedLists`): without them nothing is renamed.
extension SyncEngine {
    /// For a set of calendars, before a sync's first round: a calendar missing from discovery
    /// asked for by itself (`checkMissing`), renames followed both ways, and a calendar made for
    /// each list that has none; what was done, for the report's notes.
    func prepareCalendars(base: SyncBase) throws -> [String] {
        guard let set = collection as? CalendarSet else { return [] }
        try set.checkMissing(base: base)
        return try followRenames(set, base: base) + set.prepare(lists: set.listsWanting(in: try store.load(), base: base))
    }

    /// What was renamed, for the report's notes.
    func followRenames(_ set: CalendarSet, base: SyncBase) throws -> [String] {
        guard let synced = base.lists else { return [] }
        var notes: [String] = []
        var list = try store.load()
        for member in set.members {
            guard let before = synced.byCalendar[member.calendar.url], before != member.list else { continue }
            let names = list.allListNames
            guard names.contains(before), !names.contains(member.list), ListNameRule.check(member.list) == nil else { continue }
            _ = try store.renameList(before, to: member.list)
            notes.append("the calendar \"\(before)\" was renamed \"\(member.list)\" on the server; so was its list here")
            list = try store.load()
        }
        // A list renamed here keeps its place among the lists: the name at the same place, new
        // since the last sync, is its new name, if its tasks say so too (a list deleted and
        // another made keep the count and can take the place: its calendar is no rename's).
        let names = list.lists.names
        guard names.count == synced.names.count else { return notes }
        for (old, new) in zip(synced.names, names) where old != new && !synced.names.contains(new) && !names.contains(old) {
            guard Self.tasksFollowed(from: old, to: new, set: set, base: base, list: list) else { continue }
            if try set.renameCalendar(of: old, to: new) {
                notes.append("the list \"\(old)\" was renamed \"\(new)\" here; so was its calendar on the server")
            }
        }
        return notes
    }

    /// Whether the tasks synced in `old`'s calendar that are still here are all in `new`: a
    /// rename's tasks follow it; a deleted list's are gone or in another list. An empty list
    /// says nothing against it.
    static func tasksFollowed(from old: String, to new: String, set: CalendarSet, base: SyncBase, list: TaskList) -> Bool {
        guard let calendar = set.members.first(where: { $0.list == old }) else { return false }
        var kept = 0
        for (key, entry) in base.entries where CalendarSet.path(of: entry.href).hasPrefix(calendar.path) {
            guard let id = UUID(uuidString: key), let task = list.task(withID: id) else { continue }
            guard list.lists.name(of: task.list) == new else { return false }
            kept += 1
        }
        let synced = base.entries.values.contains { CalendarSet.path(of: $0.href).hasPrefix(calendar.path) }
        return !synced || kept > 0
    }

    /// Each calendar of a set is a list here, tasks or none: the lists the round's record adds,
    /// and the names it records in `delta`.
    static func listsForCalendars(_ collection: CalendarCollection, in list: TaskList, base: SyncBase, delta: inout SyncDelta)
        -> ListNamesChange?
    {
        guard let set = collection as? CalendarSet else { return nil }
        var lists = list.lists
        for name in set.members.map(\.list) where ListNameRule.check(name) == nil && ListNameRule.find(name, in: lists.names) == nil {
            lists.add(name)
        }
        if base.lists != syncedLists(set, names: lists.names) { delta.lists = syncedLists(set, names: lists.names) }
        return lists == list.lists ? nil : ListNamesChange(after: lists, before: list.lists)
    }

    /// The names to record after a round: each calendar's list, and the store's lists.
    static func syncedLists(_ set: CalendarSet, names: [String]) -> SyncBase.SyncedLists {
        SyncBase.SyncedLists(
            byCalendar: Dictionary(set.members.map { ($0.calendar.url, $0.list) }, uniquingKeysWith: { a, _ in a }), names: names)
    }
}
