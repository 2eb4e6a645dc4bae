import CalDAV
import FoundationEssentials
import Glibc
import HotTaskCore

/// `hottask-sync --setup`: the network half of `hottask --sync-setup`. Finds the account's
/// task calendars, picks or creates the one to sync with, and tells `hottask` on stdout, one
/// line each, tab-separated (hottask writes the config):
///
///     found   NAME  URL     a task calendar of the account
///     created NAME  URL     made now (--calendar NAME, or "HotTask" when there was none)
///     use     URL           the one chosen (one calendar, which holds every list)
///     home    URL           several chosen, each a list: the calendar home, and
///     member  URL           each calendar chosen, one a line
///
/// Several task calendars and no `--calendar`, or several `--calendar`: all of them (the
/// chosen ones), each a list named by its display name.
///
/// Exit: 0 chosen, 5 a step failed (stderr says which and what the server said).
enum SetupCommand {
    /// The name of the calendar made when an account has no task calendar.
    static let defaultName = "HotTask"

    @MainActor static func run(_ options: [String: String]) -> Never {
        guard let url = options["--url"] else { fail("hottask-sync --setup needs --url", .usage) }
        do {
            let password: String?
            if let command = options["--password-command"] {
                password = try SyncSetup.runPasswordCommand(command, quiet: false)
            } else if options["--password-stdin"] != nil {
                // hottask asked for it at the terminal; it comes by a pipe, never in argv.
                let line = String(decoding: Descriptor.readAll(0), as: UTF8.self)
                password = String(line.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
            } else {
                password = nil
            }
            let discovery = try CalendarDiscovery(url: url, username: options["--username"], password: password, caFile: options["--ca-file"])
            let found = try discovery.discover()
            var calendars = found.calendars
            if let given = found.given, !calendars.contains(given) { calendars.insert(given, at: 0) }
            for calendar in calendars { say("found", calendar.name, calendar.url) }
            for url in found.elsewhere {
                note("skipped the calendar \(url): it is on another host or scheme than the address given")
            }
            // `--calendar` repeated: its names one a line.
            let names = options["--calendar"].map { $0.split(separator: "\n").map(String.init) } ?? []
            if names.count > 1 || (names.isEmpty && found.given == nil && calendars.count > 1) {
                var members: [TaskCalendar] = []
                for name in names {
                    if let match = TaskCalendar.named(name, in: calendars) {
                        members.append(match)
                    } else {
                        members.append(try create(name, with: discovery, in: found))
                    }
                }
                if names.isEmpty { members = calendars }
                guard let home = found.homes.first else {
                    fail("sync set-up failed: the server named no calendar home for the calendars' lists", .syncFailed)
                }
                say("home", home.absoluteString)
                for member in members { say("member", member.url) }
                exit(0)
            }
            let chosen: TaskCalendar
            if let name = names.first {
                if let match = TaskCalendar.named(name, in: calendars) {
                    chosen = match
                } else {
                    chosen = try create(name, with: discovery, in: found)
                }
            } else if let given = found.given {
                chosen = given
            } else if calendars.count == 1 {
                chosen = calendars[0]
            } else {
                chosen = try create(defaultName, with: discovery, in: found)
            }
            say("use", chosen.url)
            exit(0)
        } catch {
            fail("sync set-up failed: \(error.message)", .syncFailed)
        }
    }

    private static func create(_ name: String, with discovery: CalendarDiscovery, in found: CalendarDiscovery.Found) throws(SyncFailure)
        -> TaskCalendar
    {
        guard let home = found.homes.first else {
            throw SyncFailure("creating the calendar \"\(name)\": the server named no calendar home to make it in")
        }
        let calendar = try discovery.create(named: name, in: home)
        say("created", calendar.name, calendar.url)
        return calendar
    }

    private static func say(_ fields: String...) {
        // A tab or line break in a server's display name must not split the line.
        // Controls a server put in a name or URL are escaped (`TerminalText`) before hottask sees them.
        let cleaned = fields.map { TerminalText.escaped($0.map { $0 == "\t" || $0.isNewline ? " " : String($0) }.joined()) }
        print(cleaned.joined(separator: "\t"))
    }
}
