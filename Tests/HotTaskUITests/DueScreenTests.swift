import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Due dates on the screen and the due-date prompt. `testNow` is Wednesday 2026-11-18, 12:06 in
/// Berlin.
@Suite("Due dates in the list")
struct DueScreenTests {
    static let berlin = ZoneInfo(identifier: "Europe/Berlin")!

    func dated(_ size: Size = Size(width: 80, height: 24)) -> AppState {
        func day(_ d: Int, _ m: Int = 11) -> DueDate { .date(year: 2026, month: m, day: d)! }
        let tasks = [
            TaskItem(caption: "Pay rent", createdAt: testNow, due: day(20)),
            TaskItem(caption: "Return the library books before the fine doubles again", createdAt: testNow, due: day(10)),
            TaskItem(caption: "Call mum", createdAt: testNow, due: day(18)),
            TaskItem(
                caption: "Dentist", createdAt: testNow, due: .time(year: 2026, month: 12, day: 24, hour: 9, minute: 30, zone: .named("Europe/Berlin"))
            ),
            TaskItem(caption: "Someday", section: .bonus, createdAt: testNow),
            TaskItem(caption: "Filed taxes", section: .bonus, completed: true, createdAt: testNow, due: day(1)),
        ]
        var state = makeState(TaskList(tasks), size: size)
        state.zone = Self.berlin
        return state
    }

    /// The forms the prompt takes, wrapped at 80 columns above the footer.
    static let formsRows = [
        " Forms: YYYY-MM-DD, today, tomorrow, fri or friday, next fri, eow, eom, eoy, in",
        " N days, in N weeks, Nd, Nw, dec 1, 1 dec, any of them with a time (tomorrow",
        " 9:00), or none",
    ]

    func listRows(_ state: AppState) -> [String] {
        Array(AppRender.render(state, size: state.size).lines[3..<12])
    }

