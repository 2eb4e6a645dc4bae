import Foundation
import HotTaskCore

// hottask-sync: one sync of a store with a CalDAV calendar. `hottask --sync` and the UI run it
// as a separate process so that the networking libraries (libcurl and the ~30 libraries it
// loads, about 10 ms) are loaded only by a sync, never by every `hottask` command.
//
// Usage: hottask-sync --store PATH --url URL [--username NAME] [--password-command CMD] [--quiet]
// Exit: 0 synced (the report on stdout), 5 the server failed, 2/3 the store could not be read
// or written, 64 bad usage. Messages go to stderr, one line.

var options: [String: String] = [:]
/// Run by the UI: messages are the reason alone, for its footer.
var quiet = false

@MainActor func fail(_ message: String, _ code: Int32) -> Never {
    FileHandle.standardError.write(Data(((quiet ? "" : "hottask: ") + message + "\n").utf8))
    exit(code)
}
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    if name == "--quiet" {
        quiet = true
        continue
    }
    guard ["--store", "--url", "--username", "--password-command"].contains(name), let value = arguments.popFirst() else {
        fail("hottask-sync: unknown or incomplete option \(name) (it is run by hottask --sync)", 64)
    }
    options[name] = value
}
guard let storePath = options["--store"], let url = options["--url"] else {
    fail("hottask-sync needs --store and --url (it is run by hottask --sync)", 64)
}

signal(SIGXFSZ, SIG_IGN)
let store = TaskStore(path: storePath)
do {
    let collection = try SyncSetup.collection(
        url: url, username: options["--username"], passwordCommand: options["--password-command"], quiet: quiet)
    let report = try SyncEngine(store: store, collection: collection).run()
    print("Synced with \(url): \(report)")
} catch let failure as SyncFailure {
    // The UI (--quiet) shows the reason alone in its footer.
    fail(quiet ? failure.message : "sync with \(url) failed: \(failure.message); every local change is kept", 5)
} catch let error as StoreError {
    switch error.problem {
    case .unreadable, .invalid, .missing, .damagedLog: fail(error.description, 2)
    case .unwritable, .locked: fail(error.description, 3)
    }
} catch {
    fail("sync with \(url) failed: \(error)", 5)
}
