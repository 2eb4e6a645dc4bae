import Foundation
import TestSupport
import Testing

/// Sync against servers and other clients as they really behave, through a proxy that breaks
/// answers on purpose: no sync deletes what it cannot prove was deleted, ordinary server quirks
/// (weak ETags, no sync-collection, one refused write, a member left out) do not stop it, and
/// whatever did not go through is named.
extension SyncEndToEndTests {
    /// A device with `count` tasks "Task 1"… synced through `url`.
    func syncedDevice(_ count: Int, url: String) -> Device {
        let laptop = device("laptop", url: url)
        laptop.run(arguments: (1...count).flatMap { ["--add", "Task \($0)"] })
        #expect(laptop.sync().contains("pushed \(count)"))
        return laptop
    }

    func storeFiles(_ device: Device) -> [FileSnapshot] {
        ["", ".journal", ".sync"].map { FileSnapshot(device.store + $0) }
    }

    /// A server of `kind` behind the fault proxy: the server, the proxy's control file, and
    /// the calendar's URL through the proxy.
    func proxiedServer(_ kind: CalDAVTestServer.Kind) throws -> (CalDAVTestServer, String, String) {
        let server = try CalDAVTestServer(kind)
        let control = folder.path("control.json")
        return (server, control, try server.startProxy(controlPath: control))
    }

    func setFaults(_ control: String, _ json: String) throws {
        try Data(json.utf8).write(to: URL(fileURLWithPath: control))
    }

    @Test(
        "the phone empties the calendar: --sync refuses (exit 5), changes nothing, says how; --force-delete then deletes and lists them",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func calendarEmptiedByPhone(kind: CalDAVTestServer.Kind) throws {
        let server = try CalDAVTestServer(kind)
        let laptop = syncedDevice(20, url: server.url)
        try server.phone(nil, "delete-all")
        let before = storeFiles(laptop)
        let refused = laptop.run("--sync")
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("all 20 tasks synced before were deleted"), "\(refused.stderr)")
        #expect(refused.stderr.contains("hottask --sync --force-delete") && refused.stderr.contains("--resync"))
        #expect(storeFiles(laptop) == before, "nothing changed here")
        #expect(laptop.tasks().count == 20)
        #expect(try server.phoneTasks().isEmpty, "nothing written there")

        let forced = laptop.run("--sync", "--force-delete")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(
            forced.stdout.contains("deleted 20 here") && forced.stdout.contains("; deleted here: ")
                && (forced.stdout.contains("\"Task 1\",") || forced.stdout.hasSuffix("\"Task 1\"\n")), "\(forced.stdout)")
        #expect(laptop.tasks().isEmpty)
    }

