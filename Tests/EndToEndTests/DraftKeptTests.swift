import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Half-typed text survives every way out of the real binary, and is back on the next start.
@Suite("The draft is kept, in tmux", .serialized)
struct DraftKeptTests {
    /// The draft files in the state folder.
    private func drafts(_ state: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: state + "/hottask")) ?? []).filter { $0.hasPrefix("draft-") }
    }

    @Test(arguments: ["C-c", "C-q", "q", "SIGTERM", "SIGHUP"])
    func typedTextSurvivesEveryWayOut(way: String) throws {
        let folder = TemporaryFolder()
        let state = folder.path("state")
        let first = try TmuxSession(seededCaptions: ["Buy milk"], environment: ["XDG_STATE_HOME": state])
        first.waitForText("Buy milk")
        first.type("half-typed \"idea\" \\ 🌱")
        first.waitForText("half-typed \"idea\"")
        switch way {
        case "SIGTERM", "SIGHUP":
            let pid = try #require(first.appProcessID())
            kill(pid, way == "SIGTERM" ? SIGTERM : SIGHUP)
        case "q":
            first.press("Tab")
            first.waitForText("› [ ] Buy milk")
            first.press("q")
        default:
            first.press(way)
        }
        #expect(first.waitForExit().contains("exited with 0"))
        let files = drafts(state)
        #expect(files.count == 1)
        let path = state + "/hottask/" + (files.first ?? "")
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600)

        let second = try TmuxSession(environment: ["XDG_STATE_HOME": state], storePath: first.storePath)
        let screen = second.waitForText("Restored the text you were typing")
        #expect(screen.contains("half-typed \"idea\" \\ 🌱"), "quotes and backslashes kept as typed")
        second.press("Enter")
        second.waitForStore("hold the restored text") { $0.contains("half-typed \\\"idea\\\" \\\\ 🌱") }
        // The same screen whichever way the first run ended: one file for every way.
        second.expectScreenSnapshot()
        second.press("C-c")
        #expect(second.waitForExit().contains("exited with 0"))
        #expect(drafts(state).isEmpty, "nothing left to keep: the draft file is gone")
    }

    @Test func aKilledRunKeepsWhatWasTypedAndNeverBringsBackTextAlreadyAdded() throws {
        let folder = TemporaryFolder()
        let state = folder.path("state")
        let first = try TmuxSession(seededCaptions: ["Buy milk"], environment: ["XDG_STATE_HOME": state])
        first.waitForText("Buy milk")
        first.type("typed before the kill")
        first.waitForText("typed before the kill")
        // The file follows the input a second after the first unsaved change, with no way out.
        waitUntil("the draft file holds the typed text") {
            drafts(state).contains { (fileText(state + "/hottask/" + $0) ?? "").contains("typed before the kill") }
        }
        kill(try #require(first.appProcessID()), SIGKILL)
        _ = first.waitForExit()

        let second = try TmuxSession(environment: ["XDG_STATE_HOME": state], storePath: first.storePath)
        second.waitForText("Restored the text you were typing")
        second.press("Enter")
        second.waitForStore("hold the restored text") { $0.contains("typed before the kill") }
        // Added: the file is emptied at once, so a kill now brings nothing back to add twice.
        waitUntil("the draft file is gone once its text was added") { drafts(state).isEmpty }
        kill(try #require(second.appProcessID()), SIGKILL)
        _ = second.waitForExit()

        let third = try TmuxSession(environment: ["XDG_STATE_HOME": state], storePath: first.storePath)
        let screen = third.waitForText("typed before the kill")
        #expect(!screen.contains("Restored"), "\(screen)")
        third.expectScreenSnapshot()
        third.press("C-c")
        #expect(third.waitForExit().contains("exited with 0"))
        let stored = fileText(first.storePath) ?? ""
        #expect(stored.components(separatedBy: "typed before the kill").count - 1 <= 1, "added once")
    }

    @Test func anOpenCaptionEditSurvivesQuitting() throws {
        let folder = TemporaryFolder()
        let state = folder.path("state")
        let first = try TmuxSession(seededCaptions: ["Buy milk", "Call mom"], environment: ["XDG_STATE_HOME": state])
        first.waitForText("Call mom")
        first.press("Tab", "e")
        first.type(" and bread")
        first.waitForText("Buy milk and bread")
        first.press("C-c")
        #expect(first.waitForExit().contains("exited with 0"))

        let second = try TmuxSession(environment: ["XDG_STATE_HOME": state], storePath: first.storePath)
        let screen = second.waitForText("Restored your unsaved edit")
        #expect(screen.contains("Buy milk and bread"))
        second.press("Enter")
        second.waitForStore("hold the edit") { $0.contains("Buy milk and bread") }
        second.expectScreenSnapshot()
        second.press("C-c")
        #expect(second.waitForExit().contains("exited with 0"))
        #expect(drafts(state).isEmpty)
    }
}
