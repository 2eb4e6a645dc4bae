import Foundation
import TestSupport
import Testing

/// A real CalDAV server (Radicale, Xandikos, sabre/dav, Cyrus, DAViCal or SOGo, from Debian) on
/// 127.0.0.1, in a folder of its own, with one calendar for tasks; stopped (by pid) when the value goes away.
final class CalDAVTestServer {
    enum Kind: String, CustomStringConvertible {
        case radicale
        case xandikos
        /// sabre/dav 1.8 (Baïkal's and Nextcloud's engine) under `php -S`, user u, password p.
        case sabreBasic = "sabre/dav basic"
        case sabreDigest = "sabre/dav digest"
        /// Cyrus IMAP 3.6's CalDAV (Fastmail's engine), user u, password p; its calendar
        /// `Default` ("personal") is made with the account.
        case cyrus
        /// DAViCal 1.1 (Apache, PHP, PostgreSQL), user u, password p; no calendar.
        case davical
        /// SOGo 5.8 (sogod, memcached, PostgreSQL), user u, password p; its calendar `personal`
        /// ("Personal Calendar") is made at the first login.
        case sogo
        var description: String { rawValue }
    }

    let kind: Kind
    let folder = TemporaryFolder()
    let port: Int
    /// The password the phone logs in with.
    let password: String
    /// The calendar collection's URL.
    let url: String
    /// The server's root, where `--sync-setup` starts (SOGo's documented base: sogod answers
    /// its own root with a web page).
    var root: String { "http://127.0.0.1:\(port)/" + (kind == .sogo ? "SOGo/dav/" : "") }
    private let process: ChildProcess
    private var proxy: ChildProcess?

