import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 42's defects of daily use, each in the real binary in tmux: the footer's keys, a config
/// with problems, the due column, and the mouse.
@Suite("Daily use in tmux", .serialized)
struct DailyUseTmuxTests {
    /// SGR mouse reports of the left button pressed and released at a 0-based cell, `times`
    /// clicks in one write.
    private func click(_ session: TmuxSession, column: Int, row: Int, times: Int = 1) {
        let report = "\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m"
        session.send(bytes: Array(String(repeating: report, count: times).utf8))
    }

    @Test func theListFooterShowsDueMoveAndClearAt80Columns() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk", "Call mum"])
        session.waitForText("Call mum")
        session.press("Tab")
        let footer = session.waitForText("Tab input").components(separatedBy: "\n")[23]
        #expect(footer == "Tab input  Space done  e edit  w due  m move  d delete  C clear  u undo  ? help")
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    @Test func aBadThemeDropsOnlyItselfAndEveryProblemIsListedAndUnderTheHelp() throws {
        let folder = TemporaryFolder()
        let config = folder.write("theme = \"drak\"\ndefault_section = \"bonus\"\nmouse = maybe\n", to: "config.toml")
        let session = try TmuxSession(seededCaptions: ["Buy milk"], arguments: ["--config", config])
        let screen = session.waitForText("The config file has 2 problems")
        #expect(screen.contains("│ config.toml line 1: theme must be \"auto\", \"dark\", \"light\" or \"mono\", not"))
        #expect(screen.contains("│ config.toml line 3: maybe is not a value; strings need quotes; line skipped"))
        // default_section = "bonus" still holds: the new task goes to Bonus.
        session.type("Walk the dog")
        session.press("Enter")
        session.waitForStore("hold the new task") { $0.contains("Walk the dog") }
        let added = try #require(try TaskStore(path: session.storePath).load().all.first { $0.caption == "Walk the dog" })
        #expect(added.section == .bonus)
        session.press("F1")
        session.waitForText("Config config.toml line 1: theme must be")
        session.press("Escape")
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    @Test func theDueColumnKeepsTwoColumnsFromACutCaptionAndStaysNearOnAWideScreen() throws {
        let session = try TmuxSession(
            seededCaptions: ["Return the library books before the fine doubles again and again and again", "Pay rent"],
            environment: ["NO_COLOR": "1"])
        session.waitForText("Pay rent")
        for caption in ["Return the library books", "Pay rent"] {
            let due = runHotTask(["--file", session.storePath, "--edit", caption == "Pay rent" ? "2" : "1", "--due", "2000-01-05"])
            #expect(due.status == 0, "\(due.stderr)")
        }
        let narrow = session.waitForText("! 2000-01-05")
        #expect(narrow.components(separatedBy: "\n").contains { $0.hasSuffix("again and…  ! 2000-01-05") }, "\(narrow)")
        session.resize(width: 200, height: 24)
        let wide = session.waitForScreen("the wide layout") { $0.contains(" Pay rent") && !$0.contains("again and…") }
        let row = try #require(wide.components(separatedBy: "\n").first { $0.contains("Pay rent") })
        #expect(row.hasSuffix("! 2000-01-05") && row.count == 100, "the date ends at column 100: |\(row)|")
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    @Test func theSelectionBarIsUnbrokenThroughTheDate() throws {
        // In colour (the test runner sets NO_COLOR for its children; empty, it asks for none).
        let session = try TmuxSession(seededCaptions: ["Pay rent"], environment: ["NO_COLOR": ""])
        session.waitForText("Pay rent")
        #expect(runHotTask(["--file", session.storePath, "--edit", "1", "--due", "2000-01-05"]).status == 0)
        session.waitForText("! 2000-01-05")
        session.press("Tab")
        session.waitForText("Tab input")
        // The row as tmux keeps it, attributes included: after the bar's background starts, no
        // attribute resets it (a reset, or the default background) until the end of the row.
        let styled = try #require(session.styledScreen.components(separatedBy: "\n").first { $0.contains("Pay rent") })
        let start = try #require(styled.range(of: "44m") ?? styled.range(of: "48;5;"), "the bar has a background: \(styled.debugDescription)")
        let rest = styled[start.upperBound...]
        #expect(!rest.contains("[0m") && !rest.contains("[49m") && !rest.contains(";49m"), "\(styled.debugDescription)")
        #expect(rest.contains("! 2000-01-05"))
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    @Test func clicksToggleACheckboxSortByALabelAndEditOnADoubleClick() throws {
        let session = try TmuxSession(seededCaptions: ["b second", "a first"])
        session.waitForText("a first")
        // Rows: 3 Top Priority, 4 b second, 5 a first. The checkbox of "a first": columns 2 to 4.
        click(session, column: 3, row: 5)
        session.waitForText("[x] a first")
        session.waitForStore("have a first done") { $0.contains(#""completed": true"#) }
        // A–Z in the view bar.
        let bar = session.lines[2]
        let column = bar[..<(try #require(bar.range(of: "A–Z"))).lowerBound].count  // every character one column
        click(session, column: column + 1, row: 2)
        session.waitForText("[A–Z]")
        session.waitForScreen("the list sorted A–Z") { $0.contains("[x] a first\n  [ ] b second") }
        // A double-click on a caption opens its editor. Both clicks in one write: two tmux
        // commands can be further apart than the 0.4 s a double-click may take on a busy machine.
        click(session, column: 10, row: 5, times: 2)
        session.waitForText("Enter save")
        session.press("Escape")
        session.waitForText("Edit cancelled")
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }
}
