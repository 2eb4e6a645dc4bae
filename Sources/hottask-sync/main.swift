import Foundation
import HotTaskCore
import HotTaskSettings

// hottask-sync: one sync of a store with a CalDAV calendar. `hottask --sync` and the UI run it
// as a separate process so that the networking libraries (libcurl and the ~30 libraries it
// loads, about 10 ms) are loaded only by a sync, never by every `hottask` command.
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

var options: [String: String] = [:]
/// Run by the UI: messages are the reason alone, for its footer.
var quiet = false
/// `--force-delete` and `--resync` (see SyncEngine).
var forceDelete = false
var forgetBase = false

/// Says why on stderr and exits with its status: the statuses are `ExitStatus`'s, named once
/// in Core for both programs.
@MainActor func fail(_ error: UserFacingError) -> Never {
    FileHandle.standardError.write(Data(((quiet ? "" : "hottask: ") + error.message + "\n").utf8))
    exit(error.status.rawValue)
}

@MainActor func fail(_ message: String, _ status: ExitStatus) -> Never {
    fail(UserFacingError(status, message))
}
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    if ["--quiet", "--setup", "--password-stdin", "--force-delete", "--resync", "--die-with-parent"].contains(name) {
        options[name] = ""
        quiet = quiet || name == "--quiet"
        forceDelete = forceDelete || name == "--force-delete"
        forgetBase = forgetBase || name == "--resync"
        continue
    }
    guard ["--store", "--url", "--username", "--password-command", "--calendar", "--ca-file", "--connections"].contains(name),
        let value = arguments.popFirst()
    else {
        fail("hottask-sync: unknown or incomplete option \(name) (it is run by hottask --sync)", .usage)
    }
    options[name] = value
}
if options["--die-with-parent"] != nil { ParentWatch.start() }
if options["--setup"] != nil { SetupCommand.run(options) }
guard let storePath = options["--store"], let written = options["--url"] else {
    fail("hottask-sync needs --store and --url (it is run by hottask --sync)", .usage)
}
// A password in the URL is taken out of it before anything names the URL.
let syncURL = SyncURL(written)
let url = syncURL.url

signal(SIGXFSZ, SIG_IGN)
if let link = ForeignLink.first(in: storePath) {
    fail("will not use the task store \(storePath): \(link.reason). Nothing was changed", .storeUnreadable)
}
let store = TaskStore(path: storePath)
do {
    let collection = try SyncSetup.collection(
        url: url, username: options["--username"] ?? syncURL.username, passwordCommand: options["--password-command"],
        password: syncURL.password ?? ProcessInfo.processInfo.environment[SyncURL.passwordVariable], quiet: quiet,
        caFile: options["--ca-file"], connections: options["--connections"].flatMap { Int($0) })
    let progress = SyncProgressLine(enabled: !quiet)
    let forTheUI = ProgressForTheUI(enabled: quiet)
    let report = try store.sync(with: collection, forceDelete: forceDelete, forgetBase: forgetBase, quiet: quiet) { @Sendable sent, total in
        progress.show(sent: sent, of: total)
        forTheUI.show(sent: sent, of: total)
    }
    progress.finish()
    print("Synced with \(url): \(report)")
    for note in report.notes { FileHandle.standardError.write(Data("hottask: note: \(note)\n".utf8)) }
    if !report.problems.isEmpty {
        // The UI's footer has one line: the first problem and how many more.
        if quiet {
            // The first line is the footer's; the rest is the whole story, for the help overlay.
            let first = report.problems[0] + (report.problems.count > 1 ? " (and \(report.problems.count - 1) more)" : "")
            fail(first + "\n" + report.problems.joined(separator: "; "), .syncFailed)
        }
        for problem in report.problems.dropLast() { FileHandle.standardError.write(Data("hottask: \(problem)\n".utf8)) }
        fail(report.problems[report.problems.count - 1], .syncFailed)
    }
} catch let refusal as SyncRefusal {
    fail(quiet ? refusal.summary + "\n" + refusal.message : "sync with \(url) refused: \(refusal.message)", .syncFailed)
} catch let failure as SyncFailure {
    // The UI (--quiet) shows the reason alone in its footer.
    fail(quiet ? failure.message : "sync with \(url) failed: \(failure.message); every local change is kept", .syncFailed)
} catch let error as StoreError {
    fail(UserFacingError(error))
} catch {
    fail("sync with \(url) failed: \(error)", .syncFailed)
}
