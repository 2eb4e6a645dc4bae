import Foundation
import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Clearing the completed tasks and undoing that, when there are enough of them for the
/// one-pass path (`AppUpdate.changesShownRowByRow`): the list, the order shown and the filter
/// end exactly as the row-by-row path leaves them, in every view.
@Suite("Clearing many completed tasks in one pass")
struct HeavyKeyTests {
    /// `count` tasks over both sections, every third completed, captions that sort differently
    /// from their stored order, created an hour apart.
    private func bigList(_ count: Int) -> TaskList {
        var list = TaskList()
        for number in 0..<count {
            let caption = "Task \((number * 7919) % count) \(number % 5 == 0 ? "milk" : "bread")"
            list.append(
                TaskItem(
                    caption: caption, section: number % 4 == 0 ? .bonus : .priority, completed: number % 3 == 0,
                    createdAt: testNow.addingTimeInterval(Double((number * 31) % count) * 3600)))
        }
        return list
    }

    private struct ViewSetting: CustomTestStringConvertible {
        let sortPresses: Int
        let completedLast: Bool
        let filter: String?
        var testDescription: String { "s×\(sortPresses)\(completedLast ? " done-last" : "")\(filter.map { " /\($0)" } ?? "")" }
    }

    private static let settings: [ViewSetting] = [
        ViewSetting(sortPresses: 0, completedLast: false, filter: nil),
        ViewSetting(sortPresses: 1, completedLast: false, filter: nil),
        ViewSetting(sortPresses: 2, completedLast: true, filter: nil),
        ViewSetting(sortPresses: 3, completedLast: false, filter: "milk"),
        ViewSetting(sortPresses: 0, completedLast: true, filter: "bread"),
    ]

    private func prepared(_ list: TaskList, _ setting: ViewSetting) -> AppState {
        var state = makeState(list)
        state.press(.tab)
        for _ in 0..<setting.sortPresses { state.press(.character("s")) }
        if setting.completedLast { state.press(.character("c")) }
        if let filter = setting.filter {
            state.press(.character("/"))
            state.type(filter)
            state.press(.enter)
        }
        return state
    }

    @Test(arguments: settings)
    private func clearAndUndoShowWhatRowByRowShows(setting: ViewSetting) {
        let many = 900  // 300 completed: past the one-pass threshold
        #expect(bigList(many).completedCount >= AppUpdate.changesShownRowByRow)
        var state = prepared(bigList(many), setting)
        let before = state.shownCaptions
        let storedOrder = state.tasks.all.map(\.id)
        state.press(.character("C"), .character("y"))
        #expect(state.tasks.completedCount == 0)
        #expect(state.tasks.count == many - 300)
        // What the view shows after the one-pass clear: the view made from scratch for that list.
        #expect(state.shownCaptions == prepared(state.tasks, setting).shownCaptions)
        #expect(state.shownCaptions == before.filter { caption in state.tasks.all.contains { $0.caption == caption } })
        state.press(.character("u"))
        #expect(state.tasks.count == many)
        #expect(state.tasks.completedCount == 300)
        #expect(state.tasks.all.map(\.id) == storedOrder, "every task back in its place")
        #expect(state.shownCaptions == prepared(state.tasks, setting).shownCaptions)
        #expect(state.shownCaptions == before)
    }

    @Test func theOnePassListEqualsTheRowByRowList() {
        let list = bigList(600)
        let clear = list.removingCompleted()
        var onePass = list
        let removed = onePass.applyInOnePass(clear, clock: .zero, force: true)
        var rowByRow = list
        for change in clear { rowByRow.apply(change, clock: .zero, force: true) }
        #expect(onePass.all == rowByRow.all)
        #expect(onePass.completedCount == rowByRow.completedCount)
        #expect(onePass.deleted.keys.sorted { $0.uuidString < $1.uuidString } == rowByRow.deleted.keys.sorted { $0.uuidString < $1.uuidString })
        #expect((removed?.priority.count ?? 0) + (removed?.bonus.count ?? 0) == clear.count)

        let back = clear.inverse
        onePass.applyInOnePass(back, clock: .zero, force: true)
        for change in back { rowByRow.apply(change, clock: .zero, force: true) }
        #expect(onePass.all == rowByRow.all)
        #expect(onePass.all.map(\.id) == list.all.map(\.id), "every task back in its place")
        #expect(onePass.deleted.isEmpty == rowByRow.deleted.isEmpty)
    }
}
