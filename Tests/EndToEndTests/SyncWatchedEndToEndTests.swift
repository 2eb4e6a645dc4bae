import Foundation
import TestSupport
import Testing

/// A sync as a person watches it: the UI while a sync runs and after one failed, a sync's merge
/// as one step to undo, and how far a long sync is (the rest of `SyncEndToEndTests` is in the
/// files named for what they try).

/// The UI while a sync runs and after one failed.
extension SyncEndToEndTests {
    @Test("the UI shows syncing… while a sync runs, the whole reason of a failure in the help overlay, and tries again by itself")
    func uiSyncingReasonAndRetry() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        // Twice: a request that timed out is tried once more before the sync gives up.
        try setFaults(control, #"{"rules": [{"method": "PROPFIND", "action": "hang", "times": 2}]}"#)
        try server.phone(nil, "add", "From phone")
        let config = device("ui", url: proxied).config
        let session = try TmuxSession(
            environment: ["HOTTASK_SYNC_TIMEOUT": "3", "HOTTASK_SYNC_RETRY": "2"], arguments: ["--config", config])
        session.waitForText("syncing…")
        session.waitForText("sync failed ")
        session.press("Tab")
        session.type("?")
        let host = try #require(URL(string: proxied).flatMap { url in url.port.map { "127.0.0.1:\($0)" } })
        session.waitForText("Sync failed: cannot reach")
        let overlay = session.waitForText("timed out: no answer within 3 s")
        #expect(overlay.contains(host), "the overlay names the host")
        session.press("Escape")
        // Tried again after 2 s, without a change here: the phone's task arrives.
        session.waitForText("From phone")
        session.waitForText("synced ")
        session.expectScreenSnapshot()
        session.press("C-c")
        session.waitForText("exited with 0")
    }
}

/// A sync's merge is one step to undo.
extension SyncEndToEndTests {
    @Test("u in the UI takes back what a sync brought, and the next sync sends the undo; --undo does the same on the command line")
    func undoASync() throws {
        let server = try CalDAVTestServer(.radicale)
        let config = device("ui", url: server.url).config
        let session = try TmuxSession(seededCaptions: ["Mine"], arguments: ["--config", config])
        session.waitForText("synced ")
        try server.phone(nil, "add", "From phone")
        session.type("Trigger")
        session.press("Enter")
        session.waitForText("From phone")
        session.press("Tab")
        session.type("u")
        session.waitForText("Undone")
        try waitUntil("the undo reaches the phone") { try server.phoneTasks()["From phone"] == nil }
        #expect(try server.phoneTasks()["Mine"] != nil && server.phoneTasks()["Trigger"] != nil)
        session.expectScreenSnapshot()
        session.press("C-c")
        session.waitForText("exited with 0")

        try server.phone(nil, "add", "Second phone task")
        let cli = Device(store: session.storePath, config: config)
        #expect(cli.sync().contains("pulled 1"))
        #expect(cli.run("--undo").stdout.contains("Undone: sync with"))
        #expect(cli.tasks()["Second phone task"] == nil)
        #expect(cli.sync().contains("deleted on the server: \"Second phone task\""))
    }
}

/// A long sync on a terminal says how far it is; a busy server is waited for.
extension SyncEndToEndTests {
    @Test("--sync on a terminal shows sending N/M while a long upload runs, then the summary alone; a 429 is waited out")
    func progressAndBusyServer() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        // Each PUT takes a little while (as across the internet), and one is refused as too many.
        try setFaults(
            control,
            #"{"rules": [{"method": "PUT", "action": "429", "times": 1}, {"method": "PUT", "action": "pass", "times": 1000, "before": ["sleep", "0.1"]}]}"#
        )
        let laptop = device("laptop", url: proxied)
        laptop.run(arguments: (1...40).flatMap { ["--add", "Task \($0)"] })
        let capture = runProcess(
            [
                "python3", CalDAVTestServer.scripts + "/pty_capture.py", "--timeout", "60", "--", HotTaskBinary.url.path, "--file", laptop.store,
                "--config", laptop.config, "--sync",
            ], timeout: 90)
        #expect(capture.status == 0, "\(capture.stdout)")
        #expect(capture.stdout.contains("hottask: sending ") && capture.stdout.contains("/40 tasks"), "\(capture.stdout)")
        #expect(capture.stdout.contains("pushed 40"), "\(capture.stdout)")
        #expect(requestLog(control).contains { $0.hasSuffix("injected-429") })
        #expect(try server.phoneTasks().count == 40)
    }
}

extension SyncEndToEndTests {
    @Test("the UI's footer counts a long upload: syncing N/M, then synced")
    func uiCountsALongUpload() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        try setFaults(control, #"{"rules": [{"method": "PUT", "action": "pass", "times": 1000, "before": ["sleep", "0.2"]}]}"#)
        let config = device("ui", url: proxied).config
        let session = try TmuxSession(seededTasks: 40, width: 100, arguments: ["--config", config])
        session.waitForText("/40")
        session.waitForText("synced ")
        #expect(try server.phoneTasks().count == 40)
        session.expectScreenSnapshot()
        session.press("C-c")
        session.waitForText("exited with 0")
    }
}
