import Foundation
import TestSupport
import Testing

/// Tests/Scripts/hostile_caldav.py on 127.0.0.1: one task calendar at /cal/ that misbehaves
/// as its config says; every request it got is in `requests`. Stopped (by pid) when the value
/// goes away.
final class HostileServer {
    let folder = TemporaryFolder()
    let port: Int
    private let process: ChildProcess
    var root: String { "http://127.0.0.1:\(port)" }
    var url: String { root + "/cal/" }

    /// `config`: the script's JSON keys (tasks, big_bytes, redirect, error_page…).
    init(_ config: String) throws {
        port = try CalDAVTestServer.freePort()
        let configPath = folder.write(config, to: "config.json")
        process = try ChildProcess(
            ["python3", CalDAVTestServer.scripts + "/hostile_caldav.py", String(port), configPath, folder.path("requests.log")],
            stderrPath: folder.path("server.log"))
        try CalDAVTestServer.waitUntilListening(port, what: "the hostile server", log: folder.path("server.log"))
    }

    deinit {
        process.kill(SIGTERM)
        if process.wait(timeout: 5) == nil { Issue.record("the hostile server did not stop on SIGTERM") }
    }

    struct Request: Decodable {
        let method: String
        let path: String
        let authorization: Bool
        let body_length: Int
    }

    var requests: [Request] {
        (fileText(folder.path("requests.log")) ?? "").split(separator: "\n").compactMap {
            try? JSONDecoder().decode(Request.self, from: Data($0.utf8))
        }
    }
}

/// The bytes a terminal may act on, which no message may carry: ESC, BEL, C1 (CSI 0x9B)
/// and the bidirectional override.
func terminalControls(in text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { $0.value == 0x1B || $0.value == 0x07 || (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" }
}
