import Foundation
import TestSupport
import Testing

/// Logging in to sabre/dav (Baïkal's engine) with Basic and with Digest, its default, and to
/// Cyrus, which offers five schemes at once: a sync works both ways, and a wrong password says
/// "login refused" whichever the scheme.
@Suite("Logins to a real server", .serialized)
struct LoginEndToEndTests {
    let folder = TemporaryFolder()

    func config(_ name: String, url: String, password: String) -> String {
        folder.write("[sync]\nurl = \"\(url)\"\nusername = \"u\"\npassword_command = \"echo \(password)\"\n", to: "\(name).toml")
    }

    @Test(
        "Basic and Digest log in: a task goes up and one comes down; a wrong password is \"login refused\"",
        arguments: [CalDAVTestServer.Kind.sabreBasic, .sabreDigest, .cyrus])
    func logins(kind: CalDAVTestServer.Kind) throws {
        let server = try CalDAVTestServer(kind)
        try server.phone(nil, "add", "From phone")
        let good = config("good", url: server.url, password: "p")
        let store = folder.path("tasks.json")
        let synced = runHotTask(["--file", store, "--config", good, "--add", "From laptop", "--sync"], timeout: 60)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stdout.contains("pulled 1, pushed 1"), "\(synced.stdout)")
        #expect(try server.phoneTasks()["From laptop"] != nil)
        #expect(runHotTask(["--file", store, "--list"]).stdout.contains("From phone"))

        let bad = config("bad", url: server.url, password: "wrong")
        let refused = runHotTask(["--file", store, "--config", bad, "--sync"], timeout: 60)
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("login refused (401)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("wrong"), "the password is never shown")
    }
}
