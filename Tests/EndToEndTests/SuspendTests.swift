import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Ctrl-Z and SIGTSTP from outside, any number of times: the terminal is given back whole each
/// time (bytes read on a raw pty, Tests/Scripts/pty_capture.py) and the screen redrawn after.
@Suite("Suspend gives the terminal back, every time", .serialized)
struct SuspendTests {
    private static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/pty_capture.py").path

    private static let modesOff = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?2004l"
    private static let modesOn = "\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1006h"
    private static let leaveAlternateScreen = "\u{1B}[?1049l"

    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// Three Ctrl-Z, then two `kill -TSTP` (the issue: after one Ctrl-Z the handler stayed at
    /// the default, and an outside SIGTSTP left the alternate screen and mouse reports on).
    /// The pty's process group has no job-control shell, so the kernel does not actually stop
    /// it (POSIX: an orphaned group ignores a default SIGTSTP): what is checked is what reaches
    /// the terminal on the way to the stop and back.
    @Test func everyCtrlZAndEveryOutsideSIGTSTPRestoresTheTerminalAndRedraws() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "plain"]).status == 0)
        // Each step waits for the last thing the resumed app writes: the task in the redrawn frame.
        let steps: [(String, String)] = [
            ("plain", "\\x1a"), ("plain", "\\x1a"), ("plain", "\\x1a"), ("plain", "!TSTP"), ("plain", "!TSTP"), ("plain", "\\x03"),
        ]
        let arguments = steps.flatMap { ["--step", $0.0, $0.1] }
        let run = runProcess(["python3", Self.capture] + arguments + ["--", HotTaskBinary.url.path, "--file", folder.storePath])
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout.suffix(400).debugDescription)")
        let text = run.stdout
        // Five suspends and the exit: each gives the terminal back.
        #expect(count(Self.modesOff, in: text) == 6, "mouse reports and bracketed paste off each time")
        #expect(count(Self.leaveAlternateScreen, in: text) >= 6, "the alternate screen left each time")
        // Each suspend is followed by the modes back on and a frame with the task.
        var rest = Substring(text)
        for suspend in 1...5 {
            let off = try #require(rest.range(of: Self.modesOff), "suspend \(suspend)")
            rest = rest[off.upperBound...]
            let on = try #require(rest.range(of: Self.modesOn), "resume \(suspend): modes back on")
            rest = rest[on.upperBound...]
            let frame = try #require(rest.range(of: "plain"), "resume \(suspend): redrawn")
            #expect(rest[..<frame.lowerBound].range(of: Self.modesOff) == nil, "resume \(suspend) came before the next suspend")
        }
    }
}

/// The same in tmux, under a job-control parent (Tests/Scripts/job_control.py) so that the app
/// really stops: while stopped, the pane is out of the alternate screen with mouse reports off;
/// after `fg` the list is back.
@Suite("Suspend and fg in tmux", .serialized)
struct SuspendInTmuxTests {
    private static let jobControl = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/job_control.py").path

    /// The app's process (the helper's command line names the store too).
    private func appProcess(_ session: TmuxSession) -> pid_t? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            for line in session.run(["pgrep", "-f", "--", "--file \(session.storePath)$"]).split(separator: "\n") {
                guard let pid = pid_t(line) else { continue }
                let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
                if name.hasPrefix("hottask") { return pid }
            }
            usleep(20_000)
        }
        return nil
    }

    private func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return nil
        }
        return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
    }

    private func state(of pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return nil
        }
        return stat[stat.index(close, offsetBy: 2)]
    }

    @Test func ctrlZAndOutsideSIGTSTPAnyNumberOfTimes() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk"], prefix: "python3 '\(Self.jobControl)'")
        session.waitForText("Buy milk")
        let app = try #require(appProcess(session))
        let helper = try #require(parent(of: app), "job_control.py, the app's parent")
        #expect(session.pane("#{alternate_on} #{mouse_standard_flag}") == "1 1")
        for (round, way) in ["C-z", "TSTP", "C-z", "TSTP", "TSTP"].enumerated() {
            if way == "TSTP" { kill(app, SIGTSTP) } else { session.press(way) }
            waitUntil("round \(round) (\(way)) stops the app") { state(of: app) == "T" }
            waitUntil("round \(round): the terminal is given back") {
                session.pane("#{alternate_on} #{mouse_standard_flag}") == "0 0"
            }
            kill(helper, SIGUSR1)  // fg
            waitUntil("round \(round): fg takes the screen again") {
                state(of: app) != "T" && session.pane("#{alternate_on} #{mouse_standard_flag}") == "1 1"
            }
            session.waitForText("Buy milk")
        }
        session.type("still here")
        session.waitForText("still here")
        session.expectScreenSnapshot()
        session.press("C-u", "C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
