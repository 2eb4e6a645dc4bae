import Foundation
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// Issue 55: the history view (H) and the calendar of due dates (W) at a store's size with a
/// year of history. Each key to its frame after the first frame is on screen, 16 ms a key:
/// opening makes the view's numbers once (the history's days, one pass over the tasks' due
/// dates); the keys inside it only look days up.
enum ViewBenchmarks {
    /// 2026-11-25 12:00 UTC: inside the generated year of history and among its due dates.
    static let now = Date(timeIntervalSince1970: 1_795_608_000)

    static func opening(_ list: TaskList, label: String) -> Measurement {
        // The history the tasks tell (each added on its createdAt, completed an hour later):
        // a year of it, as the store's lasting history would hold.
        let activity = ActivityHistory(tasksOf: list) { _ in true }
        var state = AppState(tasks: list, size: UIBenchmarks.size)
        _ = AppUpdate.update(&state, .started(Startup(showsDetails: false, activity: activity)), now: now)
        _ = AppUpdate.update(&state, .resized(UIBenchmarks.size), now: now)
        _ = AppRender.render(state, size: UIBenchmarks.size)
        _ = AppUpdate.update(&state, .frameShown, now: now)
        _ = AppUpdate.update(&state, .keyPressed(.tab), now: now)
        var result = Measurement(operation: "UI: H history, W calendar and keys in them → frame", size: label, target: 16)
        let keys: [Key] = [
            .character("H"), .tab, .tab, .escape,
            .character("W"), .right, .down, .pageDown, .pageUp, .enter, .escape,
            .character("W"), .character("H"), .character("q"),
        ]
        UIBenchmarks.timeKeys(keys, on: &state, now: now, into: &result)
        return result
    }

    /// The keys `opening` presses, as its per-key line names them.
    static let keyNames = ["H", "Tab", "Tab", "Esc", "W", "→", "↓", "PgDn", "PgUp", "Enter", "Esc", "W", "H", "q"]
}
