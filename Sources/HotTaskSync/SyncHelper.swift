import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

// hottask-sync: one sync of a store with a CalDAV calendar. `hottask --sync` and the UI run it
// as a separate process. It is the same program as `hottask`, run by the name `hottask-sync`
// (a link in the package), so the package carries one binary; libcurl is loaded only here, when
// a request is first made (CCurl's dlopen), never by any other command.
//
// Usage: hottask-sync --store PATH --url URL [--username NAME] [--password-command CMD] [--quiet]
//        [--force-delete] [--resync]
// Exit: 0 synced (the report on stdout), 5 the server failed, a deletion was refused for want
// of proof, or some tasks did not go through (each named), 2/3 the store could not be read or
// written, 64 bad usage. Messages go to stderr, one line each.
//
// hottask-sync --setup --url URL [--username NAME] [--password-command CMD | --password-stdin]
//              [--calendar NAME]
// finds the account's task calendars for `hottask --sync-setup` (see SetupCommand.swift).

/// The helper's whole run: `hottask` hands over to it when run by the name `hottask-sync`.
public enum SyncHelper {
    /// The name that makes `hottask` the helper.
    public static let programName = "hottask-sync"

    /// Parses `arguments` (without the program's name), syncs or sets up, and exits.
    @MainActor public static func run(_ arguments: [String]) -> Never {
        var options: [String: String] = [:]
        // A password is in this process's memory (from the command, the terminal or the URL): a
        // crash must not write it into a core file.
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)

        var arguments = arguments[...]
        while let name = arguments.popFirst() {
            if ["--quiet", "--setup", "--password-stdin", "--force-delete", "--resync", "--die-with-parent"].contains(name) {
                options[name] = ""
                HelperOutput.quiet = HelperOutput.quiet || name == "--quiet"
                continue
            }
            guard ["--store", "--url", "--username", "--password-command", "--calendar", "--ca-file", "--connections", "--calendars"].contains(name),
                let value = arguments.popFirst()
            else {
                fail("hottask-sync: unknown or incomplete option \(name) (it is run by hottask --sync)", .usage)
            }
            // `--calendar` may be given again: the names one a line.
            options[name] = name == "--calendar" ? options[name].map { $0 + "\n" + value } ?? value : value
        }
        if options["--die-with-parent"] != nil { ParentWatch.start() }
        if options["--setup"] != nil { SetupCommand.run(options) }
        guard let storePath = options["--store"], let written = options["--url"] else {
            fail("hottask-sync needs --store and --url (it is run by hottask --sync)", .usage)
        }
        sync(store: storePath, url: SyncURL(written), options: options)
    }

    @MainActor private static func sync(store storePath: String, url syncURL: SyncURL, options: [String: String]) -> Never {
        let quiet = HelperOutput.quiet
        let forceDelete = options["--force-delete"] != nil
        let forgetBase = options["--resync"] != nil
        // A password in the URL is taken out of it before anything names the URL.
        let url = syncURL.url

        signal(SIGXFSZ, SIG_IGN)
        if let link = ForeignLink.first(in: storePath) {
            fail("will not use the task store \(storePath): \(link.reason). Nothing was changed", .storeUnreadable)
        }
        let store = TaskStore(path: storePath)
        // Read while the password command runs and the first request is on the network.
        store.readSyncStateAhead()
        do {
            let username = options["--username"] ?? syncURL.username
            let connections = options["--connections"].flatMap { Int($0) }
            let password = try SyncSetup.password(
                command: options["--password-command"], given: syncURL.password ?? ProcessInfo.processInfo.environment[SyncURL.passwordVariable],
                quiet: quiet)
            var collection: CalendarCollection = try SyncSetup.collection(
                url: url, username: username, password: password, quiet: quiet, caFile: options["--ca-file"], connections: connections)
            if let calendars = options["--calendars"] {
                // Several calendars, each a list; `url` is their home.
                collection = try CalendarSetSync.set(
                    home: url, chosen: calendars.split(separator: "\n").map(String.init), lists: try store.load().lists.names, username: username,
                    password: password, caFile: options["--ca-file"], connections: connections)
            }
            let progress = SyncProgressLine(enabled: !quiet)
            let forTheUI = ProgressForTheUI(enabled: quiet)
            let report = try store.sync(with: collection, forceDelete: forceDelete, forgetBase: forgetBase, quiet: quiet) { @Sendable sent, total in
                progress.show(sent: sent, of: total)
                forTheUI.show(sent: sent, of: total)
            }
            progress.finish()
            print(TerminalText.escaped("Synced with \(url): \(report)"))
            for text in report.notes { note(text) }
            if !report.problems.isEmpty {
                // The UI's footer has one line: the first problem and how many more.
                if quiet {
                    // The first line is the footer's; the rest is the whole story, for the help overlay.
                    let first = report.problems[0] + (report.problems.count > 1 ? " (and \(report.problems.count - 1) more)" : "")
                    fail(TerminalText.escaped(first) + "\n" + TerminalText.escaped(report.problems.joined(separator: "; ")), .syncFailed)
                }
                for problem in report.problems.dropLast() { say("hottask: " + TerminalText.escaped(problem)) }
                fail(report.problems[report.problems.count - 1], .syncFailed)
            }
        } catch let refusal as SyncRefusal {
            fail(
                quiet
                    ? TerminalText.escaped(refusal.summary) + "\n" + TerminalText.escaped(refusal.message)
                    : "sync with \(url) refused: \(refusal.message)",
                .syncFailed)
        } catch let failure as SyncFailure {
            // The UI (--quiet) shows the reason alone in its footer.
            fail(quiet ? failure.message : "sync with \(url) failed: \(failure.message); every local change is kept", .syncFailed)
        } catch let error as StoreError {
            fail(UserFacingError(error))
        } catch {
            fail("sync with \(url) failed: \(error)", .syncFailed)
        }
        exit(0)
    }
}

/// What the helper says, and how: `--quiet` (the UI) wants the reason alone, for its footer.
enum HelperOutput {
    @MainActor static var quiet = false
}

/// Says why on stderr and exits with its status: the statuses are `ExitStatus`'s, named once
/// in Core for both programs.
@MainActor func fail(_ error: UserFacingError) -> Never {
    // Line breaks are kept for the UI's two-line reason; each part was escaped on its own.
    say((HelperOutput.quiet ? "" : "hottask: ") + TerminalText.escaped(error.message, keepingLineBreaks: HelperOutput.quiet))
    exit(error.status.rawValue)
}

/// One line on stderr, every control a server may have put in it escaped (`TerminalText`).
func say(_ line: String) {
    try? Descriptor.write((TerminalText.escaped(line, keepingLineBreaks: true) + "\n"), to: 2)
}

/// A note on stderr: "hottask: note: …".
func note(_ text: String) {
    say("hottask: note: " + TerminalText.escaped(text))
}

@MainActor func fail(_ message: String, _ status: ExitStatus) -> Never {
    fail(UserFacingError(status, message))
}
