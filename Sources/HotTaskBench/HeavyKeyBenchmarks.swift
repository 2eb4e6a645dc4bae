import Foundation
import HotTaskCore
import HotTaskUI

/// The keys that touch the whole list (issue 27): the sort mode, "completed last", clearing the
/// completed tasks and undoing that, timed as `update` + `render`, the work the run loop does
/// before the frame (the store's commit follows the frame, and is timed with the tmux walk).
enum HeavyKeyBenchmarks {
    /// Each round's state holds a list of its own, as the UI's is held by its state alone: a list
    /// shared with the caller would make the first change copy all of it, which the UI never does.
    static func run(_ list: TaskList, label: String, rounds: Int) -> [Measurement] {
        let size = UIBenchmarks.size
        let now = Timestamp.now()
        var results: [String: Measurement] = [:]
        var order: [String] = []
        func press(_ operation: String, _ key: Key, _ state: inout AppState) {
            let start = DispatchTime.now()
            _ = AppUpdate.update(&state, .keyPressed(key), now: now)
            _ = AppRender.render(state, size: size)
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            if results[operation] == nil {
                results[operation] = Measurement(operation: operation, size: label, target: 50)
                order.append(operation)
            }
            results[operation]?.milliseconds.append(milliseconds)
        }
        for _ in 0..<rounds {
            var state = AppState(tasks: TaskList(list.all), size: size)
            _ = AppUpdate.update(&state, .resized(size), now: now)
            state.view.foldCaptions(state.tasks)
            state.focus = .list
            // Every sort mode in turn, twice round (the second round may find what the first made).
            for _ in 0..<(2 * SortMode.allCases.count) { press("UI: s (next sort mode)", .character("s"), &state) }
            press("UI: c (completed last on)", .character("c"), &state)
            press("UI: c (completed last off)", .character("c"), &state)
            press("UI: C (asks to clear completed)", .character("C"), &state)
            press("UI: y (clears \(list.completedCount) completed)", .character("y"), &state)
            press("UI: u (brings them back)", .character("u"), &state)
        }
        return order.compactMap { results[$0] }
    }
}
