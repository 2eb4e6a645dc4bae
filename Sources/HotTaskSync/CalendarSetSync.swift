import CalDAV
import FoundationEssentials
import Glibc
import HotTaskCore

/// `[sync]` with `calendars`: several calendars, each a list. Each sync finds the home's task
/// calendars again (a calendar renamed there names its list anew; one deleted there is missing,
/// and its tasks' absence is judged as any deletion is) and syncs the chosen ones and those
/// named as a list here, making a calendar in the home for a list that has none.
enum CalendarSetSync {
    /// `home`: the calendar home; `chosen`: the calendars' URLs written at set-up.
    static func set(
        home: String, chosen: [String], lists: [String], username: String?, password: String?, caFile: String?, connections: Int?
    ) throws(SyncFailure) -> CalendarSet {
        let discovery = try CalendarDiscovery(url: home, username: username, password: password, timeout: SyncSetup.timeout, caFile: caFile)
        let found = try discovery.discoverInHome()
        func collection(_ url: String) throws(SyncFailure) -> HTTPCalendarCollection {
            try HTTPCalendarCollection(
                url: url, username: username, password: password, timeout: SyncSetup.timeout, parallelRequests: connections ?? 8,
                caFile: caFile, deadline: SyncSetup.deadline)
        }
        let wanted = Set(chosen.map(normalized))
        // A chosen calendar now named on another host is never sent to, nor taken for deleted.
        if let moved = found.elsewhere.first(where: { wanted.contains(normalized($0)) }) {
            throw SyncFailure(
                "a calendar synced here is now named at \(moved), another host or scheme; nothing was changed "
                    + "(if you trust it, run hottask --sync-setup with that address)")
        }
        var members: [CalendarSet.Member] = []
        var spares: [CalendarSet.Member] = []
        for calendar in found.calendars {
            if wanted.contains(normalized(calendar.url)) || lists.contains(calendar.name) {
                let member = try collection(calendar.url)
                member.remember(listed: calendar.version)
                members.append(CalendarSet.Member(list: calendar.name, calendar: member))
            } else if let spare = try? collection(calendar.url) {
                spares.append(CalendarSet.Member(list: calendar.name, calendar: spare))
            }
        }
        let foundURLs = Set(found.calendars.map { normalized($0.url) })
        let homeURL = found.homes.first ?? URL(string: home)
        return CalendarSet(
            url: home, members: members,
            make: { name throws(SyncFailure) in
                guard let homeURL else { throw SyncFailure("making a calendar for the list \(name): the server named no calendar home") }
                return try collection(try discovery.create(named: name, in: homeURL).url)
            },
            rename: { url, name throws(SyncFailure) in try discovery.rename(url, to: name) }, spares: spares,
            expected: chosen.filter { !foundURLs.contains(normalized($0)) }, probe: { url throws(SyncFailure) in try discovery.exists(url) })
    }

    /// A URL as compared: with its trailing slash, its path's escapes undone.
    private static func normalized(_ url: String) -> String {
        let withSlash = url.hasSuffix("/") ? url : url + "/"
        return withSlash.percentDecoded ?? withSlash
    }
}