    /// `password`: Radicale then asks `user` for it (HTTP basic auth, a plain htpasswd file).
    /// `tls`: Radicale serves HTTPS with a self-signed certificate made for the test.
    /// `calendar`: false leaves Radicale and sabre/dav without one (Xandikos always has one).
    init(_ kind: Kind, user: String = "u", password: String? = nil, tls: Bool = false, calendar: Bool = true) throws {
        self.kind = kind
        self.password = password ?? "p"
        port = try Self.freePort()
        switch kind {
        case .radicale:
            var auth = "type = none"
            if let password {
                let users = folder.write("\(user):\(password)\n", to: "users")
                auth = "type = htpasswd\nhtpasswd_filename = \(users)\nhtpasswd_encryption = plain"
            }
            var server = ""
            if tls {
                let made = runProcess([
                    "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder.path("key.pem"), "-out",
                    folder.path("cert.pem"), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                ])
                guard made.status == 0 else { throw PhoneFailure(message: "openssl could not make a certificate: \(made.stderr)") }
                server = "ssl = True\ncertificate = \(folder.path("cert.pem"))\nkey = \(folder.path("key.pem"))"
            }
            let config = folder.write(
                """
                [server]
                hosts = 127.0.0.1:\(port)
                \(server)
                [auth]
                \(auth)
                [storage]
                filesystem_folder = \(folder.path("collections"))
                """, to: "radicale.conf")
            process = try ChildProcess(["radicale", "--config", config], stderrPath: folder.path("server.log"))
            url = "\(tls ? "https" : "http")://127.0.0.1:\(port)/\(user)/hot/"
        case .xandikos:
            process = try ChildProcess(
                ["xandikos", "--defaults", "-d", folder.path("data"), "-l", "127.0.0.1", "-p", String(port)],
                stderrPath: folder.path("server.log"))
            url = "http://127.0.0.1:\(port)/user/calendars/calendar/"
        case .sabreBasic, .sabreDigest:
            process = try ChildProcess(
                [Self.scripts + "/sabre_server.sh", String(port), folder.path("sabre"), kind == .sabreDigest ? "digest" : "basic"],
                stderrPath: folder.path("server.log"))
            url = "http://127.0.0.1:\(port)/calendars/u/hot/"
        case .cyrus:
            // Cyrus runs as the user cyrus, who must get through every folder above its own.
            process = try Self.startScript("cyrus_server.sh", port: port, in: folder)
            url = "http://127.0.0.1:\(port)/dav/calendars/user/u/Default/"
        case .davical:
            // PostgreSQL runs as postgres, Apache's workers as www-data.
            process = try Self.startScript("davical_server.sh", port: port, in: folder)
            url = "http://127.0.0.1:\(port)/davical/caldav.php/u/hot/"
        case .sogo:
            process = try Self.startScript("sogo_server.sh", port: port, in: folder)
            url = "http://127.0.0.1:\(port)/SOGo/dav/u/Calendar/personal/"
        }
        try Self.waitUntilListening(port, what: "\(kind)", log: folder.path("server.log"))
        if kind == .cyrus || kind == .sogo {
            // Cyrus's account (and calendar home) exists once its first message is delivered;
            // sogod listens at once, and its worker is ready a second later.
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: folder.path("\(kind)/ready")) {
                guard Date() < deadline else {
                    throw PhoneFailure(message: "\(kind) did not get ready: \(fileText(folder.path("server.log")) ?? "")")
                }
                usleep(20_000)
            }
        }
        if [.radicale, .sabreBasic, .sabreDigest].contains(kind) && !tls && calendar { _ = try phone(url, "make-calendar") }
    }

    deinit {
        for child in [proxy, process].compactMap({ $0 }) {
            child.kill(SIGTERM)
            if child.wait(timeout: 5) == nil { Issue.record("a test server did not stop on SIGTERM") }
        }
    }

    /// Starts the fault-injecting proxy in front of the server; returns the calendar's URL
    /// through it. Its rules are read from `controlPath` before each request, and each request
    /// is logged to `controlPath + ".log"`.
    func startProxy(controlPath: String) throws -> String {
        let proxyPort = try Self.freePort()
        let script = Self.scripts + "/fault_proxy.py"
        proxy = try ChildProcess(
            ["python3", script, String(proxyPort), "http://127.0.0.1:\(port)", controlPath],
            stdoutPath: folder.path("proxy.out"), stderrPath: folder.path("proxy.log"))
        try Self.waitUntilListening(proxyPort, what: "the fault proxy", log: folder.path("proxy.log"))
        return url.replacingOccurrences(of: ":\(port)/", with: ":\(proxyPort)/")
    }

    /// Runs the phone (Python's caldav library, an independent client) on `url`; returns its JSON.
    @discardableResult
    func phone(_ url: String? = nil, _ arguments: String...) throws -> Any {
        // Cyrus offers Digest md5-sess before Basic, and refuses the phone's Digest. SOGo closes
        // kept-alive connections without saying so: Basic up front and a connection per request.
        var environment = ["HOTTASK_PHONE_PASSWORD": password]
        switch kind {
        case .cyrus: environment["PHONE_AUTH"] = "basic"
        case .sogo:
            environment["PHONE_AUTH"] = "basic"
            environment["PHONE_CONNECTION_CLOSE"] = "1"
        default: break
        }
        let run = runProcess(
            ["python3", Self.scripts + "/caldav_phone.py", url ?? self.url] + arguments, environment: environment, timeout: 60)
        guard run.status == 0 else {
            throw PhoneFailure(message: "phone \(arguments.joined(separator: " ")) exited \(run.status): \(run.stderr)")
        }
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    /// The phone's view of every task: summary → its properties.
    func phoneTasks() throws -> [String: [String: Any]] {
        let list = try phone(url, "list") as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["summary"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    struct PhoneFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static let scripts: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts").path
    }()

    /// Adds search permission for others (not reading) to `path` and each folder above it
    /// that lacks it: a test run's temporary folder is 0700.
    static func letOthersThrough(_ path: String) throws {
        var folder = URL(fileURLWithPath: path)
        while folder.path != "/" {
            var status = stat()
            if stat(folder.path, &status) == 0 && status.st_mode & 0o001 == 0 {
                guard chmod(folder.path, (status.st_mode & 0o7777) | 0o001) == 0 else {
                    throw PhoneFailure(message: "cannot let the cyrus user through \(folder.path)")
                }
            }
            folder.deleteLastPathComponent()
        }
    }

    /// A server started by one of Tests/Scripts' start scripts, whose server runs as another
    /// user: every folder above its own is opened for it to pass through.
    static func startScript(_ script: String, port: Int, in folder: TemporaryFolder) throws -> ChildProcess {
        try letOthersThrough(folder.path)
        let name = String(script.prefix { $0 != "_" })
        return try ChildProcess(
            [scripts + "/" + script, String(port), folder.path(name)], stdoutPath: folder.path("server.out"),
            stderrPath: folder.path("server.log"))
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw PhoneFailure(message: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls until something accepts connections on the port (at most 20 s; DAViCal makes its
    /// database first, 1–4 s).
    static func waitUntilListening(_ port: Int, what: String, log: String) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return }
            usleep(50_000)
        }
        throw PhoneFailure(message: "\(what) did not start on port \(port): \(fileText(log) ?? "")")
    }
}
