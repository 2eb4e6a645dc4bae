import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 38's cases with the real binaries and Radicale: a sync stopped after 40 uploads in each
/// of three ways (SIGKILL of hottask-sync, SIGKILL of `hottask --sync`, Ctrl-C), with and
/// without an earlier sync; then a delete here, edits here and on the phone. Nothing deleted
/// comes back and no acknowledged edit is lost.
extension SyncEndToEndTests {
    enum Cut: String, CaseIterable, Sendable {
        case killHelper, killHotTask, controlC
    }

    /// Runs `--sync` on `device` and stops it, the `cut` way, while the 41st upload is on its way
    /// (after the proxy has let 40 through). Returns the run's outcome, once no hottask-sync of
    /// the store is left.
    func cutSync(_ device: Device, control: String, cut: Cut) throws -> (status: Int32, stdout: String, stderr: String) {
        let pidFile = folder.path("sync.pid")
        let hook: [String]
        var prefix: [String] = []
        switch cut {
        case .killHelper:
            hook = ["pkill", "-KILL", "-f", "hottask-sync --store \(device.store)"]
        case .killHotTask:
            prefix = ["sh", "-c", "echo $$ > '\(pidFile)'; exec \"$@\"", "sh"]
            hook = ["sh", "-c", "kill -KILL $(cat '\(pidFile)')"]
        case .controlC:
            // A session of its own, as a terminal's foreground job: Ctrl-C signals the whole group.
            // SIGINT as a terminal leaves it (the test runner's children may inherit it ignored).
            prefix = ["setsid", "-w", "env", "--default-signal=INT", "sh", "-c", "echo $$ > '\(pidFile)'; exec \"$@\"", "sh"]
            hook = ["sh", "-c", "kill -INT -$(cat '\(pidFile)')"]
        }
        let rule: [String: Any] = ["method": "PUT", "skip": 40, "times": 1, "action": "pass", "before": hook]
        try Data(JSONSerialization.data(withJSONObject: ["rules": [rule]])).write(to: URL(fileURLWithPath: control))
        let run = runHotTask(["--file", device.store, "--config", device.config, "--sync"], prefix: prefix, timeout: 120)
        try setFaults(control, #"{"rules": []}"#)
        waitUntil("no hottask-sync of the store is left", timeout: 10) {
            runProcess(["pgrep", "-f", "hottask-sync --store \(device.store)"]).status != 0
        }
        return run
    }

    /// Caption → id, from `--list --json`.
    func ids(_ device: Device) throws -> [String: String] {
        let json = device.run("--list", "--json").stdout
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let tasks = try #require(document["tasks"] as? [[String: Any]])
        return Dictionary(tasks.compactMap { task in (task["caption"] as? String).flatMap { c in (task["id"] as? String).map { (c, $0) } } }) {
            a, _ in a
        }
    }

    @Test(
        "a sync stopped after 40 uploads (SIGKILL of hottask-sync or of hottask, Ctrl-C; with and without an earlier sync), then deletes here: nothing comes back",
        arguments: Cut.allCases, [false, true])
    func cutSyncThenDelete(cut: Cut, earlierSync: Bool) throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        let laptop = device("laptop", url: proxied)
        if earlierSync {
            laptop.run("--add", "Synced before")
            laptop.sync()
        }
        #expect(laptop.run(arguments: (1...90).flatMap { ["--add", "Task \($0)"] }).status == 0)
        let stopped = try cutSync(laptop, control: control, cut: cut)
        #expect(stopped.status != 0)
        if cut == .killHelper {
            #expect(
                stopped.stderr
                    == "hottask: cannot sync: hottask-sync was stopped by SIGKILL (signal 9) before it finished; what it had done is kept, run hottask --sync again\n"
            )
        }
        let uploaded = try server.phoneTasks().keys.filter { $0.hasPrefix("Task ") }
        #expect(uploaded.count >= 40 && uploaded.count < 90, "\(uploaded.count) uploaded")

        // Every task that went up (the last one's answer lost) is deleted here, and one that did not.
        let byCaption = try ids(laptop)
        let notUploaded = try #require((1...90).map { "Task \($0)" }.first { !uploaded.contains($0) })
        let deleted = uploaded + [notUploaded]
        let deletion = laptop.run(arguments: deleted.flatMap { ["--delete", byCaption[$0] ?? "?"] })
        #expect(deletion.status == 0, "\(deletion.stderr)")