    @Test(
        "the server forgets the sync token and lists nothing once: nothing is deleted; the next sync goes on",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func forgottenTokenAndEmptyListing(kind: CalDAVTestServer.Kind) throws {
        let (server, control, proxied) = try proxiedServer(kind)
        let laptop = syncedDevice(20, url: proxied)
        try server.phone(nil, "add", "From phone")
        try setFaults(
            control,
            #"{"rules": [{"method": "REPORT", "body_contains": "sync-collection", "action": "403"}, "#
                + #"{"method": "REPORT", "body_contains": "calendar-query", "action": "empty"}]}"#)
        let before = storeFiles(laptop)
        let refused = laptop.run("--sync")
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("the calendar lists no tasks, but 20 were synced with it before"), "\(refused.stderr)")
        #expect(storeFiles(laptop) == before)
        #expect(requestLog(control).contains { $0.hasSuffix("207-empty") }, "the listing really came back empty")

        #expect(laptop.sync().contains("pulled 1"))
        #expect(laptop.tasks().count == 21)
        #expect(try server.phoneTasks().count == 21)
    }

    @Test(
        "a store that lost its synced tasks never empties the server: the sync state went with it (the next sync brings them back), or it was folded beside it (the sync refuses; --resync brings them back)"
    )
    func storeReplacedKeepsServer() throws {
        let server = try CalDAVTestServer(.radicale)
        let laptop = syncedDevice(5, url: server.url)
        for suffix in ["", ".journal", ".bak"] { try? FileManager.default.removeItem(atPath: laptop.store + suffix) }
        laptop.run("--add", "Fresh start")
        let again = laptop.run("--sync")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Set(laptop.tasks().keys) == Set((1...5).map { "Task \($0)" } + ["Fresh start"]))
        #expect(try server.phoneTasks().count == 6)

        // A long log folded: what the syncs agreed is now in tasks.json.sync, which stays.
        let other = try CalDAVTestServer(.radicale)
        let desktop = device("desktop", url: other.url)
        desktop.run(arguments: (1...5).flatMap { ["--add", "Task \($0)"] })
        #expect(desktop.sync().contains("pushed 5"))
        let folded = runHotTask(["--file", desktop.store, "--config", desktop.config, "--add", "Folds"], environment: ["HOTTASK_LOG_LIMIT": "1"])
        #expect(folded.status == 0 && FileManager.default.fileExists(atPath: desktop.store + ".sync"), "\(folded.stderr)")
        for suffix in ["", ".journal", ".bak"] { try? FileManager.default.removeItem(atPath: desktop.store + suffix) }
        desktop.run("--add", "Fresh start")
        let refused = desktop.run("--sync")
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("5 synced tasks are missing from the store with no record of their deletion"), "\(refused.stderr)")
        #expect(try other.phoneTasks().count == 5)
        let resync = desktop.run("--sync", "--resync")
        #expect(resync.status == 0, "\(resync.stderr)")
        #expect(Set(desktop.tasks().keys) == Set((1...5).map { "Task \($0)" } + ["Fresh start"]))
        #expect(try other.phoneTasks().count == 6)
    }

    @Test(
        "weak ETags (a compressing proxy) are sent back as the server made them: an edit goes through, no 412 loop",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func weakETags(kind: CalDAVTestServer.Kind) throws {
        let (server, control, proxied) = try proxiedServer(kind)
        try setFaults(control, #"{"rules": [{"method": "*", "action": "weaken", "times": 100000}]}"#)
        let laptop = device("laptop", url: proxied)
        laptop.run("--add", "Buy milk")
        laptop.sync()
        try server.phone(nil, "edit", "Buy milk", "--categories", "shop")
        laptop.sync()
        let milk = try #require(laptop.number(of: "Buy milk"))
        laptop.run("--done", milk)
        let result = laptop.run("--sync")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try server.phoneTasks()["Buy milk"]?["completed"] as? Bool == true)
        #expect(!requestLog(control).contains { $0.hasPrefix("PUT") && $0.contains(" 412") })
        #expect(requestLog(control).contains { $0.hasSuffix("-weaken") })
    }

    @Test("a server without sync-collection (501) is synced by ETags: tasks travel both ways, a phone's delete too")
    func noSyncCollection() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        try setFaults(control, #"{"rules": [{"method": "REPORT", "body_contains": "sync-collection", "action": "501", "times": 100000}]}"#)
        let laptop = syncedDevice(3, url: proxied)
        try server.phone(nil, "add", "From phone")
        try server.phone(nil, "delete", "Task 2")
        let result = laptop.run("--sync")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("deleted here: \"Task 2\""), "\(result.stdout)")
        #expect(Set(laptop.tasks().keys) == ["Task 1", "Task 3", "From phone"])
        #expect(requestLog(control).contains { $0.hasSuffix("injected-501") })
    }

    @Test("one refused write leaves the others going: exit 5 naming it; the next sync writes it")
    func refusedWrite() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        let laptop = device("laptop", url: proxied)
        laptop.run("--add", "One", "--add", "Two", "--add", "Three")
        try setFaults(control, #"{"rules": [{"method": "PUT", "action": "403"}]}"#)
        let first = laptop.run("--sync")
        #expect(first.status == 5)
        #expect(first.stdout.contains("pushed 2"), "\(first.stdout)")
        #expect(first.stderr.contains("the server refused \"") && first.stderr.contains("(403 "), "\(first.stderr)")
        #expect(try server.phoneTasks().count == 2)
        #expect(laptop.sync().contains("pushed 1"))
        #expect(Set(try server.phoneTasks().keys) == ["One", "Two", "Three"])
    }

    @Test("a task the server lists but leaves out of its answer is named (exit 5) and fetched next time")
    func memberLeftOut() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        try server.phone(nil, "add", "First")
        try server.phone(nil, "add", "Second")
        let laptop = device("laptop", url: proxied)
        try setFaults(control, #"{"rules": [{"method": "REPORT", "body_contains": "calendar-multiget", "action": "drop-member"}]}"#)
        let first = laptop.run("--sync")
        #expect(first.status == 5)
        #expect(first.stderr.contains("the server listed ") && first.stderr.contains(".ics but did not send it"), "\(first.stderr)")
        #expect(laptop.tasks().count == 1)
        #expect(laptop.sync().contains("pulled 1"))
        #expect(Set(laptop.tasks().keys) == ["First", "Second"])
    }

    @Test("the UI says a sync was refused, in a line that fits, and changes nothing")
    func uiShowsRefusal() throws {
        let server = try CalDAVTestServer(.radicale)
        let laptop = syncedDevice(4, url: server.url)
        try server.phone(nil, "delete-all")
        let session = try TmuxSession(storePath: laptop.store, arguments: ["--config", laptop.config])
        session.waitForText("Sync failed: refused 4 deletions; see hottask --sync")
        session.waitForText("Task 4")
        // The help overlay has the whole reason, and the way out.
        session.press("Tab")
        session.type("?")
        session.waitForText("all 4 tasks synced before were")
        session.waitForText("--force-delete")
        session.press("Escape")
        session.expectScreenSnapshot()
        session.press("C-c")
        session.waitForText("exited with 0")
        #expect(laptop.tasks().count == 4)
    }
}

