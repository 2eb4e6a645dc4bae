import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Filter, undo, edit and reorder in the real binary, in tmux.
@Suite("Find and organize in tmux", .serialized)
struct FindAndOrganizeTests {
    private func storedCaptions(_ session: TmuxSession) throws -> [String] {
        try TaskStore(path: session.storePath).load().all.map(\.caption)
    }

    @Test func filteringFindsMatchesFarDownTheListAndEscRestores() throws {
        let captions = (1...120).map { [3, 57, 118].contains($0) ? "Café visit \($0)" : "Task \($0)" }
        let session = try TmuxSession(seededCaptions: captions)
        session.waitForText("Task 1")
        session.type("draft")
        session.press("Tab", "PageDown")
        session.waitForText("› [ ] Task 20")
        session.press("/")
        session.type("caf")
        // The whole expected frame, not a part of it: tmux can be read while a frame is drawn.
        let screen = session.waitForScreen("the three Café tasks and nothing else") {
            $0.contains("Café visit 118") && $0.contains("Top Priority (3 of 120)") && $0.contains("/ caf")
                && !$0.contains("[ ] Task ")
        }
        #expect(screen.contains("› [ ] Café visit 3"), "the first match is selected")
        #expect(screen.contains("Café visit 57"))
        #expect(!screen.contains("[ ] Task "), "nothing else is shown")
        #expect(screen.contains("+ draft"), "the new-task input keeps its text")
        session.press("Escape")
        let restored = session.waitForScreen("the whole list and the selection from before") {
            $0.contains("› [ ] Task 20") && $0.contains("20/120")
        }
        #expect(!restored.contains("/ caf"))
        session.expectScreenSnapshot()
    }

    @Test func deleteThenUndoPutsTheTaskBackInTheFile() throws {
        let session = try TmuxSession(seededTasks: 3)
        session.waitForText("Task 3")
        session.press("Tab", "Down", "d")
        session.waitForText("Deleted “Task 2” — u to undo")
        session.waitForStore("drop Task 2") { !$0.contains("Task 2") }
        session.press("u")
        session.waitForText("Undone: Deleted “Task 2”")
        session.waitForStore("hold Task 2 again") { $0.contains("Task 2") }
        #expect(try storedCaptions(session) == ["Task 1", "Task 2", "Task 3"])
        session.press("C-r")
        session.waitForStore("drop Task 2 again") { !$0.contains("Task 2") }
        session.expectScreenSnapshot()
    }

    @Test func anEditToWhitespaceIsRefusedAndAGoodEditIsSaved() throws {
        let session = try TmuxSession(seededTasks: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: session.storePath))
        session.waitForText("Task 1")
        session.press("Tab", "e", "C-u")
        session.type("   ")
        session.press("Enter")
        session.waitForText("A task needs some text")
        #expect(try Data(contentsOf: URL(fileURLWithPath: session.storePath)) == before)
        session.type("Buy oat milk")
        session.press("Enter")
        session.waitForText("› [ ] Buy oat milk")
        session.waitForStore("hold the new caption") { $0.contains("Buy oat milk") }
        #expect(try storedCaptions(session) == ["Buy oat milk"])
        session.expectScreenSnapshot()
    }

    @Test func aReorderIsInTheFile() throws {
        let session = try TmuxSession(seededTasks: 3)
        session.waitForText("Task 3")
        session.press("Tab", "S-Down")
        session.waitForStore("put Task 1 second") { _ in (try? storedCaptions(session)) == ["Task 2", "Task 1", "Task 3"] }
        session.press("J")
        session.waitForStore("put Task 1 last") { _ in (try? storedCaptions(session)) == ["Task 2", "Task 3", "Task 1"] }
        session.press("J")
        session.waitForText("Bonus (1)")
        session.waitForStore("move Task 1 into Bonus") { $0.contains("\"bonus\"") }
        let list = try TaskStore(path: session.storePath).load()
        #expect(list.priority.map(\.caption) == ["Task 2", "Task 3"])
        #expect(list.bonus.map(\.caption) == ["Task 1"])
        session.expectScreenSnapshot()
    }
}
