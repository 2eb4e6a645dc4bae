import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 42's light terminals, in the real binary on a raw pty that answers like a terminal:
/// HotTask asks for the background at start (OSC 11) and takes the light palette on a white
/// one (dark text, completed tasks in a grey that still reads), the dark one on black; with no
/// answer, the terminal's own colours.
@Suite("The palette follows the terminal's background", .serialized)
struct BackgroundPaletteTests {
    private static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/pty_capture.py").path

    /// The bytes the UI wrote on a pty that answers its background query with `reply` (Python
    /// escapes) and then types `zq`, ending with Ctrl-C once that is on screen (so after the
    /// reply was taken); without a reply, once the completed task is on screen. `state`: the
    /// folder the UI remembers in (a new one unless given).
    private func bytes(
        answering reply: String?, term: String = "xterm-256color", environment: [String: String] = [:], arguments: [String] = [],
        state: String? = nil
    ) throws -> String {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "Filed taxes", "--add", "Buy milk"]).status == 0)
        #expect(runHotTask(["--file", folder.storePath, "--done", "2"]).status == 0)
        let steps = reply.map { ["--step", "\u{1B}]11;?", $0 + "zq", "--step", "zq", "\\x03"] } ?? ["--step", "Filed taxes", "\\x03"]
        let run = runProcess(
            ["python3", Self.capture, "--term", term] + steps + ["--", HotTaskBinary.url.path, "--file", folder.storePath] + arguments,
            // NO_COLOR empty: colours (the test runner sets it for its children).
            environment: ["XDG_STATE_HOME": state ?? folder.path("state"), "NO_COLOR": ""].merging(environment) { $1 })
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout.suffix(400).debugDescription)")
        return run.stdout
    }

    @Test func aWhiteBackgroundGetsTheLightPalette() throws {
        let output = try bytes(answering: "\\x1b]11;rgb:ffff/ffff/ffff\\x1b\\\\")
        #expect(output.contains("\u{1B}]11;?\u{1B}\\\u{1B}[c"), "it asks, then asks for the device attributes")
        #expect(output.contains("38;5;235m"), "dark text for open tasks")
        #expect(output.contains("38;5;242m"), "a readable grey for completed tasks")
        #expect(!output.contains("38;5;254m"), "not the dark palette's light text")
    }

    @Test func aBlackBackgroundGetsTheDarkPalette() throws {
        let output = try bytes(answering: "\\x1b]11;rgb:0000/0000/0000\\x07")
        #expect(output.contains("38;5;254m"), "light text for open tasks")
        #expect(output.contains("38;5;247m"), "a dimmer grey for completed tasks")
        #expect(!output.contains("38;5;235m"))
    }

    /// xterm's own TERM=xterm says 8 colours (no grey for completed tasks, which the issue saw
    /// on its white background); a terminal that answers OSC 11 has 256, and gets them.
    @Test func xtermsOwnTermStillGetsTheFixedColoursWhenItAnswers() throws {
        let output = try bytes(answering: "\\x1b]11;rgb:ffff/ffff/ffff\\x1b\\\\", term: "xterm")
        #expect(output.contains("38;5;235m") && output.contains("38;5;242m"), "the light palette's text and completed grey")
    }

    @Test func noAnswerKeepsTheTerminalsOwnColoursAndAThemeChoosesAnyway() throws {
        // A terminal that does not know OSC 11 answers only the device attributes.
        let unanswered = try bytes(answering: "\\x1b[?1;2c")
        #expect(!unanswered.contains("38;5;"), "no fixed colours: the terminal's own")
        let folder = TemporaryFolder()
        let config = folder.write("theme = \"light\"\n", to: "config.toml")
        let chosen = try bytes(answering: nil, arguments: ["--config", config])
        #expect(chosen.contains("38;5;235m"), "theme = \"light\" needs no answer")
        #expect(!chosen.contains("\u{1B}]11;?"), "and asks nothing")
    }

    /// Issue 49: the first frame waited up to 150 ms for a terminal that never answers. Now it
    /// is drawn first and the terminal is asked after it; the answer, when it comes, repaints.
    @Test func theFirstFrameIsDrawnBeforeTheTerminalIsAsked() throws {
        let output = try bytes(answering: "\\x1b]11;rgb:ffff/ffff/ffff\\x1b\\\\")
        let frame = try #require(output.range(of: "Filed taxes"))
        let question = try #require(output.range(of: "\u{1B}]11;?"))
        #expect(frame.lowerBound < question.lowerBound, "the frame, then the question")
        #expect(!output[..<question.lowerBound].contains("38;5;235m"), "no light palette before the answer")
        #expect(output[question.upperBound...].contains("38;5;235m"), "the light palette after it")
        // A terminal that never answers: the app runs as ever.
        let silent = try bytes(answering: nil)
        #expect(silent.contains("\u{1B}]11;?"))
        #expect(!silent.contains("38;5;"), "the terminal's own colours")
    }

    /// What a terminal said is remembered (by TERM and COLORFGBG): the next start's first
    /// frame has its palette before anything is asked, even where no answer comes this time.
    @Test func theNextStartsFirstFrameHasTheRememberedPalette() throws {
        let state = TemporaryFolder()
        _ = try bytes(answering: "\\x1b]11;rgb:ffff/ffff/ffff\\x1b\\\\", state: state.path)
        #expect(fileText(state.path("hottask/ui.toml"))?.contains("\"xterm-256color;\" = \"#ffffff\"") == true)
        let next = try bytes(answering: nil, state: state.path)
        let question = try #require(next.range(of: "\u{1B}]11;?"))
        #expect(next[..<question.lowerBound].contains("38;5;235m"), "the light palette in the first frame")
        // Another terminal (another COLORFGBG) has none remembered.
        let other = try bytes(answering: nil, environment: ["COLORFGBG": "0;15"], state: state.path)
        #expect(other.contains("\u{1B}]11;?"))
    }
}
