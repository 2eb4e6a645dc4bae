import Foundation
import TestSupport
import Testing

/// A hostile CalDAV server on 127.0.0.1 (Tests/Scripts/hostile_caldav.py): the login goes only
/// where it was given, no byte it sends reaches the terminal unescaped, and what it does wrong
/// with one object or one href stops nothing else.
@Suite("Sync against a hostile server", .serialized)
struct HostileServerEndToEndTests {
    let folder = TemporaryFolder()

    /// `hottask` with a store and a config whose [sync] names `url`, logged in as u/p.
    func sync(_ url: String, _ name: String = "laptop", environment: [String: String]? = nil) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let config = folder.write(
            "[sync]\nurl = \"\(url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n", to: "\(name).toml")
        return runHotTask(
            ["--file", folder.path("\(name).json"), "--config", config, "--sync"], environment: environment, timeout: 120)
    }

    func setUp(_ url: String, _ extra: [String] = [], config name: String = "setup") -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(["--config", folder.path("\(name).toml"), "--sync-setup", url] + extra, timeout: 60)
    }

    func captions(_ name: String = "laptop") -> [String] {
        let list = runHotTask(["--file", folder.path("\(name).json"), "--list", "--json"]).stdout
        let document = (try? JSONSerialization.jsonObject(with: Data(list.utf8))) as? [String: Any]
        let tasks = document?["tasks"] as? [[String: Any]] ?? []
        return tasks.compactMap { $0["caption"] as? String }.sorted()
    }

    @Test("set-up refuses a redirect to another host: one line naming it, nothing sent there, no config written")
    func setUpRedirectToAnotherHost() throws {
        let elsewhere = try HostileServer(#"{"tasks": 1}"#)
        // Another host name for this machine: the same address, but not the host given.
        let redirecting = try HostileServer(#"{"redirect": "http://localhost:\#(elsewhere.port)"}"#)
        let result = setUp(redirecting.url, ["--username", "u", "--password-command", "printf 'secret\\n'"])
        #expect(result.status == 5)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("http://localhost:\(elsewhere.port)/cal/, another host than the one given"), "\(result.stderr)")
        #expect(elsewhere.requests.isEmpty, "the other host got \(elsewhere.requests.map(\.path))")
        #expect(!FileManager.default.fileExists(atPath: folder.path("setup.toml")))
    }

    @Test("a password written in the set-up address logs in, and is in no output, no config and no helper's argv")
    func setUpPasswordInURL() throws {
        let server = try HostileServer(#"{"tasks": 1, "delay": 0.3}"#)
        let argv = folder.path("argv.txt")
        // While set-up runs, every process's argv is copied (the server answers slowly).
        let watcher = try ChildProcess([
            "sh", "-c",
            "end=$(( $(date +%s) + 20 )); while [ $(date +%s) -lt $end ]; do for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done; done > \(argv) 2>/dev/null",
        ])
        defer { watcher.kill(SIGKILL) }
        let address = server.url.replacingOccurrences(of: "http://", with: "http://me:Pa55-in-url@")
        let result = setUp(address)
        watcher.kill(SIGKILL)
        _ = watcher.wait(timeout: 5)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("Pa55"), "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--password-command"), "set-up says how to keep a password: \(result.stderr)")
        let config = try #require(fileText(folder.path("setup.toml")))
        #expect(!config.contains("Pa55") && config.contains("url = \"\(server.url)\"") && config.contains("username = \"me\""), "\(config)")
        #expect(server.requests.contains { $0.authorization }, "the password was used")
        let seen = fileText(argv) ?? ""
        let helperLines = seen.split(separator: "\n").filter { $0.contains("hottask-sync") }
        #expect(!helperLines.isEmpty && !helperLines.contains { $0.contains("Pa55") }, "helper argv seen:\n\(helperLines.joined(separator: "\n"))")
    }

    @Test("hrefs naming another host or climbing out of the calendar are named and skipped; the rest syncs, nothing is sent there")
    func foreignHrefs() throws {
        let server = try HostileServer(#"{"tasks": 2, "foreign_hrefs": true}"#)
        let result = sync(server.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("pulled 2,"), "\(result.stdout)")
        for href in ["//otherhost.invalid/cal/x.ics", "/cal/../escaped.ics", "http://other.invalid/cal/y.ics"] {
            #expect(result.stderr.contains("hottask: note: skipped \(href): the server named it outside the calendar"), "\(result.stderr)")
        }
        #expect(captions() == ["Task 0", "Task 1"])
        #expect(!server.requests.contains { $0.path.contains("escaped") || $0.path.contains("invalid") })
    }

    @Test("a 301 keeps the request's body: a calendar that moved syncs")
    func movedKeepsBody() throws {
        let server = try HostileServer(#"{"tasks": 3, "moved": true}"#)
        let result = sync(server.root + "/old/")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("pulled 3,"), "\(result.stdout)")
        let moved = server.requests.filter { $0.path.hasPrefix("/cal/") && ($0.method == "REPORT" || $0.method == "PROPFIND") }
        #expect(!moved.isEmpty && moved.allSatisfy { $0.body_length > 0 }, "\(moved.map { "\($0.method) \($0.body_length)" })")
    }

    @Test("no byte a server sends reaches the terminal unescaped: href, body, Digest and error page, through --sync, --sync-setup and the app's sync")
    func hostileBytesEscaped() throws {
        var outputs: [(String, String)] = []
        let members = try HostileServer(#"{"tasks": 1, "hostile_href": true, "unreadable": true}"#)
        let synced = sync(members.url, "members")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("\\u001B]52;c;aGk=\\u0007"), "the href and the body's line are shown, escaped: \(synced.stderr)")
        outputs.append(("href and body", synced.stdout + synced.stderr))
        // What the app reads from the helper for its footer and help overlay (`--quiet`).
        let helper = HotTaskBinary.url.deletingLastPathComponent().appendingPathComponent("hottask-sync").path
        let forTheApp = runProcess([
            helper, "--store", folder.path("app.json"), "--url", members.url, "--username", "u", "--password-command", "printf 'p\\n'", "--quiet",
        ])
        outputs.append(("the app's sync", forTheApp.stdout + forTheApp.stderr))
        let hostileName = "\u{1B}]0;pwned\u{07}Tasks\u{9B}31m\u{202E}"
        let named = try HostileServer(
            #"{"tasks": 1, "display_name": "\#(hostileName.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined())"}"#)
        let setUpNamed = setUp(named.url, config: "named")
        outputs.append(("display name in set-up", setUpNamed.stdout + setUpNamed.stderr))
        for (what, config) in [("error page", #"{"error_page": true}"#), ("Digest", #"{"digest": true}"#)] {
            let server = try HostileServer(config)
            let viaSync = sync(server.url, what.replacingOccurrences(of: " ", with: "-"))
            #expect(viaSync.status == 5, "\(what): \(viaSync.stderr)")
            outputs.append(("\(what) via --sync", viaSync.stdout + viaSync.stderr))
            let viaSetUp = setUp(server.url, ["--username", "u", "--password-command", "printf 'p\\n'"], config: what)
            #expect(viaSetUp.status == 5, "\(what): \(viaSetUp.stderr)")
            outputs.append(("\(what) via --sync-setup", viaSetUp.stdout + viaSetUp.stderr))
            let viaApp = runProcess([
                helper, "--store", folder.path("app-\(what).json"), "--url", server.url, "--username", "u", "--password-command", "printf 'p\\n'",
                "--quiet",
            ])
            outputs.append(("\(what) via the app's sync", viaApp.stdout + viaApp.stderr))
        }
        #expect(outputs.contains { $0.1.contains("\\u001B") && $0.0.hasPrefix("Digest") }, "Digest's parameters are quoted: \(outputs)")
        #expect(outputs.contains { $0.1.contains("\\u001B") && $0.0 == "Digest via the app's sync" }, "the app is told, escaped: \(outputs)")
        #expect(outputs.contains { $0.1.contains("\\u001B") && $0.0.hasPrefix("error page") }, "the error page is quoted: \(outputs)")
        for (what, text) in outputs {
            #expect(terminalControls(in: text).isEmpty, "\(what) let through: \(text.debugDescription)")
        }
    }
}
