import Foundation
import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// Issue 42's due column: the selection bar runs unbroken through the date, a cut caption keeps
/// two columns from its date, and on a wide screen the date stays near the captions (rows with
/// a date end at column 100).
@Suite("The due column")
struct DueColumnTests {
    func dated(_ size: Size) -> AppState {
        func day(_ d: Int) -> DueDate { .date(year: 2026, month: 11, day: d)! }
        let tasks = [
            TaskItem(caption: "Pay rent", createdAt: testNow, due: day(20)),
            TaskItem(caption: "Return the library books before the fine doubles again", createdAt: testNow, due: day(10)),
            TaskItem(caption: "Call mum", createdAt: testNow, due: day(18)),
            TaskItem(caption: "Someday", createdAt: testNow),
        ]
        var state = makeState(TaskList(tasks), size: size)
        state.zone = DueScreenTests.berlin
        return state
    }

    @Test func theSelectionBarRunsUnbrokenThroughTheDate() {
        var state = dated(Size(width: 80, height: 24))
        state.press(.tab)
        for selection in 0..<3 {
            state.selection = selection
            let grid = AppRender.render(state, size: state.size)
            let row = 4 + selection
            let styles = (0..<80).map { grid[$0, row].style }
            #expect(
                styles.allSatisfy { [.selected, .overdueSelected, .matchSelected].contains($0) },
                "row \(row): \(Set(styles.map(\.rawValue)).sorted())")
        }
        // Overdue keeps its mark on the bar: "!" and its own style, bold and underlined.
        state.selection = 1
        let grid = AppRender.render(state, size: state.size)
        #expect(grid.line(5).hasSuffix("! 2026-11-10"))
        #expect((67...78).allSatisfy { grid[$0, 5].style == .overdueSelected })
    }

    @Test func aCutCaptionStaysTwoColumnsFromItsDate() {
        for width in [24, 40, 60] {
            let line = AppRender.render(dated(Size(width: width, height: 24)), size: Size(width: width, height: 24)).line(5)
            let cut = line.range(of: "…")
            let date = line.range(of: "! 2026-11-10")
            if let cut, let date {
                #expect(line.distance(from: cut.upperBound, to: date.lowerBound) == 2, "at \(width) columns: |\(line)|")
            } else {
                Issue.record("at \(width) columns the caption is cut before its date: |\(line)|")
            }
        }
    }

    @Test func onAWideScreenTheDateStaysNearTheCaptions() {
        let state = dated(Size(width: 200, height: 24))
        let lines = AppRender.render(state, size: state.size).lines
        #expect(lines[4] == "› [ ] Pay rent" + String(repeating: " ", count: 83) + "Fri")
        #expect(DisplayWidth.of(lines[4]) == 100, "a row with a date ends at column 100")
        #expect(lines[5].hasPrefix("  [ ] Return the library books before the fine doubles again "))
        #expect(lines[5].hasSuffix("! 2026-11-10") && DisplayWidth.of(lines[5]) == 100)
        #expect(lines[7] == "  [ ] Someday")
    }
}
