import Foundation
import HotTaskCore
import Testing
import TestSupport

/// The real `hottask` in a real terminal: a private tmux server per test (own socket), keys
/// sent as a person would type them, the screen read back as text.
final class TmuxSession {
    private let socket = "hottask-e2e-" + UUID().uuidString.prefix(8).lowercased()
    let folder = TemporaryFolder()
    var storePath: String { folder.storePath }

    /// Starts `hottask --file <store>` inside `sh`, which afterwards prints the exit status
    /// and whether the terminal is back in its normal (canonical, echoing) mode.
    /// `seededTasks` "Task 1"... are written to the store before the app starts.
    init(
        seededTasks: Int = 0, width: Int = 80, height: Int = 24, term: String = "tmux-256color",
        environment: [String: String] = [:]
    ) throws {
        if seededTasks > 0 {
            let now = Timestamp.now()
            try TaskStore(path: folder.storePath).save(
                TaskList((1...seededTasks).map { TaskItem(caption: "Task \($0)", createdAt: now) }))
        }
        let variables = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let script = """
            \(variables) TERM=\(term) '\(HotTaskBinary.url.path)' --file '\(storePath)'; \
            echo "exited with $?"; stty -a | tr ' ;' '\\n\\n' | grep -x -e '-*icanon' -e '-*echo'; read wait
            """
        tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "t", "sh", "-c", script])
    }

    deinit {
        tmux(["kill-server"])
    }

    /// Types text literally (UTF-8, emoji included).
    func type(_ text: String) {
        tmux(["send-keys", "-t", "t", "-l", text])
    }

    /// Presses keys by tmux name: Enter, BSpace, Up, Down, PageDown, Tab, Escape, C-c, Space...
    func press(_ keys: String...) {
        tmux(["send-keys", "-t", "t"] + keys)
    }

    func resize(width: Int, height: Int) {
        tmux(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
    }

    var screen: String {
        tmux(["capture-pane", "-p", "-t", "t"])
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
        let deadline = Date().addingTimeInterval(timeout)
        var last = screen
        while !condition(last) {
            guard Date() < deadline else {
                Issue.record("timed out waiting for \(what); the screen was:\n\(last)", sourceLocation: sourceLocation)
                return last
            }
            usleep(30_000)
            last = screen
        }
        return last
    }

    @discardableResult
    func waitForText(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        waitForScreen("\"\(text)\"", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// The store file's text once it satisfies `condition` (polled with a deadline).
    @discardableResult
    func waitForStore(
        _ what: String, timeout: TimeInterval = 10, sourceLocation: SourceLocation = #_sourceLocation,
        until condition: (String) -> Bool
    ) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let text = (try? String(contentsOfFile: storePath, encoding: .utf8)) ?? ""
            if condition(text) { return text }
            guard Date() < deadline else {
                Issue.record("timed out waiting for the store to \(what); it holds:\n\(text)", sourceLocation: sourceLocation)
                return text
            }
            usleep(30_000)
        }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-u", "-L", socket, "-f", "/dev/null"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Issue.record("cannot run tmux: \(error)")
            return ""
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
