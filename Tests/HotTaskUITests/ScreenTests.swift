import Testing

@testable import HotTaskCore
@testable import HotTaskUI

@Suite("The screen at 80×24")
struct ScreenTests {
    @Test func anEmptyListInvitesTheFirstTask() {
        expectScreenSnapshot(makeState(), named: "ScreenTests.anEmptyListInvitesTheFirstTask")
    }

    @Test func sectionsProgressGaugeAndTheTypedText() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum"], bonus: ["Read a book"], completed: ["Buy milk"]))
        state.type("Walk the dog 🐕")
        expectScreenSnapshot(state, named: "ScreenTests.sectionsProgressGaugeAndTheTypedText")
        let grid = AppRender.render(state, size: state.size)
        #expect(grid.cursor?.x == 2 + 15, "after 'Walk the dog 🐕': 13 columns and a 2-column emoji")
        #expect(grid.cursor?.y == 1)
    }

    @Test func theAddMarkerLightsOnlyForTextThatWouldBeAdded() {
        var state = makeState()
        func markerStyle() -> CellStyle { AppRender.render(state, size: state.size)[75, 1].style }
        #expect(markerStyle() == .addDisabled)
        state.type("   ")
        #expect(markerStyle() == .addDisabled)
        state.type("x")
        #expect(markerStyle() == .addEnabled)
    }

    @Test func styleShowsSelectionFocusAndCompletion() {
        var state = makeState(makeList(priority: ["Open", "Done"], completed: ["Done"]))
        var grid = AppRender.render(state, size: state.size)
        #expect(grid[6, 4].style == .selectedInactive, "selection is shown softly while typing")
        #expect(grid[6, 5].style == .taskDone)
        state.press(.tab)
        grid = AppRender.render(state, size: state.size)
        #expect(grid[6, 4].style == .selected)
        #expect(grid[79, 4].style == .selected, "the highlight spans the row")
        #expect(grid.cursor == nil, "no cursor in the input while the list has focus")
        #expect(grid[0, 1].style == .promptInactive)
    }

    @Test func longCaptionsAreCutAtTheWidthWithAnEllipsis() {
        let long = String(repeating: "word ", count: 30) + "end"
        let wide = String(repeating: "漢", count: 50)
        let state = makeState(makeList(priority: [long, wide]))
        // One column stays free at the right edge; a wide character that does not fit goes whole.
        expectScreenSnapshot(state, named: "ScreenTests.longCaptionsAreCutAtTheWidthWithAnEllipsis")
    }

    @Test func wideCharactersTakeTwoCells() {
        let state = makeState(makeList(priority: ["日本 🥛 ok"]))
        let grid = AppRender.render(state, size: state.size)
        #expect(grid[6, 4].character == "日")
        #expect(grid.isCovered(x: 7, y: 4))
        #expect(grid[8, 4].character == "本")
        #expect(grid[11, 4].character == "🥛")
        #expect(grid.isCovered(x: 12, y: 4))
        #expect(grid[14, 4].character == "o")
    }

    /// Which cells a wide character covers comes from the character itself, so drawing over
    /// either half leaves no stale half: a narrow character over the left half uncovers the
    /// right one, and writing into the right half blanks the left one.
    @Test func overdrawingHalfAWideCharacterLeavesNoStaleHalf() {
        var grid = Grid(size: Size(width: 10, height: 2))
        grid.put("漢字漢", x: 0, y: 0, style: .plain)
        grid.put("a", x: 0, y: 0, style: .plain)
        #expect(grid.line(0) == "a 字漢")
        #expect(!grid.isCovered(x: 1, y: 0))
        grid.put("漢字漢", x: 0, y: 1, style: .plain)
        grid.put("|b", x: 3, y: 1, style: .plain)
        // 字 lost its right half to | and the last 漢 its left half to b: both are gone, and
        // every column from 2 on holds what was written there or a blank.
        #expect(grid.line(1) == "漢 |b")
        #expect(grid.isCovered(x: 1, y: 1) && !grid.isCovered(x: 3, y: 1) && !grid.isCovered(x: 5, y: 1))
    }

    /// The help box drawn over rows of CJK captions keeps both its borders in place.
    @Test func theHelpBoxOverWideCharactersKeepsItsColumns() {
        var state = makeState(makeList(priority: (1...12).map { _ in String(repeating: "漢字", count: 30) }))
        state.press(.tab, .function(1))
        let grid = AppRender.render(state, size: state.size)
        let boxRows = grid.lines.enumerated().filter { $0.element.contains("│") }
        #expect(boxRows.count > 5)
        for (y, _) in boxRows {
            // The right border's last row is ▼ when the help scrolls.
            let columns = (0..<grid.size.width).filter { !grid.isCovered(x: $0, y: y) && ["│", "▼"].contains(grid[$0, y].character) }
            #expect(columns.count == 2, "row \(y): \(grid.line(y))")
            #expect(
                columns
                    == boxRows.first.map { row in
                        (0..<grid.size.width).filter { !grid.isCovered(x: $0, y: row.offset) && grid[$0, row.offset].character == "│" }
                    })
        }
    }

    @Test func longInputScrollsSidewaysAndKeepsTheCursorVisible() {
        var state = makeState()
        let text = (1...40).map { "w\($0)" }.joined(separator: " ")
        state.type(text)
        var grid = AppRender.render(state, size: state.size)
        let fieldEnd = 80 - 6 - 1
        #expect(grid.cursor!.x < fieldEnd)
        #expect(grid.line(1).contains("w40"))
        #expect(!grid.line(1).contains("w1 "))
        state.press(.home)
        grid = AppRender.render(state, size: state.size)
        #expect(grid.cursor!.x == 2)
        #expect(grid.line(1).hasPrefix("+ w1 w2"))
    }

    @Test func aThousandTasksDrawOnlyWhatFitsAndTheInputStays() {
        var state = makeState(makeList(priority: numberedTasks(1_000)))
        state.type("half typed")
        for _ in 0..<30 { state.press(.pageDown) }
        expectScreenSnapshot(state, named: "ScreenTests.aThousandTasksDrawOnlyWhatFitsAndTheInputStays")
    }

    @Test(arguments: [Size(width: 23, height: 24), Size(width: 80, height: 5), Size(width: 1, height: 1), Size(width: 0, height: 0)])
    func aTooSmallTerminalGetsOneClearLine(size: Size) {
        var state = makeState(makeList(priority: ["A"]), size: size)
        state.type("kept")
        let grid = AppRender.render(state, size: size)
        if size.height > 0 {
            // Whole words that fit, never a cut-off "(23×".
            let wordings = [
                "Terminal too small (\(size.width)×\(size.height)); HotTask needs 24×6",
                "Too small: \(size.width)×\(size.height), needs 24×6", "\(size.width)×\(size.height) < 24×6", "Too small", "Small", "",
            ]
            #expect(wordings.contains(grid.line(0)), "\(grid.line(0))")
        }
        #expect(grid.cursor == nil)
        #expect(state.input.text == "kept")
    }

    @Test func theSmallestSupportedSizeStillShowsInputListAndFooter() {
        var state = makeState(makeList(priority: ["A task"], bonus: ["B"]), size: Size(width: 24, height: 6))
        state.type("typing")
        expectScreenSnapshot(state, named: "ScreenTests.theSmallestSupportedSizeStillShowsInputListAndFooter")
    }

    /// Issue 48: at 40×12 an open caption edit looked like the selected row, and the due and
    /// repeat prompts' keys did not say what they set. The footer names what the keys do.
    @Test func atFortyByTwelveTheFooterSaysWhichPromptIsOpen() {
        var state = makeState(makeList(priority: ["Buy milk", "Call mum", "Pay rent"], bonus: ["Someday"]), size: Size(width: 40, height: 12))
        state.press(.function(2))
        expectScreenSnapshot(state, named: "ScreenTests.atFortyByTwelveTheFooterSaysWhichPromptIsOpen")
        state.press(.escape, .tab, .character("w"))
        expectScreenSnapshot(state, named: "ScreenTests.atFortyByTwelveTheFooterSaysWhichPromptIsOpen-2")
        state.press(.escape, .character("r"))
        expectScreenSnapshot(state, named: "ScreenTests.atFortyByTwelveTheFooterSaysWhichPromptIsOpen-3")
    }
}
