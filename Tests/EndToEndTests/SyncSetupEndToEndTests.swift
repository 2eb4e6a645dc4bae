import Foundation
import TestSupport
import Testing

/// `hottask --sync-setup` against real servers, from their root: it finds (or makes) the task
/// calendar, writes `[sync]`, and `--sync` then works both ways with a phone (Python's caldav).
@Suite("Setting up sync from a server's root", .serialized)
struct SyncSetupEndToEndTests {
    let folder = TemporaryFolder()
    static let login = ["--username", "u", "--password-command", "printf 'p\\n'"]

    /// A computer: its store and config file.
    struct Computer {
        let store: String
        let config: String

        @discardableResult
        func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> (status: Int32, stdout: String, stderr: String) {
            runHotTask(["--file", store, "--config", config] + arguments, timeout: 90, sourceLocation: sourceLocation)
        }

        @discardableResult
        func sync(sourceLocation: SourceLocation = #_sourceLocation) -> String {
            let result = run(["--sync"], sourceLocation: sourceLocation)
            #expect(result.status == 0, "--sync failed: \(result.stderr)", sourceLocation: sourceLocation)
            return result.stdout
        }

        /// Caption → completed, from `--list`.
        func tasks() -> [String: Bool] {
            var tasks: [String: Bool] = [:]
            for line in run(["--list"]).stdout.split(separator: "\n") {
                guard let bracket = line.range(of: "] ") else { continue }
                tasks[SyncEndToEndTests.Device.caption(line[bracket.upperBound...])] = line.contains("[x]")
            }
            return tasks
        }
    }

    func computer(_ name: String, config: String? = nil) -> Computer {
        let path = folder.path("\(name)/config.toml")
        try? FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
        if let config { folder.write(config, to: "\(name)/config.toml") }
        return Computer(store: folder.path("\(name).json"), config: path)
    }

    /// `NAME<TAB>URL` lines → (name, url).
    func calendars(_ stdout: String) -> [(name: String, url: String)] {
        stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
    }

