import Foundation
import TestSupport
import Testing

/// What a hostile server's sizes and speeds do: one object too large is named once and skipped,
/// an answer of any size is read as it comes, one that would make HotTask keep too much is said
/// to be too large, a slow server meets the sync's deadline, and https is never followed to http.
extension HostileServerEndToEndTests {
    /// 11 MB is kept and judged too large; 40 MB is past what the reader holds, and skipped as it comes.
    @Test(
        "a to-do over 10 MB (an inline ATTACH) is named once and skipped, in well under 100 MB; every other task syncs",
        arguments: [11, 40])
    func objectTooLarge(megabytes: Int) throws {
        let server = try HostileServer(#"{"tasks": 20, "big_bytes": \#(megabytes << 20)}"#)
        let first = measuredSync(server.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("pulled 20,"), "\(first.stdout)")
        // Its size as a person reads it: "(10.9 MB, over the 10 MB a task may take)".
        let said = first.stderr.firstMatch(of: /skipped \/cal\/big\.ics: .*\((\d+\.\d) MB, over the 10 MB a task may take\)/)
        #expect(said.flatMap { Double($0.1) }.map { abs($0 - Double(megabytes)) <= 0.2 } == true, "\(first.stderr)")
        #expect(first.peakMiB < 100, "\(first.peakMiB) MiB")
        #expect(captions().count == 20)
        let second = measuredSync(server.url)
        #expect(second.status == 0 && !second.stderr.contains("big.ics"), "named once: \(second.stderr)")
    }

    @Test("a listing over 10 MB (what libxml2 refused) syncs")
    func largeListing() throws {
        let server = try HostileServer(#"{"tasks": 5, "listing_bytes": \#(12 << 20)}"#)
        let result = sync(server.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("pulled 5,"), "\(result.stdout)")
    }

    /// `sync`, with the peak memory and the CPU of `hottask` and its helper.
    func measuredSync(_ url: String) -> (status: Int32, stdout: String, stderr: String, peakMiB: Int, cpuSeconds: Double) {
        let config = folder.write("[sync]\nurl = \"\(url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n", to: "measured.toml")
        let run = runProcessMeasuringCPU(
            [HotTaskBinary.url.path, "--file", folder.path("laptop.json"), "--config", config, "--sync"], timeout: 120)
        return (run.status, run.stdout, run.stderr, run.peakKiB >> 10, run.cpuSeconds)
    }

    @Test("a 300 MB answer is read as it comes, in the memory of what it holds: the sync ends well under 100 MB")
    func largeAnswerStreamed() throws {
        let server = try HostileServer(#"{"tasks": 1, "stream_bytes": \#(300 << 20)}"#)
        let result = measuredSync(server.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Synced with"), "\(result.stdout)")
        #expect(result.peakMiB < 100, "\(result.peakMiB) MiB")
        #expect(server.requests.filter { $0.method == "REPORT" }.count == 1, "asked once")
    }

    @Test("an answer whose members would take more than 256 MB is stopped as it comes and said to be too large, once")
    func answerHoldingTooMuch() throws {
        let server = try HostileServer(#"{"tasks": 1, "flood_bytes": \#(300 << 20)}"#)
        let result = measuredSync(server.url)
        #expect(result.status == 5)
        #expect(
            result.stderr.contains(
                "the server sent an answer holding more than HotTask keeps of one (256 MB, more than a calendar of the store's 250,000 tasks)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("cannot reach"), "\(result.stderr)")
        #expect(result.peakMiB < 400, "\(result.peakMiB) MiB")
        #expect(server.requests.filter { $0.method == "REPORT" }.count == 1, "not asked again")
    }

    @Test("a server slow enough to keep each request under its limit meets the sync's deadline: exit 5 saying so")
    func syncDeadline() throws {
        let server = try HostileServer(#"{"tasks": 3, "delay": 0.6}"#)
        let started = Date()
        let result = sync(server.url, environment: ["HOTTASK_SYNC_DEADLINE": "1"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("the sync took longer than its limit of 1 s and was stopped; what it did is kept"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("an https calendar that redirects to http is not followed: exit 5 saying so, nothing sent over http")
    func httpsNeverToHTTP() throws {
        let made = runProcess([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder.path("key.pem"), "-out", folder.path("cert.pem"),
            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        try #require(made.status == 0, "openssl: \(made.stderr)")
        let plain = try HostileServer(#"{"tasks": 1}"#)
        let secure = try HostileServer(
            #"{"redirect": "http://127.0.0.1:\#(plain.port)", "tls": ["\#(folder.path("cert.pem"))", "\#(folder.path("key.pem"))"]}"#)
        let url = "https://127.0.0.1:\(secure.port)/cal/"
        let result = sync(url, environment: ["SSL_CERT_FILE": folder.path("cert.pem")])
        #expect(result.status == 5)
        #expect(
            result.stderr.contains("redirected the https address to plain http; HotTask sends no task and no login unencrypted"), "\(result.stderr)")
        #expect(!result.stdout.contains("Synced with"))
        #expect(plain.requests.isEmpty, "sent over http: \(plain.requests.map(\.path))")
    }

    @Test("hottask-sync runs with core dumps off (RLIMIT_CORE 0) while it holds the password")
    func coreDumpsOff() throws {
        let server = try HostileServer(#"{"tasks": 1}"#)
        let config = folder.write(
            "[sync]\nurl = \"\(server.url)\"\nusername = \"u\"\npassword_command = \"sleep 2; printf 'p\\\\n'\"\n", to: "core.toml")
        let store = folder.path("core.json")
        let run = try ChildProcess([HotTaskBinary.url.path, "--file", store, "--config", config, "--sync"])
        // Read while its password command runs (the helper's child `sleep`): it has asked for
        // the password by then.
        var limits: String?
        let deadline = Date().addingTimeInterval(10)
        while limits == nil && Date() < deadline {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            let helper = entries.first { entry in
                let argv = fileText("/proc/\(entry)/cmdline") ?? ""
                return Int(entry) != nil && argv.contains("hottask-sync") && argv.contains(store)
            }
            // A child's /proc/PID/stat: "pid (name) state ppid …".
            let hasChild = { (helper: String) in
                entries.contains {
                    (fileText("/proc/\($0)/stat") ?? "").split(separator: ")").last?.split(separator: " ").dropFirst().first == Substring(helper)
                }
            }
            if let helper, hasChild(helper) {
                limits = fileText("/proc/\(helper)/limits")
            }
            usleep(20_000)
        }
        #expect(run.wait(timeout: 30) == 0)
        let line = try #require(limits?.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2) == ["0", "0"], "\(line)")
    }

    @Test("members listed and never delivered cost linear time: 30,000 take at most 15 times the CPU of 3,000, said in one line")
    func undeliveredLinear() throws {
        func cpu(_ count: Int) throws -> (Double, String) {
            let server = try HostileServer(#"{"tasks": 1, "undelivered": \#(count)}"#)
            let config = folder.write(
                "[sync]\nurl = \"\(server.url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n", to: "u\(count).toml")
            let run = runProcessMeasuringCPU(
                [HotTaskBinary.url.path, "--file", folder.path("u\(count).json"), "--config", config, "--sync"], timeout: 180)
            #expect(run.status == 5)
            return (run.cpuSeconds, run.stderr)
        }
        let (small, _) = try cpu(3_000)
        let (large, said) = try cpu(30_000)
        #expect(large <= 15 * max(small, 0.05), "3,000: \(small) s, 30,000: \(large) s")
        #expect(said.contains("the server listed 30000 tasks (/cal/gone-0.ics, "), "\(said)")
        #expect(said.split(separator: "\n").count <= 3, "\(said)")
    }
}