    @Test func theDateIsRightAlignedAndTheCaptionIsCutBeforeIt() {
        // One column stays free at the right edge, as on the input row.
        #expect(
            listRows(dated()) == [
                "Top Priority (4)",
                "› [ ] Pay rent                                                              Fri",
                "  [ ] Return the library books before the fine doubles again       ! 2026-11-10",
                "  [ ] Call mum                                                            today",
                "  [ ] Dentist                                                  2026-12-24 09:30",
                "",
                "Bonus (2)",
                "  [ ] Someday",
                "  [x] Filed taxes                                                    2026-11-01",
            ])
        #expect(
            listRows(dated(Size(width: 40, height: 24))) == [
                "Top Priority (4)",
                "› [ ] Pay rent                      Fri",
                "  [ ] Return the library…  ! 2026-11-10",
                "  [ ] Call mum                    today",
                "  [ ] Dentist          2026-12-24 09:30",
                "",
                "Bonus (2)",
                "  [ ] Someday",
                "  [x] Filed taxes            2026-11-01",
            ])
        // At the narrowest width the date is whole and the caption gives way.
        let narrow = listRows(dated(Size(width: 24, height: 24)))
        #expect(narrow[2] == "  [ ] Re…  ! 2026-11-10", "two columns between a cut caption and its date")
        #expect(narrow[4] == "  [ ]  2026-12-24 09:30")
    }

    @Test func overdueIsMarkedBeyondColourAndTodayToo() {
        let grid = AppRender.render(dated(), size: Size(width: 80, height: 24))
        // "! 2026-11-10" takes columns 67 to 78 of row 5.
        #expect((67...78).allSatisfy { grid[$0, 5].style == .overdue })
        #expect(grid[78, 6].style == .dueToday)
        #expect(grid[78, 4].style == .due)
        // A completed task is never overdue.
        #expect(grid[78, 11].style == .taskDone)
    }

    @Test func thePromptShowsWhatTheEntryReadsAsAndEnterSetsIt() {
        var state = dated()
        state.press(.tab)
        let payRent = state.tasks[0].id
        state.expectPress(.character("w")) { next in
            next.editor = LineEditor("2026-11-20", selected: true)  // the prompt starts with the date it has, selected
            next.editingTaskID = payRent
            next.focus = .due
            return []
        }
        // Typing replaces the selected date.
        state.type("mon")
        expectScreenSnapshot(state, named: "DueScreenTests.thePromptShowsWhatTheEntryReadsAsAndEnterSetsIt")
        state.type("s")
        expectScreenSnapshot(state, named: "DueScreenTests.thePromptShowsWhatTheEntryReadsAsAndEnterSetsIt-2")
        #expect(state.press(.enter).isEmpty, "a bad entry saves nothing")
        #expect(state.focus == .due)
        #expect(state.message?.text.contains("“mons” is not a due date") == true)
        state.press(.backspace)
        let monday = state.tasks.dating(at: 0, to: .date(year: 2026, month: 11, day: 23))!
        let effects = state.expectPress(.enter) { next in
            next.tasks.apply(monday, clock: .zero, force: true)
            next.focus = .list
            return next.committing([monday], "Due Mon: “Pay rent”")
        }
        #expect(savedChanges(effects) == [monday])
        #expect(state.tasks[0].due == .date(year: 2026, month: 11, day: 23))
        expectScreenSnapshot(state, named: "DueScreenTests.thePromptShowsWhatTheEntryReadsAsAndEnterSetsIt-3")
    }

    @Test func escapeCancelsAndAnEmptyEntryClears() {
        var state = dated()
        state.press(.tab, .character("w"))
        state.type("+1w")
        let effects = state.expectPress(.escape) { next in
            next.focus = .list
            next.message = Message("Due date unchanged")
            return []
        }
        #expect(effects.isEmpty)
        #expect(state.tasks[0].due == .date(year: 2026, month: 11, day: 20))
        state.press(.character("w"))
        state.press(.backspace)  // clears the selected date
        expectScreenSnapshot(state, named: "DueScreenTests.escapeCancelsAndAnEmptyEntryClears")
        let cleared = state.press(.enter)
        #expect(savedChanges(cleared).count == 1)
        #expect(state.tasks[0].due == nil)
        // And undo brings it back.
        state.press(.character("u"))
        #expect(state.tasks[0].due == .date(year: 2026, month: 11, day: 20))
    }

    @Test func sortingByDueShowsTheSoonestFirstAndTheUndatedLast() {
        var state = dated()
        state.press(.tab)
        while state.view.sort != .due { state.press(.character("s")) }
        let rows = listRows(state).map { row in row.range(of: "] ").map { String(row[$0.upperBound...].prefix { $0 != " " }) } ?? row }
        #expect(rows[1...4] == ["Return", "Call", "Pay", "Dentist"])
        #expect(KeyHelp.entries(for: .list).contains { $0.keys == "w / r" && $0.action == "set or clear the due date / repeat rule" })
    }

    @Test func theOldDateIsSelectedSoTypingReplacesItAndAnArrowKeepsItToEdit() {
        var state = dated()
        state.press(.tab, .character("w"))
        #expect(state.editor.text == "2026-11-20" && state.editor.isAllSelected)
        let grid = AppRender.render(state, size: state.size)
        // "2026-11-20" after "› [ ] Pay rent  Due: " is drawn selected.
        #expect((21..<31).allSatisfy { grid[$0, 4].style == .editSelection })
        #expect(grid[31, 4].style == .editField)
        state.type("fri")
        #expect(state.editor.text == "fri")
        // Ctrl-_ takes the typing back to the old date.
        state.press(.control("_"), .control("_"))
        #expect(state.editor.text == "2026-11-20")
        state.press(.escape, .character("w"), .end)
        #expect(!state.editor.isAllSelected)
        state.press(.backspace, .backspace)
        state.type("30")
        #expect(state.editor.text == "2026-11-30")
        state.press(.enter)
        #expect(state.tasks[0].due == .date(year: 2026, month: 11, day: 30))
    }

    /// Issue 48: ← in the pre-filled prompt stepped back from the end, the cursor inside the old
    /// date as if it split it. Now it goes before the whole date, as in a text field.
    @Test func leftInThePrefilledPromptKeepsTheDateWholeWithTheCursorBeforeIt() {
        var state = dated()
        state.press(.tab, .character("w"), .left)
        #expect(state.editor.text == "2026-11-20" && !state.editor.isAllSelected && state.editor.cursor == 0)
        expectScreenSnapshot(state, named: "DueScreenTests.leftInThePrefilledPromptKeepsTheDateWholeWithTheCursorBeforeIt")
        let grid = AppRender.render(state, size: state.size)
        #expect(grid.cursor?.x == 21 && grid.cursor?.y == 4, "the cursor stands before the date")
        #expect((21..<31).allSatisfy { grid[$0, 4].style == .editField }, "no longer selected")
        // From there the date is edited, not replaced: the month changed in place.
        for _ in 0..<6 { state.press(.right) }
        state.press(.delete)
        state.type("2")
        #expect(state.editor.text == "2026-12-20")
        state.press(.enter)
        #expect(state.tasks[0].due == .date(year: 2026, month: 12, day: 20))
        // F3 from the input row opens the same prompt: ← there keeps the date whole too.
        state.press(.tab, .function(3), .left)
        #expect(state.focus == .due && state.editor.text == "2026-12-20" && state.editor.cursor == 0)
    }

    @Test func aLongCaptionGivesTheEntryRoomAndTheFormsGoAboveAPromptAtTheBottom() {
        var state = dated()
        state.press(.tab, .down, .character("w"))
        #expect(
            AppRender.render(state, size: state.size).lines[5]
                == "› [ ] Return the library book…  Due: 2026-11-10                    → 2026-11-10")
        // A prompt on one of the last rows keeps its row; the forms go above it.
        var short = dated(Size(width: 80, height: 14))
        short.press(.tab)
        for _ in 0..<5 { short.press(.down) }
        short.press(.character("w"))
        let lines = AppRender.render(short, size: short.size).lines
        let prompt = lines.firstIndex { $0.hasPrefix("› [x] Filed taxes  Due:") }
        #expect(prompt != nil)
        if let prompt { #expect(Array(lines[(prompt - 3)..<prompt]) == Self.formsRows) }
    }
}
