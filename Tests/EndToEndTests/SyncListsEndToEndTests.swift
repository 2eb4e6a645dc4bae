import Foundation
import TestSupport
import Testing

/// Each list a calendar, against real servers with Python's caldav as the phone: set-up takes
/// every task calendar (never an event calendar), a phone's move between calendars arrives as a
/// move of the same task, a move here reaches the server as the same UID in the other calendar,
/// and a list made here becomes a calendar.
@Suite("Sync: each list is a calendar, end to end", .serialized)
struct SyncListsEndToEndTests {
    let folder = TemporaryFolder()
    static let login = ["--username", "u", "--password-command", "printf 'p\\n'"]

    /// The server with task calendars `tasks` (by name, as their display names and paths) and
    /// one calendar of events.
    func server(_ kind: CalDAVTestServer.Kind, tasks: [String]) throws -> CalDAVTestServer {
        let server = try CalDAVTestServer(kind, calendar: false)
        for name in tasks { try server.phone(calendarURL(server, name), "make-calendar") }
        try server.phone(calendarURL(server, "Events"), "make-calendar", "--components", "VEVENT")
        return server
    }

    func calendarURL(_ server: CalDAVTestServer, _ name: String) -> String {
        switch server.kind {
        case .xandikos: server.root + "user/calendars/\(name)/"
        default: server.root + "u/\(name)/"
        }
    }

    func hottask(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(
            ["--file", folder.path("tasks.json"), "--config", folder.path("config.toml")] + arguments, timeout: 90,
            sourceLocation: sourceLocation)
    }

    func sync(sourceLocation: SourceLocation = #_sourceLocation) {
        let run = hottask(["--sync"], sourceLocation: sourceLocation)
        #expect(run.status == 0, "--sync failed: \(run.stderr)", sourceLocation: sourceLocation)
    }

    /// Caption → (list, id), from `--list --json`.
    func tasks() throws -> [String: (list: String, id: String)] {
        let json = try JSONSerialization.jsonObject(with: Data(hottask(["--list", "--json"]).stdout.utf8)) as? [String: Any]
        let tasks = json?["tasks"] as? [[String: Any]] ?? []
        return Dictionary(
            tasks.map { ($0["caption"] as? String ?? "", ($0["list"] as? String ?? "", $0["id"] as? String ?? "")) }, uniquingKeysWith: { a, _ in a })
    }

