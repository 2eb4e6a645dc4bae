import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The due-date prompt in the real binary, in tmux, without colour (NO_COLOR).
@Suite("Due dates in the terminal UI", .serialized)
struct DueTerminalTests {
    @Test func wSetsADueDateOverdueIsUnderlinedWithoutColourAndEscCancels() throws {
        let session = try TmuxSession(seededTasks: 2, environment: ["TZ": "Europe/Berlin", "NO_COLOR": "1"])
        session.waitForText("Task 2")
        session.press("Tab", "w")
        session.waitForText("› [ ] Task 1  Due: ")
        session.type("2000-01-05")
        session.waitForText("→ 2000-01-05")
        session.press("Enter")
        session.waitForScreen("Task 1 overdue at the right") { screen in
            screen.components(separatedBy: "\n").contains {
                $0.hasPrefix("› [ ] Task 1") && $0.trimmingCharacters(in: .whitespaces).hasSuffix("! 2000-01-05")
            }
        }
        session.waitForStore("hold the due date") { $0.contains(#""due": "2000-01-05""#) }
        // Without colour the overdue date is still marked: bold and underlined.
        session.press("Down")
        session.waitForText("› [ ] Task 2")
        let row = try #require(session.styledScreen.components(separatedBy: "\n").first { $0.contains("2000-01-05") })
        #expect(row.contains("\u{1B}[4m") || row.contains(";4m") || row.contains("[4;"), "underlined: \(row.debugDescription)")
        #expect(!row.contains("\u{1B}[31m") && !row.contains(";31m"), "no colour under NO_COLOR: \(row.debugDescription)")

        // The old date is selected: what is typed replaces it, in words people say.
        session.press("w")
        session.waitForText("› [ ] Task 2  Due: ")
        session.type("tomorrow 9:00")
        session.waitForText("→ tomorrow 09:00 (")
        session.press("C-u")
        session.type("tomorrow")
        session.waitForText("→ tomorrow (")
        session.press("Enter")
        session.waitForScreen("Task 2 due tomorrow") { screen in
            screen.components(separatedBy: "\n").contains {
                $0.hasPrefix("› [ ] Task 2") && $0.trimmingCharacters(in: .whitespaces).hasSuffix("tomorrow")
            }
        }
        // A bad entry is shown as such and Esc leaves the date as it was.
        session.press("w")
        session.type("x")
        session.waitForText("✗ not a due date")
        session.press("Escape")
        session.waitForText("Due date unchanged")
        let list = try TaskStore(path: session.storePath).load()
        #expect(list.all.first { $0.caption == "Task 2" }?.due != nil)
        #expect(list.all.first { $0.caption == "Task 1" }?.due == .date(year: 2000, month: 1, day: 5))
        session.expectScreenSnapshot()
    }
}
