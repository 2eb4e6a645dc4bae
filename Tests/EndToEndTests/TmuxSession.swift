import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The real `hottask` in a real terminal: a private tmux server per test (own socket), keys
/// sent as a person would type them, the screen read back as text.
final class TmuxSession {
    private let socket = "hottask-e2e-" + UUID().uuidString.prefix(8).lowercased()
    let folder = TemporaryFolder()
    /// The store the app was started on.
    let storePath: String

    /// Starts `hottask --file <store>` inside `sh`, which afterwards prints the exit status
    /// and whether the terminal is back in its normal (canonical, echoing) mode.
    /// `seededTasks` "Task 1"... (or `seededCaptions`, in Top Priority) are written to the
    /// store before the app starts; `storePath` defaults to a fresh folder's tasks.json;
    /// `prefix` runs the app through another command (e.g. `prlimit --fsize=600`).
    init(
        seededTasks: Int = 0, seededCaptions: [String] = [], width: Int = 80, height: Int = 24,
        term: String = "tmux-256color", environment: [String: String] = [:], storePath: String? = nil,
        prefix: String = "", arguments: [String] = []
    ) throws {
        self.storePath = storePath ?? folder.storePath
        let captions = seededCaptions + (seededTasks > 0 ? (1...seededTasks).map { "Task \($0)" } : [])
        if !captions.isEmpty {
            let now = Timestamp.now()
            try TaskStore(path: self.storePath).save(TaskList(captions.map { TaskItem(caption: $0, createdAt: now) }))
        }
        // Never the developer's own config file or remembered view, unless the test gives one.
        let configHome = ["XDG_CONFIG_HOME": folder.path("no-config"), "XDG_STATE_HOME": folder.path("state")]
        let variables = configHome.merging(environment) { _, given in given }
            .map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let extra = arguments.map { " '\($0)'" }.joined()
        let script = """
            \(variables) TERM=\(term) \(prefix) '\(HotTaskBinary.url.path)' --file '\(self.storePath)'\(extra); \
            echo "exited with $?"; stty -a | tr ' ;' '\\n\\n' | grep -x -e '-*icanon' -e '-*echo'; read wait
            """
        tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "t", "sh", "-c", script])
        serverProcessID = pid_t(tmux(["display-message", "-p", "-t", "t", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The tmux server's pid: the server is a daemon, not our child, so it is ended by pid.
    private var serverProcessID: pid_t?

    /// Ends the server (which hangs up on the app), and makes sure: a server still there after
    /// a deadline is killed, and its socket removed.
    deinit {
        tmux(["kill-server"])
        if let pid = serverProcessID, pid > 0 {
            let deadline = Date().addingTimeInterval(3)
            while isRunning(pid) && Date() < deadline { usleep(10_000) }
            if isRunning(pid) {
                Issue.record("the tmux server \(pid) outlived kill-server; killed")
                kill(pid, SIGKILL)
            }
        }
        let socketFolder = (ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp") + "/tmux-\(getuid())"
        try? FileManager.default.removeItem(atPath: socketFolder + "/" + socket)
    }

    /// True while `pid` names a process that has not exited (a zombie waiting for its parent
    /// to reap it has).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = fileText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].hasPrefix(") Z") && !stat[close...].hasPrefix(") X")
    }

    /// Types text literally (UTF-8, emoji included).
    func type(_ text: String) {
        tmux(["send-keys", "-t", "t", "-l", text])
    }

    /// Sends these exact bytes, valid UTF-8 or not (`send-keys -H`).
    func send(bytes: [UInt8]) {
        tmux(["send-keys", "-t", "t", "-H"] + bytes.map { String($0, radix: 16) })
    }

    /// Presses keys by tmux name: Enter, BSpace, Up, Down, PageDown, Tab, Escape, C-c, Space...
    func press(_ keys: String...) {
        tmux(["send-keys", "-t", "t"] + keys)
    }

    /// Pastes `text` as a terminal does: tmux wraps it in the bracketed-paste markers when the
    /// app asked for them (`paste-buffer -p`), and sends it raw otherwise.
    func paste(_ text: String) {
        tmux(["set-buffer", "-b", "e2e-paste", text])
        tmux(["paste-buffer", "-p", "-d", "-b", "e2e-paste", "-t", "t"])
    }

    /// Pastes the file's bytes (for pastes too long for a command line), as `paste` does.
    func paste(contentsOf path: String) {
        tmux(["load-buffer", "-b", "e2e-paste", path])
        tmux(["paste-buffer", "-p", "-d", "-b", "e2e-paste", "-t", "t"])
    }

    func resize(width: Int, height: Int) {
        tmux(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
    }

    /// A tmux format for the pane, e.g. `#{alternate_on}` (1 while the alternate screen is on),
    /// `#{mouse_standard_flag}` (1 while mouse clicks are reported).
    func pane(_ format: String) -> String {
        tmux(["display-message", "-p", "-t", "t", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var screen: String {
        tmux(["capture-pane", "-p", "-t", "t"])
    }

    /// The screen with its attributes as escape sequences (`capture-pane -e`).
    var styledScreen: String {
        tmux(["capture-pane", "-e", "-p", "-t", "t"])
    }

    var lines: [String] {
        screen.components(separatedBy: "\n")
    }

    /// Polls the screen until `condition` holds; records an issue with the last screen if it
    /// never does within the deadline.
    @discardableResult
    func waitForScreen(
        _ what: String, timeout: TimeInterval = 10, sourceLocation: SourceLocation = #_sourceLocation,
        until condition: (String) -> Bool
    ) -> String {
        poll(timeout, read: { screen }, until: condition) { last in
            Issue.record("timed out waiting for \(what); the screen was:\n\(last)", sourceLocation: sourceLocation)
        }
    }

    /// Waits until the whole screen is `expected`, line by line (`[..]` and `...` as in
    /// `OutputPattern`; trailing blanks are not part of a line, as tmux captures it); on the
    /// deadline records the difference with the last screen.
    func expectScreen(
        _ expected: [String], timeout: TimeInterval = 10, what: String = "the expected one", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        _ = poll(timeout, read: { screen }, until: { OutputPattern.matches(lines: expected, Self.rows($0)) }) { last in
            let wanted = expected.map { $0 + "\n" }.joined()
            Issue.record(
                "the screen never became \(what):\n\(OutputPattern.difference(wanted, Self.rows(last).map { $0 + "\n" }.joined()))",
                sourceLocation: sourceLocation)
        }
    }

    /// The screen's rows as tmux captures them, without trailing blanks.
    private static func rows(_ screen: String) -> [String] {
        OutputPattern.lines(screen).map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// The whole screen against the snapshot file `Snapshots/NAME.txt` beside the tests (NAME
    /// is the calling test's function name unless given; a test with arguments whose screens
    /// differ names one per argument): polled until it is that screen, line by line, with the
    /// `[..]` and `...` of `expectScreen` inside the file for what differs from run to run (a
    /// date, a time, a temp path); on the deadline the difference with the last screen is
    /// recorded. The check a tmux flow ends with, at its last meaningful screen.
    ///
    /// With `HOTTASK_RECORD_SNAPSHOTS=1` the screen is read once it has settled and written to
    /// the file, and the test fails on purpose (as `expectSnapshot` does); a file the settled
    /// screen already matches is left as it is, its patterns kept. Read a recorded file before
    /// committing it, and put `[..]` where the run shows through.
    func expectScreenSnapshot(
        named name: String = #function, timeout: TimeInterval = 10, filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let file = name.prefix { $0 != "(" } + ".txt"
        let path = Snapshot.folder(for: filePath) + "/" + file
        let expected = fileText(path).map(OutputPattern.lines)
        if Snapshot.isRecording {
            let rows = Self.rows(settledScreen())
            if let expected, OutputPattern.matches(lines: expected, rows) { return }
            Snapshot.record(rows.map { $0 + "\n" }.joined(), at: path, sourceLocation: sourceLocation)
            return
        }
        guard let expected else {
            Issue.record("no snapshot \(path); make it with \(Snapshot.recordVariable)=1", sourceLocation: sourceLocation)
            return
        }
        let what = "the snapshot \(file) (\(Snapshot.recordVariable)=1 records it again)"
        expectScreen(expected, timeout: timeout, what: what, sourceLocation: sourceLocation)
    }

    /// The screen once it has stayed the same for half a second (at most 5 seconds on), for
    /// recording: a capture can land while a frame is drawn.
    private func settledScreen() -> String {
        let deadline = Date().addingTimeInterval(5)
        var last = screen
        var stableSince = Date()
        while Date() < deadline {
            usleep(50_000)
            let now = screen
            if now != last {
                last = now
                stableSince = Date()
            } else if Date().timeIntervalSince(stableSince) >= 0.5 {
                break
            }
        }
        return last
    }

    /// Waits until the app has exited and the shell has printed the terminal's modes; returns
    /// the screen then.
    @discardableResult
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) -> String {
        waitForScreen("the app to exit and stty to report", sourceLocation: sourceLocation) {
            $0.contains("exited with") && $0.contains("icanon") && $0.contains("echo\n")
        }
    }

    @discardableResult
    func waitForText(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        waitForScreen("\"\(text)\"", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// The store as a command reads it (snapshot and change log), written out as an export
    /// document, once it satisfies `condition` (polled with a deadline).
    @discardableResult
    func waitForStore(
        _ what: String, timeout: TimeInterval = 10, sourceLocation: SourceLocation = #_sourceLocation,
        until condition: (String) -> Bool
    ) -> String {
        let read = { [storePath] in
            (try? TaskStore(path: storePath).load()).map { String(decoding: StoreDocument.encode($0), as: UTF8.self) } ?? ""
        }
        return poll(timeout, read: read, until: condition) { last in
            Issue.record("timed out waiting for the store to \(what); it holds:\n\(last)", sourceLocation: sourceLocation)
        }
    }

    /// Reads until `condition` holds or the deadline passes (then `timedOut` gets the last
    /// reading); returns the last reading either way.
    private func poll(
        _ timeout: TimeInterval, read: () -> String, until condition: (String) -> Bool, timedOut: (String) -> Void
    ) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = read()
        while !condition(last) {
            guard Date() < deadline else {
                timedOut(last)
                return last
            }
            usleep(30_000)
            last = read()
        }
        return last
    }

    /// Runs one tmux command and returns what it printed.
    @discardableResult
    private func tmux(_ arguments: [String]) -> String {
        run(["tmux", "-u", "-L", socket, "-f", "/dev/null"] + arguments)
    }

    /// The app's process id, once it runs (polled with a deadline).
    func appProcessID(sourceLocation: SourceLocation = #_sourceLocation) -> pid_t? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            // The shell's own command line quotes the path, so this matches only the app.
            let found = run(["pgrep", "-f", "--", "--file \(storePath)$"])
            if let pid = found.split(separator: "\n").first.flatMap({ pid_t($0) }) { return pid }
            usleep(20_000)
        }
        Issue.record("the app did not start", sourceLocation: sourceLocation)
        return nil
    }

    /// Runs a command (found on PATH) and returns what it printed on stdout.
    @discardableResult
    func run(_ argv: [String]) -> String {
        let outputPath = folder.path("command-output")
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        do {
            let child = try ChildProcess(argv, environment: environment, stdoutPath: outputPath)
            if child.wait(timeout: 10) == nil { Issue.record("\(argv[0]) did not finish within 10 seconds") }
        } catch {
            Issue.record("\(error.localizedDescription)")
            return ""
        }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}