        let next = laptop.run("--sync")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.contains("pulled 0,"), "\(next.stdout)")
        let here = Set(laptop.tasks().keys)
        #expect(here.isDisjoint(with: deleted), "deleted tasks came back: \(here.intersection(deleted).sorted())")
        #expect(Set(try server.phoneTasks().keys) == here, "the server and the store disagree")
        #expect(here.count == 90 - deleted.count + (earlierSync ? 1 : 0))
    }

    @Test(
        "after a sync stopped short: an edit here and the phone's completion both hold; edited here, completed in the phone's old copy, then deleted here: deleted on both sides"
    )
    func cutSyncThenEditsHereAndOnThePhone() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        let laptop = device("laptop", url: proxied)
        #expect(laptop.run(arguments: (1...50).flatMap { ["--add", "Task \($0)"] }).status == 0)
        _ = try cutSync(laptop, control: control, cut: .killHelper)
        let uploaded = try server.phoneTasks().keys.filter { $0.hasPrefix("Task ") }.sorted()
        let (edited, deleted) = (uploaded[0], uploaded[1])
        var byCaption = try ids(laptop)

        #expect(laptop.run("--edit", byCaption[edited] ?? "?", edited + " (edited)").status == 0)
        try server.phone(nil, "edit", edited, "--status", "COMPLETED")
        try server.phone(nil, "edit", deleted, "--status", "COMPLETED")
        #expect(laptop.run("--edit", byCaption[deleted] ?? "?", "Renamed").status == 0)
        byCaption = try ids(laptop)
        #expect(laptop.run("--delete", byCaption["Renamed"] ?? "?").status == 0)

        let next = laptop.run("--sync")
        #expect(next.status == 0, "\(next.stderr)")
        let here = laptop.tasks()
        #expect(here[edited + " (edited)"]?.completed == true, "the edit here or the phone's completion was lost")
        #expect(here[deleted] == nil && here["Renamed"] == nil, "the deleted task came back")
        let there = try server.phoneTasks()
        #expect(there[edited + " (edited)"]?["completed"] as? Bool == true)
        #expect(there[deleted] == nil && there["Renamed"] == nil)
        #expect(Set(there.keys) == Set(here.keys))
    }

    @Test("u in the UI takes back the UI's own delete, never the sync another terminal ran meanwhile")
    func undoInTheUIIsTheUIsOwn() throws {
        let server = try CalDAVTestServer(.radicale)
        let laptop = device("laptop", url: server.url)
        laptop.run("--add", "Task 1", "--add", "Task 2")
        laptop.sync()
        let session = try TmuxSession(storePath: laptop.store)
        session.waitForText("Task 2")
        session.press("Tab")
        session.waitForText("› [ ] Task 1")
        session.press("d")
        session.waitForText("Deleted “Task 1” — u to undo")
        try server.phone(nil, "add", "From phone")
        #expect(laptop.sync().contains("pulled 1,"))
        session.waitForText("From phone")
        session.press("u")
        session.waitForText("Undone: Deleted “Task 1”")
        session.waitForStore("Task 1 back, the phone's task kept") { _ in
            let captions = (try? TaskStore(path: laptop.store).load().all.map(\.caption)) ?? []
            return Set(captions) == ["Task 1", "Task 2", "From phone"]
        }
        laptop.sync()
        #expect(Set(try server.phoneTasks().keys) == ["Task 1", "Task 2", "From phone"])
        session.expectScreenSnapshot()
    }
}

extension SyncEndToEndTests {
    @Test("under libfaketime, still or jumped back two hours, --sync returns when hottask-sync ends", arguments: ["+0 days", "-2h"])
    func syncUnderAFakeClockReturns(offset: String) throws {
        let server = try CalDAVTestServer(.radicale)
        let laptop = device("laptop", url: server.url)
        laptop.run("--add", "Water plants")
        let started = Date()
        let synced = runHotTask(
            ["--file", laptop.store, "--config", laptop.config, "--sync"], prefix: ["faketime", "-f", offset], timeout: 30)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stdout == "Synced with \(server.url): pulled 0, pushed 1, merged 0, deleted 0 here and 0 on the server\n")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(runProcess(["pgrep", "-f", "hottask-sync --store \(laptop.store)"]).status != 0, "no helper is left")
    }
}