    @Test(
        "from the server's root: set-up finds or makes the calendar and writes [sync]; --sync uploads, pulls a phone's task and its completion; a second computer with --calendar finds the same calendar",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos, .sabreBasic, .sabreDigest, .cyrus, .davical, .sogo])
    func setUpThenSync(kind: CalDAVTestServer.Kind) throws {
        let server = try CalDAVTestServer(kind, calendar: false)
        let kept = "# my settings\ntheme = \"light\"\n\n[keys]\ntoggle = [\"x\", \"space\"]  # both\n"
        let laptop = computer("laptop", config: kept)
        let setUp = laptop.run(["--sync-setup", server.root] + Self.login)
        #expect(setUp.status == 0, "\(setUp.stderr)")
        let found = calendars(setUp.stdout)
        try #require(found.count == 1, "\(setUp.stdout)")
        let calendar = found[0]
        // Radicale, sabre/dav and DAViCal start with no calendar: one named HotTask is made.
        // Xandikos, Cyrus and SOGo have one.
        let existing: [CalDAVTestServer.Kind: String] = [.xandikos: "calendar", .cyrus: "personal", .sogo: "Personal Calendar"]
        #expect(calendar.name == existing[kind] ?? "HotTask")
        #expect(setUp.stderr.contains("created the calendar \"HotTask\"") == (existing[kind] == nil), "\(setUp.stderr)")
        let written = fileText(laptop.config) ?? ""
        #expect(written.hasPrefix(kept), "every other line byte for byte")
        #expect(written.contains("[sync]\nurl = \"\(calendar.url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n"), "\(written)")

        laptop.run(["--add", "From laptop"])
        #expect(laptop.sync().contains("pushed 1"))
        try server.phone(calendar.url, "add", "From phone")
        #expect(laptop.sync().contains("pulled 1"))
        #expect(laptop.tasks()["From phone"] == false)

        // A second computer, set up by the calendar's name, finds the same calendar.
        let desktop = computer("desktop")
        let second = desktop.run(["--sync-setup", server.root, "--calendar", calendar.name] + Self.login)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(calendars(second.stdout).map(\.url) == [calendar.url])
        #expect(!second.stderr.contains("created"))
        #expect(desktop.sync().contains("pulled 2"))

        // The phone completes a task; both computers see it.
        let phone = try server.phone(calendar.url, "list") as? [[String: Any]] ?? []
        #expect(Set(phone.compactMap { $0["summary"] as? String }) == ["From laptop", "From phone"])
        try server.phone(calendar.url, "edit", "From phone", "--status", "COMPLETED")
        laptop.sync()
        desktop.sync()
        #expect(laptop.tasks()["From phone"] == true)
        #expect(desktop.tasks()["From phone"] == true)
    }

    @Test(
        "a server with a private CA: set-up names the untrusted certificate and writes nothing; with --ca-file it finds the calendar and writes ca_file, which --sync uses and a set-up again keeps"
    )
    func privateCertificateAuthority() throws {
        let server = try CalDAVTestServer(.radicale, tls: true, calendar: false)
        let root = "https://127.0.0.1:\(server.port)/"
        let certificate = server.folder.path("cert.pem")
        let laptop = computer("laptop")
        let refused = laptop.run(["--sync-setup", root] + Self.login)
        #expect(refused.status == 5, "\(refused.stderr)")
        #expect(refused.stderr.contains("certificate is not trusted by this system"), "\(refused.stderr)")
        #expect(fileText(laptop.config) == nil, "nothing written")

        let setUp = laptop.run(["--sync-setup", root, "--ca-file", certificate] + Self.login)
        #expect(setUp.status == 0, "\(setUp.stderr)")
        let calendar = try #require(calendars(setUp.stdout).first)
        #expect(fileText(laptop.config)?.contains("ca_file = \"\(certificate)\"\n") == true, "\(fileText(laptop.config) ?? "")")
        laptop.run(["--add", "Behind a private CA"])
        #expect(laptop.sync().contains("pushed 1"))

        // Again, for the same calendar by name, without --ca-file: the ca_file there is used and kept.
        let again = laptop.run(["--sync-setup", root, "--calendar", calendar.name, "--username", "u"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(fileText(laptop.config)?.contains("ca_file = \"\(certificate)\"\n") == true)
        _ = laptop.sync()  // with the kept ca_file: it would fail without it, as the first set-up did
    }

    @Test(
        "several task calendars and no --calendar: it takes them all, each a list (exit 0); --calendar picks one by name or path segment, in any case"
    )
    func severalCalendars() throws {
        let server = try CalDAVTestServer(.radicale, calendar: false)
        let first = computer("first")
        #expect(first.run(["--sync-setup", server.root, "--calendar", "Work"] + Self.login).status == 0)
        #expect(first.run(["--sync-setup", server.root, "--calendar", "Home"] + Self.login).status == 0)

        let all = first.run(["--sync-setup", server.root] + Self.login)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(Set(calendars(all.stdout).map(\.name)) == ["Work", "Home"])
        let config = fileText(first.config) ?? ""
        #expect(config.contains("url = \"\(server.root)u/\"\n"), "\(config)")
        #expect(
            config.contains("calendars = [\"\(server.root)u/work/\", \"\(server.root)u/home/\"]")
                || config.contains("calendars = [\"\(server.root)u/home/\", \"\(server.root)u/work/\"]"), "\(config)")
        #expect(all.stderr.contains("2 calendars, each a list"), "\(all.stderr)")
        let fresh = computer("fresh")

        let bySegment = fresh.run(["--sync-setup", server.root, "--calendar", "work"] + Self.login)
        #expect(bySegment.status == 0, "\(bySegment.stderr)")
        #expect(fileText(fresh.config)?.contains("url = \"\(server.root)u/work/\"") == true)
        var status = stat()
        #expect(stat(fresh.config, &status) == 0 && status.st_mode & 0o777 == 0o600, "a new config is private")
        // Another case finds the calendar (making a second one answered 409 Conflict).
        let otherCase = computer("other-case")
        let shouted = otherCase.run(["--sync-setup", server.root, "--calendar", "HOME"] + Self.login)
        #expect(shouted.status == 0, "\(shouted.stderr)")
        #expect(fileText(otherCase.config)?.contains("url = \"\(server.root)u/home/\"") == true)
    }

    @Test("set-up again for another calendar, without --password-command, keeps the password_command already in [sync]")
    func setUpAgainKeepsThePasswordCommand() throws {
        let server = try CalDAVTestServer(.radicale, calendar: false)
        let laptop = computer("laptop")
        #expect(laptop.run(["--sync-setup", server.root, "--calendar", "Work"] + Self.login).status == 0)
        let command = try #require(fileText(laptop.config)?.split(separator: "\n").first { $0.hasPrefix("password_command") })
        let again = laptop.run(["--sync-setup", server.root, "--calendar", "Home", "--username", "u"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("the password_command already in [sync] is kept"), "\(again.stderr)")
        let config = fileText(laptop.config) ?? ""
        #expect(config.contains(String(command)) && config.contains("u/home/"), "\(config)")
    }

    @Test("a failed set-up exits 5 saying which step failed and what the server said; the config is untouched")
    func failures() throws {
        let server = try CalDAVTestServer(.sabreDigest, calendar: false)
        let laptop = computer("laptop", config: "theme = \"light\"\n")

        let refused = laptop.run(["--sync-setup", server.root, "--username", "u", "--password-command", "echo wrong"])
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("login refused (401)"), "\(refused.stderr)")

        let port = try CalDAVTestServer.freePort()
        let unreachable = laptop.run(["--sync-setup", "http://127.0.0.1:\(port)/"] + Self.login)
        #expect(unreachable.status == 5)
        #expect(unreachable.stderr.contains("cannot reach http://127.0.0.1:\(port)/"), "\(unreachable.stderr)")

        // A web server that is not CalDAV.
        let webPort = try CalDAVTestServer.freePort()
        let web = try ChildProcess(
            ["python3", "-m", "http.server", String(webPort), "--bind", "127.0.0.1", "--directory", folder.path("")],
            stderrPath: folder.path("web.log"))
        defer {
            web.kill(SIGTERM)
            _ = web.wait(timeout: 5)
        }
        try CalDAVTestServer.waitUntilListening(webPort, what: "python's http.server", log: folder.path("web.log"))
        let notCalDAV = laptop.run(["--sync-setup", "http://127.0.0.1:\(webPort)/"] + Self.login)
        #expect(notCalDAV.status == 5)
        #expect(notCalDAV.stderr.contains("the server answered 501"), "\(notCalDAV.stderr)")

        #expect(fileText(laptop.config) == "theme = \"light\"\n")
    }

    @Test("without --password-command, a terminal is asked once without echo; the password is used and never written")
    func asksAtTheTerminal() throws {
        let server = try CalDAVTestServer(.sabreDigest)
        let capture = CalDAVTestServer.scripts + "/pty_capture.py"
        let config = folder.path("tty.toml")
        let run = runProcess(
            [
                "python3", capture, "--step", "Password for u", "p\n", "--", HotTaskBinary.url.path, "--config", config, "--sync-setup", server.root,
                "--username", "u",
            ], timeout: 60)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("hot\t\(server.url)"), "\(run.stdout)")
        #expect(!run.stdout.contains("p\r\n"), "the password is not echoed")
        #expect(run.stdout.contains("--password-command"), "it says how to store the password")
        let written = fileText(config) ?? ""
        #expect(written == "[sync]\nurl = \"\(server.url)\"\nusername = \"u\"\n")
    }
}