    /// Summary → UID of the phone's tasks in calendar `name`.
    func phoneTasks(_ server: CalDAVTestServer, _ name: String) throws -> [String: String] {
        let list = try server.phone(calendarURL(server, name), "list") as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["summary"] as? String ?? "", $0["uid"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    @Test(
        "set-up against two task calendars and one of events syncs both task calendars as lists, with no --calendar and exit 0",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func setUpTakesEveryTaskCalendar(kind: CalDAVTestServer.Kind) throws {
        let server = try server(kind, tasks: ["Work", "Home"])
        try server.phone(calendarURL(server, "Work"), "add", "Report")
        try server.phone(calendarURL(server, "Home"), "add", "Plants")
        let setup = hottask(["--sync-setup", server.root] + Self.login)
        #expect(setup.status == 0, "\(setup.stderr)")
        let config = fileText(folder.path("config.toml")) ?? ""
        #expect(config.contains("calendars = [") && config.contains("Work/") && config.contains("Home/"), "\(config)")
        // Xandikos takes every component in a calendar whatever it was made with: a task calendar.
        if kind == .radicale {
            #expect(!setup.stdout.contains("Events"), "an event calendar is left out: \(setup.stdout)")
            #expect(!config.contains("Events"), "\(config)")
        }
        sync()
        let here = try tasks()
        #expect(here["Report"]?.list == "Work" && here["Plants"]?.list == "Home", "\(here)")
        #expect(hottask(["--lists"]).stdout.contains("Work") && hottask(["--lists"]).stdout.contains("Home"))
    }

    @Test(
        "a phone's move Work → Home arrives as a move; a move here reaches the server as the same UID in the other calendar; a list made here becomes a calendar",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func movesBothWays(kind: CalDAVTestServer.Kind) throws {
        let server = try server(kind, tasks: ["Work", "Home", "Errands"])
        try server.phone(calendarURL(server, "Work"), "add", "Report", "--description", "the note", "--categories", "q4")
        try server.phone(calendarURL(server, "Home"), "add", "Plants")
        #expect(hottask(["--sync-setup", server.root] + Self.login).status == 0)
        sync()
        let before = try #require(try tasks()["Report"])
        #expect(before.list == "Work")

        // The phone moves it: a PUT into Home, the same UID, then a DELETE from Work.
        try server.phone(calendarURL(server, "Work"), "move", "Report", calendarURL(server, "Home"))
        sync()
        let after = try tasks()
        #expect(after["Report"]?.list == "Home" && after["Report"]?.id == before.id, "\(after)")
        #expect(after.count == 2, "once, not twice: \(after)")
        let exported = hottask(["--list", "--json", "--in", "Home"]).stdout
        #expect(exported.contains("\"note\": \"the note\"") && exported.contains("\"tags\": [\"q4\"]"), "its note and tags went with it: \(exported)")

        // A move here: the same UID in Errands, gone from Home.
        let uid = try #require(try phoneTasks(server, "Home")["Plants"])
        let plants = try #require(after["Plants"])
        let moved = hottask(["--edit", plants.id, "--in", "Errands"])
        #expect(moved.status == 0, "\(moved.stderr)")
        sync()
        #expect(try phoneTasks(server, "Errands") == ["Plants": uid])
        #expect(try phoneTasks(server, "Home") == ["Report": try #require(try phoneTasks(server, "Home")["Report"])])

        // A list made here: a calendar of that name, holding its task.
        #expect(hottask(["--new-list", "Garden"]).status == 0)
        #expect(hottask(["--add", "Roses", "--in", "Garden"]).status == 0)
        sync()
        #expect(try Set(phoneTasks(server, "garden").keys) == ["Roses"])
        // Nothing moves on a sync after.
        let quiet = hottask(["--sync"])
        #expect(quiet.stdout.contains("pulled 0, pushed 0, merged 0, deleted 0 here and 0 on the server"), "\(quiet.stdout)")
    }

    /// Where a move's sync is cut: the PUT into the new calendar or the DELETE from the old one,
    /// before the server has it ("drop-before") or after, with its answer lost ("drop"); each
    /// try again too, so the sync stops there.
    static let cuts = [("PUT", "drop-before"), ("PUT", "drop"), ("DELETE", "drop-before"), ("DELETE", "drop")]

    @Test("a sync cut at each request of a move leaves exactly one copy, in the new calendar, after the next sync", arguments: cuts)
    func cutMove(method: String, action: String) throws {
        let server = try server(.radicale, tasks: ["Work", "Home"])
        let control = folder.path("faults.json")
        let proxied = try server.startProxy(controlPath: control)
        let root = proxied.replacingOccurrences(of: server.url.replacingOccurrences(of: server.root, with: ""), with: "")
        try server.phone(calendarURL(server, "Work"), "add", "Report")
        #expect(hottask(["--sync-setup", root] + Self.login).status == 0)
        sync()
        let uid = try #require(try phoneTasks(server, "Work")["Report"])
        let report = try #require(try tasks()["Report"])
        #expect(hottask(["--edit", report.id, "--in", "Home"]).status == 0)
        let path = method == "PUT" ? "/u/Home/" : "/u/Work/"
        folder.write(#"{"rules": [{"method": "\#(method)", "path_contains": "\#(path)", "action": "\#(action)", "times": 10}]}"#, to: "faults.json")
        let cut = hottask(["--sync"])
        #expect(cut.status == 5, "the cut sync fails: \(cut.stdout) \(cut.stderr)")
        try FileManager.default.removeItem(atPath: control)
        sync()
        #expect(try phoneTasks(server, "Home") == ["Report": uid], "one copy, in Home")
        #expect(try phoneTasks(server, "Work").isEmpty, "none left in Work")
        let after = try tasks()
        #expect(after.count == 1 && after["Report"]?.list == "Home" && after["Report"]?.id == report.id, "\(after)")
        let quiet = hottask(["--sync"])
        #expect(quiet.stdout.contains("pulled 0, pushed 0, merged 0, deleted 0 here and 0 on the server"), "\(quiet.stdout)")
    }

    @Test(
        "a calendar renamed on the phone renames its list here; a list renamed here renames its calendar", arguments: [CalDAVTestServer.Kind.radicale]
    )
    func renames(kind: CalDAVTestServer.Kind) throws {
        let server = try server(kind, tasks: ["Work", "Home"])
        try server.phone(calendarURL(server, "Work"), "add", "Report")
        try server.phone(calendarURL(server, "Home"), "add", "Plants")
        #expect(hottask(["--sync-setup", server.root] + Self.login).status == 0)
        sync()
        try server.phone(calendarURL(server, "Work"), "rename-calendar", "Job")
        #expect(hottask(["--rename-list", "Home", "House"]).status == 0)
        sync()
        let here = try tasks()
        #expect(here["Report"]?.list == "Job" && here["Plants"]?.list == "House", "\(here)")
        // What the server now calls its calendars, as a set-up elsewhere finds them.
        let elsewhere = runHotTask(
            ["--file", folder.path("other.json"), "--config", folder.path("other.toml"), "--sync-setup", server.root] + Self.login, timeout: 90)
        let names = Set(elsewhere.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) })
        #expect(names == ["Job", "House"], "\(elsewhere.stdout)")
        #expect(try phoneTasks(server, "Work").keys.sorted() == ["Report"] && phoneTasks(server, "Home").keys.sorted() == ["Plants"], "nothing moved")
    }

    @Test("a calendar gone from the server (404) for one sync: the deletion of its tasks is refused, and nothing is deleted when it is back")
    func calendarMissingForOneSync() throws {
        let server = try server(.radicale, tasks: ["Work", "Home", "Errands"])
        for (name, count) in [("Work", 5), ("Home", 5), ("Errands", 2)] {
            for number in 1...count { try server.phone(calendarURL(server, name), "add", "\(name) \(number)") }
        }
        #expect(hottask(["--sync-setup", server.root] + Self.login).status == 0)
        sync()
        #expect(try tasks().count == 12)
        // Gone from the server (404) for one sync: moved out of its storage. (Moved beside the
        // others, it would be a calendar at another path with the same name, and synced so.)
        let errands = server.folder.path("collections/collection-root/u/Errands")
        try FileManager.default.moveItem(atPath: errands, toPath: server.folder.path("Errands.aside"))
        let missing = hottask(["--sync"])
        #expect(missing.status == 5, "\(missing.stdout) \(missing.stderr) \(fileText(folder.path("config.toml")) ?? "")")
        #expect(missing.stderr.hasPrefix("hottask: sync with ") && missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("Errands") && missing.stderr.contains("refused"), "\(missing.stderr)")
        #expect(try tasks().count == 12, "nothing deleted here")
        try FileManager.default.moveItem(atPath: server.folder.path("Errands.aside"), toPath: errands)
        let back = hottask(["--sync"])
        #expect(back.stdout.contains("pulled 0, pushed 0, merged 0, deleted 0 here and 0 on the server"), "\(back.stdout) \(back.stderr)")
        #expect(try phoneTasks(server, "Errands").count == 2, "nothing deleted there")
    }
}

extension SyncListsEndToEndTests {
    @Test("a list made here whose calendar's path is taken (by a calendar of events) gets the next free one; every sync goes on")
    func takenPath() throws {
        // Radicale: Xandikos offers its calendars of events for tasks too, so one there is a member.
        let server = try server(.radicale, tasks: ["Work", "Home"])
        try server.phone(calendarURL(server, "garden"), "make-calendar", "--components", "VEVENT")
        #expect(hottask(["--sync-setup", server.root] + Self.login).status == 0)
        #expect(hottask(["--new-list", "Garden"]).status == 0)
        #expect(hottask(["--add", "Roses", "--in", "Garden"]).status == 0)
        let made = hottask(["--sync"])
        #expect(made.status == 0, "\(made.stdout) \(made.stderr)")
        #expect(try Set(phoneTasks(server, "garden-2").keys) == ["Roses"])
        let quiet = hottask(["--sync"])
        #expect(quiet.stdout.contains("pulled 0, pushed 0, merged 0, deleted 0 here and 0 on the server"), "\(quiet.stdout) \(quiet.stderr)")
    }
}

extension SyncListsEndToEndTests {
    @Test(
        "a sync of several calendars with nothing to do asks for the listing of their home alone, and no calendar one by one",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func quietSyncOfSeveralCalendars(kind: CalDAVTestServer.Kind) throws {
        let server = try server(kind, tasks: ["Work", "Home"])
        try server.phone(calendarURL(server, "Work"), "add", "Report")
        let control = folder.path("control.json")
        let proxied = try #require(URL(string: try server.startProxy(controlPath: control)))
        let root = "http://127.0.0.1:\(proxied.port ?? 0)/"
        #expect(hottask(["--sync-setup", root] + Self.login).status == 0)
        sync()
        sync()  // the versions after its own first sync's writes
        let before = fileText(control + ".log")?.split(separator: "\n").count ?? 0
        let quiet = hottask(["--sync"])
        #expect(quiet.stdout.contains("pulled 0, pushed 0, merged 0, deleted 0 here and 0 on the server"), "\(quiet.stdout) \(quiet.stderr)")
        let sent = (fileText(control + ".log") ?? "").split(separator: "\n").dropFirst(before).map(String.init)
        // One request: the listing of the home set-up wrote, which carries each calendar's
        // ctag and sync token, as DAVx5 asks it (no principal or home found again).
        #expect(sent.count == 1 && sent.allSatisfy { $0.hasPrefix("PROPFIND") && !$0.contains("/Work/") && !$0.contains("/Home/") }, "\(sent)")

        // A home the server no longer lists (a 404): the account is found again from it, and
        // the sync goes on as before.
        try #"{"rules": [{"method": "PROPFIND", "times": 1, "action": "404"}]}"#.write(toFile: control, atomically: true, encoding: .utf8)
        let linesBefore = fileText(control + ".log")?.split(separator: "\n").count ?? 0
        let again = hottask(["--sync"])
        #expect(again.stdout.contains("pulled 0, pushed 0, merged 0, deleted 0 here and 0 on the server"), "\(again.stdout) \(again.stderr)")
        let afterMiss = (fileText(control + ".log") ?? "").split(separator: "\n").dropFirst(linesBefore).map(String.init)
        #expect(afterMiss.first?.hasSuffix("injected-404") == true && afterMiss.count > 2, "\(afterMiss)")
    }
}
