import Foundation
import TestSupport
import Testing

/// `hottask --sync` against real CalDAV servers, with Python's caldav library playing the
/// phone: two HotTask stores and the phone end up with the same tasks, field by field.
@Suite("Sync with real CalDAV servers", .serialized)
struct SyncEndToEndTests {
    let folder = TemporaryFolder()

    /// A HotTask store with a config whose [sync] names `url`.
    struct Device {
        let store: String
        let config: String

        @discardableResult
        func run(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> (status: Int32, stdout: String, stderr: String) {
            run(arguments: arguments, sourceLocation: sourceLocation)
        }

        @discardableResult
        func run(arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> (status: Int32, stdout: String, stderr: String) {
            runHotTask(["--file", store, "--config", config] + arguments, timeout: 90, sourceLocation: sourceLocation)
        }

        @discardableResult
        func sync(sourceLocation: SourceLocation = #_sourceLocation) -> String {
            let result = run("--sync", sourceLocation: sourceLocation)
            #expect(result.status == 0, "--sync failed: \(result.stderr)", sourceLocation: sourceLocation)
            return result.stdout
        }

        /// Caption → (section heading, completed), from `--list`.
        func tasks() -> [String: (section: String, completed: Bool)] {
            var section = ""
            var tasks: [String: (String, Bool)] = [:]
            for line in run("--list").stdout.split(separator: "\n") {
                if line.hasPrefix("Top Priority") { section = "priority" }
                if line.hasPrefix("Bonus") { section = "bonus" }
                guard let bracket = line.range(of: "] ") else { continue }
                tasks[Self.caption(line[bracket.upperBound...])] = (section, line.contains("[x]"))
            }
            return tasks
        }

        /// A `--list` row's caption: its due date ("  (due …)", "  (overdue: …)"), the note's
        /// mark and its tags (`+home`, `@phone`) left out.
        static func caption(_ rest: Substring) -> String {
            let cut = rest.range(of: "  (due ")?.lowerBound ?? rest.range(of: "  (overdue: ")?.lowerBound ?? rest.endIndex
            var words = rest[..<cut].split(separator: " ", omittingEmptySubsequences: false)
            while words.count > 1, let last = words.last, last == "✎" || last.hasPrefix("+") || last.hasPrefix("@") { words.removeLast() }
            return words.joined(separator: " ")
        }

        /// The number `--list` shows for a caption.
        func number(of caption: String) -> String? {
            for line in run("--list").stdout.split(separator: "\n")
            where line.range(of: "] ").map({ Self.caption(line[$0.upperBound...]) }) == caption {
                return line.split(separator: ".").first.map { $0.trimmingCharacters(in: .whitespaces) }
            }
            return nil
        }
    }

    func device(_ name: String, url: String) -> Device {
        let config = folder.write(
            """
            [sync]
            url = "\(url)"
            username = "u"
            password_command = "printf 'p\\\\n'"
            """, to: "\(name).toml")
        return Device(store: folder.path("\(name).json"), config: config)
    }

    @Test(
        "two stores and a phone converge: sections ↔ PRIORITY, a field changed on each side kept, DUE and CATEGORIES survive, deletes travel",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func converge(kind: CalDAVTestServer.Kind) throws {
        let server = try CalDAVTestServer(kind)
        try server.phone(nil, "add", "Phone urgent", "--priority", "1")
        try server.phone(nil, "add", "Dentist", "--priority", "9", "--due", "20261201", "--categories", "health,errands")
        let laptop = device("laptop", url: server.url)
        let desktop = device("desktop", url: server.url)
        laptop.run("--add", "Pay rent")
        laptop.run("--add", "Read a book", "--bonus")

        #expect(laptop.sync().contains("pulled 2, pushed 2"))
        #expect(desktop.sync().contains("pulled 4"))
        let onDesktop = desktop.tasks()
        #expect(onDesktop["Phone urgent"]?.section == "priority")
        #expect(onDesktop["Dentist"]?.section == "bonus")
        #expect(onDesktop["Pay rent"]?.section == "priority")
        #expect(onDesktop["Read a book"]?.section == "bonus")
        var phone = try server.phoneTasks()
        #expect(phone["Pay rent"]?["priority"] as? Int == 1)
        #expect(phone["Read a book"]?["priority"] is NSNull)

        // A field changed on each side: the phone renames, the desktop completes.
        try server.phone(nil, "edit", "Dentist", "--summary", "Dentist at 3")
        let dentist = try #require(desktop.number(of: "Dentist"))
        #expect(desktop.run("--done", dentist).status == 0)
        desktop.sync()
        laptop.sync()
        for device in [laptop, desktop] {
            #expect(device.tasks()["Dentist at 3"]?.completed == true, "\(device.store)")
        }
        phone = try server.phoneTasks()
        let edited = try #require(phone["Dentist at 3"])
        #expect(edited["completed"] as? Bool == true)
        #expect(edited["due"] as? String == "20261201", "DUE set on the phone survives an edit in HotTask")
        #expect(edited["categories"] as? [String] == ["health", "errands"])
        #expect(edited["priority"] as? Int == 9, "PRIORITY:9 stays 9 while the task stays in Bonus")

        // Moving to Top Priority writes PRIORITY:1.
        let book = try #require(laptop.number(of: "Read a book"))
        laptop.run("--move", book)
        laptop.sync()
        #expect(try server.phoneTasks()["Read a book"]?["priority"] as? Int == 1)

        // Deletes travel both ways.
        try server.phone(nil, "delete", "Phone urgent")
        let rent = try #require(desktop.number(of: "Pay rent"))
        desktop.run("--delete", rent)
        desktop.sync()
        laptop.sync()
        desktop.sync()
        for device in [laptop, desktop] {
            #expect(Set(device.tasks().keys) == ["Dentist at 3", "Read a book"], "\(device.store)")
        }
        #expect(Set(try server.phoneTasks().keys) == ["Dentist at 3", "Read a book"])
    }

    @Test(
        "a sync with nothing to do sends one request and writes nothing; a 412 is merged and retried",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func quietSyncAndConflict(kind: CalDAVTestServer.Kind) throws {
        let server = try CalDAVTestServer(kind)
        let control = folder.path("control.json")
        let proxied = try server.startProxy(controlPath: control)
        let laptop = device("laptop", url: proxied)
        laptop.run("--add", "Buy milk")
        try server.phone(nil, "add", "From phone")
        laptop.sync()
        laptop.sync()  // takes the collection's version after its own writes, if the first could not
        let files = ["laptop.json", "laptop.json.journal", "laptop.json.sync"].map { FileSnapshot(folder.path($0)) }
        let logBefore = requestLog(control)
        #expect(laptop.sync().contains("pulled 0, pushed 0, merged 0, deleted 0 here and 0 on the server"))
        let sent = requestLog(control).dropFirst(logBefore.count)
        #expect(sent.count == 1, "a sync with nothing to do sent \(Array(sent))")
        #expect(sent.allSatisfy { $0.hasPrefix("PROPFIND") || $0.hasPrefix("REPORT") })
        #expect(files == ["laptop.json", "laptop.json.journal", "laptop.json.sync"].map { FileSnapshot(folder.path($0)) })

        // The phone edits the task at the moment HotTask writes it: the server answers 412.
        let milk = try #require(laptop.number(of: "Buy milk"))
        laptop.run("--done", milk)
        try Data(#"{"rules": [{"method": "PUT", "times": 1, "action": "412"}]}"#.utf8).write(to: URL(fileURLWithPath: control))
        try server.phone(nil, "edit", "Buy milk", "--categories", "shop")
        laptop.sync()
        let phone = try server.phoneTasks()
        #expect(phone["Buy milk"]?["completed"] as? Bool == true)
        #expect(phone["Buy milk"]?["categories"] as? [String] == ["shop"])
        #expect(requestLog(control).contains { $0.hasPrefix("PUT") && $0.hasSuffix("injected-412") })
    }

    @Test("lost answers, cut-short answers and 507s are asked again; the result is one copy of each task")
    func faults() throws {
        let server = try CalDAVTestServer(.radicale)
        let control = folder.path("control.json")
        let proxied = try server.startProxy(controlPath: control)
        let laptop = device("laptop", url: proxied)
        laptop.run("--add", "One")
        laptop.run("--add", "Two")
        // The server stores the first PUT but its answer never arrives; the next REPORT is cut
        // short; a later PUT gets a 507.
        try Data(
            #"{"rules": [{"method": "PUT", "times": 1, "action": "drop"}, {"method": "REPORT", "times": 1, "action": "truncate"}, {"method": "PUT", "times": 1, "action": "507"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: control))
        let first = laptop.run("--sync")
        if first.status != 0 { laptop.sync() }
        laptop.sync()
        #expect(Set(try server.phoneTasks().keys) == ["One", "Two"])
        #expect(try (server.phone(nil, "list") as? [Any])?.count == 2, "no task written twice")
        let log = requestLog(control)
        #expect(log.contains { $0.hasSuffix("dropped") } && log.contains { $0.hasSuffix("truncated") })
        #expect(Set(laptop.tasks().keys) == ["One", "Two"])
    }

    @Test("an unreachable server fails cleanly: exit 5, the server named, the store unchanged")
    func unreachable() throws {
        let port = try CalDAVTestServer.freePort()
        let laptop = device("laptop", url: "http://127.0.0.1:\(port)/u/hot/")
        laptop.run("--add", "Keep me")
        let files = ["laptop.json", "laptop.json.journal"].map { FileSnapshot(folder.path($0)) }
        let result = laptop.run("--sync")
        #expect(result.status == 5)
        #expect(result.stderr.contains("127.0.0.1:\(port)"))
        #expect(files == ["laptop.json", "laptop.json.journal"].map { FileSnapshot(folder.path($0)) })
        #expect(laptop.tasks().keys.contains("Keep me"))

        let noConfig = runHotTask(["--file", folder.path("x.json"), "--sync"])
        #expect(noConfig.status == 5)
        #expect(noConfig.stderr.contains("[sync]"))
    }

    @Test("the password comes from password_command; a wrong one or a failing command exits 5 saying which")
    func passwords() throws {
        let server = try CalDAVTestServer(.radicale, password: "p")
        let good = device("good", url: server.url)
        good.run("--add", "Secret")
        #expect(good.sync().contains("pushed 1"))
        #expect(try server.phoneTasks()["Secret"] != nil)
        for (command, expected) in [("echo wrong", "login refused (401)"), ("exit 3", "password_command exited with status 3")] {
            let config = folder.write(
                "[sync]\nurl = \"\(server.url)\"\nusername = \"u\"\npassword_command = \"\(command)\"\n", to: "bad.toml")
            let result = runHotTask(["--file", folder.path("bad.json"), "--config", config, "--add", "Kept", "--sync"])
            #expect(result.status == 5)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(!result.stderr.contains("wrong"), "the password is never shown")
        }
        #expect(runHotTask(["--file", folder.path("bad.json"), "--list"]).stdout.contains("Kept"))
    }

    @Test("HTTPS checks the server's certificate against the system's: a self-signed one is refused, and trusted by ca_file or SSL_CERT_FILE")
    func httpsVerifiesCertificates() throws {
        let server = try CalDAVTestServer(.radicale, tls: true)
        let laptop = device("laptop", url: server.url)
        laptop.run("--add", "Private")
        let result = laptop.run("--sync")
        #expect(result.status == 5)
        #expect(result.stderr.contains("certificate is not trusted by this system: self-signed certificate"), "\(result.stderr)")
        #expect(laptop.tasks().keys.contains("Private"))

        // A private CA: trusted by ca_file in [sync], or by SSL_CERT_FILE.
        let certificate = server.folder.path("cert.pem")
        let made = runProcess(
            ["python3", CalDAVTestServer.scripts + "/caldav_phone.py", server.url, "make-calendar"], environment: ["REQUESTS_CA_BUNDLE": certificate])
        #expect(made.status == 0, "\(made.stderr)")
        let trusting = folder.write("[sync]\nurl = \"\(server.url)\"\nca_file = \"\(certificate)\"\n", to: "trusting.toml")
        let withFile = runHotTask(["--file", laptop.store, "--config", trusting, "--sync"])
        #expect(withFile.status == 0, "\(withFile.stderr)")
        #expect(withFile.stdout.contains("pushed 1"), "\(withFile.stdout)")
        let plain = folder.write("[sync]\nurl = \"\(server.url)\"\n", to: "plain.toml")
        let withVariable = runHotTask(
            ["--file", folder.path("other.json"), "--config", plain, "--add", "Also", "--sync"], environment: ["SSL_CERT_FILE": certificate])
        #expect(withVariable.status == 0, "\(withVariable.stderr)")
        #expect(withVariable.stdout.contains("pulled 1, pushed 1"), "\(withVariable.stdout)")
    }

    @Test("the UI syncs by itself: at start, after a change, every few minutes; the footer says how it went")
    func uiSyncsByItself() throws {
        let server = try CalDAVTestServer(.radicale)
        try server.phone(nil, "add", "From phone")
        let config = device("ui", url: server.url).config
        let session = try TmuxSession(environment: ["HOTTASK_SYNC_INTERVAL": "2"], arguments: ["--config", config])
        session.waitForText("From phone")
        session.waitForText("synced ")
        session.type("Typed here")
        session.press("Enter")
        try waitUntil("the phone sees the task typed in the UI") { try server.phoneTasks()["Typed here"] != nil }
        #expect(try server.phoneTasks()["Typed here"]?["priority"] as? Int == 1)
        try server.phone(nil, "add", "Later from phone", "--priority", "9")
        session.waitForText("Later from phone")
        session.expectScreenSnapshot()
        session.press("C-c")
        session.waitForText("exited with 0")
    }

    @Test("the UI says why it could not sync, and keeps working")
    func uiSyncFailure() throws {
        let port = try CalDAVTestServer.freePort()
        let config = device("ui", url: "http://127.0.0.1:\(port)/u/hot/").config
        let session = try TmuxSession(seededTasks: 1, arguments: ["--config", config])
        session.waitForText("Sync failed: cannot reach http://127.0.0.1:\(port)/u/hot/")
        session.waitForText("sync failed ")
        session.type("Still works")
        session.press("Enter")
        session.waitForStore("hold the new task") { $0.contains("Still works") }
        session.expectScreenSnapshot()
        session.press("C-c")
        session.waitForText("exited with 0")
    }

    @Test(".ics export reads in Python's icalendar and imports back as the same list; re-imports keep changes made here")
    func icsRoundTripAndReimport() throws {
        let laptop = device("laptop", url: "http://127.0.0.1:9/")
        laptop.run("--add", "Pay rent, then; call")
        laptop.run("--add", "Read a book", "--bonus")
        laptop.run("--add", "Café ☕ with a caption long enough to be folded over more than one line of the file")
        laptop.run("--done", "2")
        let ics = folder.path("tasks.ics")
        #expect(laptop.run("--export", ics, "--export-format", "ics").status == 0)
        let python = runProcess([
            "python3", "-c",
            "import icalendar,sys; c=icalendar.Calendar.from_ical(open(sys.argv[1],'rb').read()); "
                + "print('|'.join(sorted(str(t.get('summary'))+':'+str(t.get('status'))+':'+str(t.get('priority')) for t in c.walk('VTODO'))))",
            ics,
        ])
        #expect(python.status == 0, "\(python.stderr)")
        #expect(
            python.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "Café ☕ with a caption long enough to be folded over more than one line of the file:NEEDS-ACTION:1|"
                + "Pay rent, then; call:COMPLETED:1|Read a book:NEEDS-ACTION:None")
        let desktop = device("desktop", url: "http://127.0.0.1:9/")
        #expect(desktop.run("--import", ics).stdout.contains("added 3"))
        #expect(desktop.run("--list").stdout == laptop.run("--list").stdout)

        // Reopened here after the import; the same file imported again keeps it open.
        let rent = try #require(desktop.number(of: "Pay rent, then; call"))
        desktop.run("--undone", rent)
        #expect(desktop.run("--import", ics).stdout.contains("updated 0, unchanged 3"))
        #expect(desktop.tasks()["Pay rent, then; call"]?.completed == false)
    }

    func requestLog(_ control: String) -> [String] {
        (fileText(control + ".log") ?? "").split(separator: "\n").map(String.init)
    }
}

/// A file's identity and contents, to show that a command did not write it.
struct FileSnapshot: Equatable, CustomStringConvertible {
    let inode: UInt64?
    let modified: Int?
    let bytes: [UInt8]?

    init(_ path: String) {
        var info = stat()
        let exists = stat(path, &info) == 0
        inode = exists ? UInt64(info.st_ino) : nil
        modified = exists ? Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec) : nil
        bytes = fileBytes(path)
    }

    /// Short, for a failed expectation (the bytes can be megabytes).
    var description: String {
        "inode \(inode.map(String.init) ?? "-"), mtime \(modified.map(String.init) ?? "-"), \(bytes.map { "\($0.count) bytes, hash \($0.hashValue)" } ?? "missing")"
    }
}