/// What a sync writes back onto a phone's task, seen by the phone.
extension SyncEndToEndTests {
    static func phoneCalendar(_ vtodoLines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "DTSTAMP:20261120T100000Z"] + vtodoLines
            + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\\r\\n") + "\\r\\n"
    }

    @Test("a phone's task completed and reopened here keeps its line break, LANGUAGE and IN-PROCESS at 40 %; nothing is made up")
    func writeBackKeepsThePhonesTask() throws {
        let server = try CalDAVTestServer(.radicale)
        try server.phone(
            nil, "add-raw",
            Self.phoneCalendar(["UID:wb1", "SUMMARY;LANGUAGE=de:Milch\\nund Brot", "STATUS:IN-PROCESS", "PERCENT-COMPLETE:40"]))
        let laptop = device("laptop", url: server.url)
        laptop.sync()
        let number = try #require(laptop.number(of: "Milch und Brot"))
        laptop.run("--done", number)
        laptop.sync()
        var raw = try #require(try server.phoneTasks()["Milch\nund Brot"]?["raw"] as? String)
        #expect(raw.contains("SUMMARY;LANGUAGE=de:Milch\\nund Brot"), "\(raw)")
        #expect(raw.contains("STATUS:COMPLETED") && raw.contains("PERCENT-COMPLETE:100"))
        #expect(!raw.contains("CREATED") && !raw.contains("X-APPLE-SORT-ORDER"), "\(raw)")
        laptop.run("--undone", number)
        laptop.sync()
        raw = try #require(try server.phoneTasks()["Milch\nund Brot"]?["raw"] as? String)
        #expect(raw.contains("STATUS:IN-PROCESS") && raw.contains("PERCENT-COMPLETE:40"), "\(raw)")
    }

    @Test(
        "a task whose href holds & and a space (SOGo, hand-made files) is fetched and written back",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func hrefWithAmpersand(kind: CalDAVTestServer.Kind) throws {
        let server = try CalDAVTestServer(kind)
        try server.phone(nil, "add-raw", Self.phoneCalendar(["UID:a&b c@phone", "SUMMARY:Odd href"]))
        let laptop = device("laptop", url: server.url)
        #expect(laptop.sync().contains("pulled 1"))
        laptop.run("--done", try #require(laptop.number(of: "Odd href")))
        #expect(laptop.sync().contains("pushed 1"))
        #expect(try server.phoneTasks()["Odd href"]?["completed"] as? Bool == true)
    }

    @Test("completing a weekly task here completes this week's: the phone sees next week's, open; a rule HotTask cannot step is refused")
    func repeatingTask() throws {
        let server = try CalDAVTestServer(.radicale)
        try server.phone(
            nil, "add-raw",
            Self.phoneCalendar([
                "UID:rr1", "SUMMARY:Water plants", "DTSTART;VALUE=DATE:20261126", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=WEEKLY;BYDAY=TH",
            ]))
        try server.phone(
            nil, "add-raw", Self.phoneCalendar(["UID:rr2", "SUMMARY:Pay rent", "DUE;VALUE=DATE:20261201", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1"]))
        let laptop = device("laptop", url: server.url)
        laptop.sync()
        laptop.run("--done", try #require(laptop.number(of: "Water plants")))
        // Issue 52 item 5: refused here, with one line, and nothing changed (it said "Completed",
        // and every later sync exited 5 until --undone).
        let before = storeFiles(laptop)
        let refused = laptop.run("--done", try #require(laptop.number(of: "Pay rent")))
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(
            refused.stderr
                == "hottask: --done: 'Pay rent' repeats in your calendar by a rule HotTask cannot step (BYMONTHDAY=1); complete it in your calendar app, or give it a rule here with --repeat. Nothing was changed\n"
        )
        #expect(storeFiles(laptop) == before, "nothing written")
        let result = laptop.run("--sync")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(laptop.tasks()["Pay rent"]?.completed == false)
        let phone = try server.phoneTasks()
        #expect(phone["Water plants"]?["due"] as? String == "20261204")
        #expect(phone["Water plants"]?["completed"] as? Bool == false)
        #expect(phone["Pay rent"]?["completed"] as? Bool == false, "the series is not completed")
        #expect(laptop.tasks()["Water plants"]?.completed == false, "the next occurrence is open here too")
    }

    /// The `"due"` of each task in `--list --json`, by caption.
    func dues(_ device: Device) throws -> [String: String] {
        let document = try JSONSerialization.jsonObject(with: Data(device.run("--list", "--json").stdout.utf8)) as? [String: Any]
        let listed = document?["tasks"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: listed.map { ($0["caption"] as? String ?? "", $0["due"] as? String ?? "") })
    }

    @Test("an occurrence the phone moved and renamed (RECURRENCE-ID) shows here as the phone left it; done here, the series goes on")
    func occurrenceMovedOnThePhone() throws {
        let server = try CalDAVTestServer(.radicale)
        try server.phone(
            nil, "add-raw",
            Self.phoneCalendar([
                "UID:ov1", "SUMMARY:Water plants", "DTSTART;VALUE=DATE:20261129", "DUE;VALUE=DATE:20261129", "RRULE:FREQ=WEEKLY",
                "END:VTODO", "BEGIN:VTODO", "UID:ov1", "DTSTAMP:20261121T100000Z", "RECURRENCE-ID;VALUE=DATE:20261129",
                "SUMMARY:Water plants (balcony only)", "DUE;VALUE=DATE:20261128",
            ]))
        let laptop = device("laptop", url: server.url)
        laptop.sync()
        #expect(try dues(laptop) == ["Water plants (balcony only)": "2026-11-28"])
        laptop.run("--done", try #require(laptop.number(of: "Water plants (balcony only)")))
        #expect(laptop.sync().contains("pushed 1"))
        let phone = try server.phoneTasks()
        #expect(phone.keys.sorted() == ["Water plants"])
        #expect(phone["Water plants"]?["due"] as? String == "20261206")
        #expect(phone["Water plants"]?["completed"] as? Bool == false)
        #expect(phone["Water plants"]?["overrides"] as? Int == 0, "the moved occurrence is done and gone")
        #expect(try dues(laptop) == ["Water plants": "2026-12-06"], "the next occurrence here too, with the series' own text")
    }
}

/// The sync URL must be a calendar that takes tasks.
extension SyncEndToEndTests {
    @Test("a principal or an events-only calendar given as the sync url: exit 5 naming what it is, nothing written")
    func urlMustBeATaskCalendar() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        let principal = proxied.replacingOccurrences(of: "/u/hot/", with: "/u/")
        let events = proxied.replacingOccurrences(of: "/u/hot/", with: "/u/events/")
        try server.phone(server.url.replacingOccurrences(of: "/u/hot/", with: "/u/events/"), "make-calendar", "--components", "VEVENT")
        for (url, what) in [(principal, "is an account (a principal), not a calendar"), (events, "is a calendar that takes only VEVENT, not tasks")] {
            let laptop = device("laptop", url: url)
            laptop.run("--add", "Pay rent")
            let result = laptop.run("--sync")
            #expect(result.status == 5)
            #expect(result.stderr.contains(what) && result.stderr.contains("hottask --sync-setup"), "\(result.stderr)")
        }
        #expect(!requestLog(control).contains { $0.hasPrefix("PUT") || $0.hasPrefix("MKCALENDAR") }, "nothing written")
    }
}

/// Secrets and processes: a password in the URL is in no message and no argv; a password
/// command has a time limit; a sync never outlives the hottask that started it.
extension SyncEndToEndTests {
    func config(_ name: String, url: String, passwordCommand: String?) -> String {
        folder.write(
            "[sync]\nurl = \"\(url)\"\n" + (passwordCommand.map { "password_command = \"\($0)\"\n" } ?? ""), to: "\(name).toml")
    }

    /// Processes whose command line contains `text`, but not this test's own.
    func processes(containing text: String) -> [String] {
        runProcess(["pgrep", "-af", "--", text]).stdout.split(separator: "\n").map(String.init).filter { !$0.contains("pgrep") }
    }

    @Test("a password written in the url logs in, and is in no message and no process's argv")
    func passwordInURL() throws {
        let server = try CalDAVTestServer(.radicale, password: "s3cret-pw")
        let control = folder.path("control.json")
        let proxied = try server.startProxy(controlPath: control)
        let argv = folder.path("argv.txt")
        // While the sync talks to the server, every process's argv is copied.
        try setFaults(
            control,
            #"{"rules": [{"method": "PROPFIND", "action": "pass", "before": ["sh", "-c", "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done > \#(argv) 2>/dev/null"]}]}"#
        )
        let withPassword = proxied.replacingOccurrences(of: "http://", with: "http://u:s3cret-pw@")
        let good = runHotTask([
            "--file", folder.path("a.json"), "--config", config("good", url: withPassword, passwordCommand: nil), "--add", "Private", "--sync",
        ])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(!(good.stdout + good.stderr).contains("s3cret"))
        #expect(try server.phoneTasks()["Private"] != nil)
        let seen = try #require(fileText(argv))
        #expect(seen.contains("hottask-sync") && !seen.contains("s3cret"), "argv seen during the sync:\n\(seen)")

        let wrong = proxied.replacingOccurrences(of: "http://", with: "http://u:not-it-pw@")
        let refused = runHotTask(["--file", folder.path("b.json"), "--config", config("bad", url: wrong, passwordCommand: nil), "--sync"])
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("login refused") || refused.stderr.contains("(401)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not-it-pw"))
    }

    @Test("a password_command that hangs is stopped at its time limit with what it started; an empty password is named")
    func passwordCommandLimits() throws {
        let server = try CalDAVTestServer(.radicale, password: "p")
        let hanging = config("hang", url: server.url, passwordCommand: "sleep 611.5")
        let started = Date()
        let result = runHotTask(["--file", folder.path("a.json"), "--config", hanging, "--sync"], environment: ["HOTTASK_PASSWORD_TIMEOUT": "1"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("did not finish within 1 s"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(processes(containing: "sleep 611.5").isEmpty, "the command's children are stopped too")

        let empty = runHotTask([
            "--file", folder.path("a.json"), "--config", config("empty", url: server.url, passwordCommand: "printf ''"), "--sync",
        ])
        #expect(empty.status == 5)
        #expect(empty.stderr.contains("printed an empty password"), "\(empty.stderr)")
    }

    @Test("killing hottask ends its sync and the sync's password command; the caller's pipe closes")
    func syncDiesWithItsParent() throws {
        let server = try CalDAVTestServer(.radicale, password: "p")
        let slow = config("slow", url: server.url, passwordCommand: "sleep 612.5")
        let hottask = try ChildProcess(
            [HotTaskBinary.url.path, "--file", folder.path("a.json"), "--config", slow, "--sync"], stdoutPath: folder.path("out"),
            stderrPath: folder.path("err"))
        waitUntil("the sync runs its password command") { !processes(containing: "sleep 612.5").isEmpty }
        hottask.kill(SIGKILL)
        _ = hottask.wait(timeout: 5)
        waitUntil("hottask-sync and its password command are gone") {
            processes(containing: "sleep 612.5").isEmpty && processes(containing: folder.path("a.json")).isEmpty
        }
    }
}

/// The config file as it is found: settings HotTask does not know are skipped, and a
/// password_command others could change is refused.
extension SyncEndToEndTests {
    @Test("an unknown setting is warned about and skipped: [sync] in the same file still syncs")
    func unknownSettingSkipped() throws {
        let server = try CalDAVTestServer(.radicale)
        let config = folder.write("colour = \"red\"\n[sync]\nurl = \"\(server.url)\"\nca_file = \"/etc/x.pem\"\n", to: "c.toml")
        let result = runHotTask(["--file", folder.path("a.json"), "--config", config, "--add", "Kept", "--sync"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("line 1: unknown setting \"colour\"") && result.stderr.contains("; skipped"), "\(result.stderr)")
        #expect(try server.phoneTasks()["Kept"] != nil)
    }

    @Test("a config others can write that holds a password_command is refused naming the file, owner and mode; nothing runs")
    func writableConfigRefused() throws {
        let server = try CalDAVTestServer(.radicale, password: "p")
        let marker = folder.path("ran")
        let config = folder.write(
            "[sync]\nurl = \"\(server.url)\"\nusername = \"u\"\npassword_command = \"touch \(marker); echo p\"\n", to: "c.toml")
        chmod(config, 0o666)
        let result = runHotTask(["--file", folder.path("a.json"), "--config", config, "--sync"])
        #expect(result.status == 5)
        #expect(
            result.stderr.contains("\(config): holds a password_command but can be changed by others (owner root, mode 666); chmod go-w")
                || result.stderr.contains("mode 666"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the command never ran")
        chmod(config, 0o600)
        #expect(runHotTask(["--file", folder.path("a.json"), "--config", config, "--sync"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: marker))
    }
}

/// Failures say what happened in plain words.
extension SyncEndToEndTests {
    @Test("a server that accepts and never answers: exit 5 within the time limit, saying it timed out and naming the host")
    func silentServerTimesOut() throws {
        let (server, control, proxied) = try proxiedServer(.radicale)
        // The server (and the proxy it owns) stops when the value goes: keep it to the end.
        defer { withExtendedLifetime(server) {} }
        try setFaults(control, #"{"rules": [{"method": "*", "action": "hang", "times": 100}]}"#)
        let laptop = device("laptop", url: proxied)
        laptop.run("--add", "Kept")
        let started = Date()
        let result = runHotTask(
            ["--file", laptop.store, "--config", laptop.config, "--sync"], environment: ["HOTTASK_SYNC_TIMEOUT": "2"], timeout: 30)
        #expect(result.status == 5)
        #expect(Date().timeIntervalSince(started) < 8, "one limit for the request, not one per try")
        let host = try #require(URL(string: proxied).flatMap { url in url.port.map { "127.0.0.1:\($0)" } })
        #expect(result.stderr.contains("\(host) timed out: no answer within 2 s"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSURLErrorDomain") && !result.stderr.contains("-1001"))
        #expect(laptop.tasks().keys.contains("Kept"))
    }
}
