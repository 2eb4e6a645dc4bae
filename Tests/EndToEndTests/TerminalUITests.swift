import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The real binary driven in tmux, as a person would use it.
@Suite("Terminal UI in tmux", .serialized)
struct TerminalUITests {
    private func storedCaptions(_ session: TmuxSession) throws -> [String] {
        try TaskStore(path: session.storePath).load().all.map(\.caption)
    }

    @Test func typingAndEnterPutsTheTaskOnTopAndIntoTheFile() throws {
        let session = try TmuxSession(seededTasks: 2)
        session.waitForText("Task 2")
        session.type("  Buy milk  ")
        session.waitForText("+   Buy milk")
        session.press("Enter")
        session.waitForText("› [ ] Buy milk")
        session.waitForStore("hold Buy milk") { $0.contains("\"Buy milk\"") }
        #expect(try storedCaptions(session) == ["Buy milk", "Task 1", "Task 2"])
        session.waitForScreen("the input cleared and the summary updated") {
            $0.contains("Type a new task") && $0.contains("Get started - 3 to go!")
        }
        session.expectScreenSnapshot()
    }

    @Test func whitespaceOnlyIsRefusedAndNothingIsSaved() throws {
        let session = try TmuxSession(seededTasks: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: session.storePath))
        session.waitForText("Task 1")
        session.type("    ")
        session.press("Enter")
        session.waitForText("Nothing to add — type a task first")
        session.expectScreenSnapshot()
        session.press("C-c")
        session.waitForText("exited with 0")
        #expect(try Data(contentsOf: URL(fileURLWithPath: session.storePath)) == before)
    }

    @Test func theListScrollsWhileTheInputKeepsWhatWasTyped() throws {
        let session = try TmuxSession(seededTasks: 200)
        session.waitForText("Task 1")
        session.type("half typed")
        session.press("PageDown", "PageDown", "Down", "Down")
        // Wait for the whole frame: tmux can be read while one is drawn.
        let screen = session.waitForScreen("the selection to reach Task 41") {
            $0.contains("› [ ] Task 41") && $0.contains("41/200") && $0.contains("+ half typed") && !$0.contains("Task 1\n")
        }
        #expect(!screen.contains("Task 1\n"), "the top of the list has scrolled away")
        #expect(screen.contains("+ half typed"))
        #expect(screen.contains("41/200"))
        session.type(" more")
        session.waitForText("+ half typed more")
        session.press("Enter")
        session.waitForStore("hold the typed task") { $0.contains("half typed more") }
        session.waitForText("› [ ] half typed more")
        session.expectScreenSnapshot()
    }

    @Test func resizingKeepsTheInputRowAndItsText() throws {
        let session = try TmuxSession(seededTasks: 30)
        session.waitForText("Task 1")
        session.type("still here")
        session.press("Down", "Down", "Down")
        session.resize(width: 40, height: 12)
        let small = session.waitForScreen("a 40-column layout") { $0.contains("+ still here") && $0.contains("[Add]") && $0.contains("4/30") }
        #expect(small.components(separatedBy: "\n").allSatisfy { $0.count <= 40 })
        #expect(small.contains("› [ ] Task 4"))
        session.resize(width: 20, height: 5)
        session.waitForText("20×5 < 24×6")
        session.resize(width: 100, height: 30)
        session.waitForScreen("the input back after a tiny window") { $0.contains("+ still here") && $0.contains("› [ ] Task 4") }
        session.expectScreenSnapshot()
    }

    @Test func emojiAndWideTextAreShownAndSaved() throws {
        let session = try TmuxSession()
        session.waitForText("It's lonely here")
        session.type("Buy milk 🥛 牛乳")
        session.waitForText("+ Buy milk 🥛 牛乳")
        session.press("Enter")
        session.waitForText("› [ ] Buy milk 🥛 牛乳")
        session.waitForStore("hold the emoji caption") { $0.contains("Buy milk 🥛 牛乳") }
        #expect(try storedCaptions(session) == ["Buy milk 🥛 牛乳"])
        session.expectScreenSnapshot()
    }

    @Test func listKeysCompleteMoveAndDeleteAndEveryChangeIsSaved() throws {
        let session = try TmuxSession(seededTasks: 3)
        session.waitForText("Task 3")
        session.press("Tab", "Space")
        session.waitForText("› [x] Task 1")
        session.waitForStore("mark Task 1 completed") { $0.contains("\"completed\": true") }
        session.press("Down", "m")
        session.waitForText("Moved “Task 2” to Bonus")
        session.waitForStore("put Task 2 in Bonus") { $0.contains("\"bonus\"") }
        session.press("Up", "d")
        session.waitForText("Deleted “Task 3”")
        session.waitForStore("drop Task 3") { !$0.contains("Task 3") }
        let list = try TaskStore(path: session.storePath).load()
        #expect(list.priority.map(\.caption) == ["Task 1"])
        #expect(list.bonus.map(\.caption) == ["Task 2"])
        session.waitForText("1 down 1 to go!")
        session.expectScreenSnapshot()
    }

    @Test func ctrlCLeavesARestoredTerminal() throws {
        let session = try TmuxSession()
        session.waitForText("It's lonely here")
        session.press("C-c")
        let screen = session.waitForExit()
        #expect(screen.contains("exited with 0"))
        #expect(!screen.contains("-icanon"), "canonical input is back")
        #expect(!screen.contains("-echo"), "echo is back")
        // The shell's screen after the app: its exit status and the modes stty reports.
        session.expectScreenSnapshot()
    }

    @Test(arguments: ["TERM", "HUP"])
    func terminationSignalsRestoreTheTerminal(signal: String) throws {
        let session = try TmuxSession()
        session.waitForText("It's lonely here")
        let pid = try #require(session.appProcessID())
        #expect(runProcess(["kill", "-\(signal)", "\(pid)"]).status == 0)
        let screen = session.waitForExit()
        #expect(!screen.contains("-icanon"), "canonical input is back")
        #expect(!screen.contains("-echo"), "echo is back")
        session.expectScreenSnapshot()  // the same screen for either signal
    }

    @Test(arguments: ["xterm-256color", "screen", "linux", "vt100"])
    func worksUnderCommonTerminalTypes(term: String) throws {
        let session = try TmuxSession(seededTasks: 2, term: term, environment: ["NO_COLOR": term == "vt100" ? "1" : ""])
        session.waitForText("Task 2")
        session.type("typed")
        session.press("Enter")
        session.waitForText("› [ ] typed")
        session.expectScreenSnapshot(named: "worksUnderCommonTerminalTypes-\(term)")
        session.press("C-q")
        session.waitForText("exited with 0")
        #expect(try storedCaptions(session) == ["typed", "Task 1", "Task 2"])
    }

    /// `v` in the list shows when each task was added and done under it, and hides it again;
    /// the choice is remembered for the next start (in XDG_STATE_HOME, not the config file).
    @Test func vShowsWhenEachTaskWasAddedAndTheChoiceIsRemembered() throws {
        func detailLines(_ screen: String) -> Int { screen.split(separator: "\n").filter { $0.hasPrefix("      added ") }.count }
        let session = try TmuxSession(seededCaptions: ["Buy milk", "Call mom"])
        session.waitForText("Call mom")
        session.press("Tab")
        session.type("v")
        session.waitForScreen("a details line under each task") { detailLines($0) == 2 }
        session.type(" ")
        let screen = session.waitForText("· done just now")
        let lines = screen.split(separator: "\n").map(String.init)
        let milk = try #require(lines.firstIndex { $0.contains("[x] Buy milk") })
        #expect(lines[milk + 1].hasPrefix("      added ") && lines[milk + 1].hasSuffix(" · done just now"))
        #expect(lines[milk + 2].contains("[ ] Call mom"))
        // The flow's one whole screen: the details on, under a task done just now.
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
        let state = session.folder.path("state")
        #expect(try String(contentsOfFile: state + "/hottask/ui.toml", encoding: .utf8).contains("details = true"))

        let again = try TmuxSession(environment: ["XDG_STATE_HOME": state], storePath: session.storePath)
        again.waitForScreen("details remembered") { detailLines($0) == 2 }
        again.press("Tab")
        again.type("v")
        again.waitForScreen("details hidden") { detailLines($0) == 0 && $0.contains("Call mom") }
        again.press("C-c")
        #expect(again.waitForExit().contains("exited with 0"))

        let third = try TmuxSession(environment: ["XDG_STATE_HOME": state], storePath: session.storePath)
        let plain = third.waitForText("Call mom")
        #expect(detailLines(plain) == 0, "off is remembered too")
        third.press("C-c")
        third.waitForExit()
    }
}
