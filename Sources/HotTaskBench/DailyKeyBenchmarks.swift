import Foundation
@_spi(Fixtures) import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// The keys a person presses most (issue 42's budgets: j, Space and a filter keystroke within
/// 25 ms at 100,000 tasks), timed from the key to its frame (`update` + `render`) on a real store.
/// Space is timed both ways in the same run: as the UI does it now (the save's commit on the
/// store thread, after the frame) and as it did before (the commit, its fsync and the saved
/// event between the key and its frame), with the commit itself alongside.
enum DailyKeyBenchmarks {
    static let size = Size(width: 120, height: 40)
    static let budget = 25.0

    static func run(_ list: TaskList, label: String, rounds: Int, folder: String) throws -> [Measurement] {
        var j = Measurement(operation: "UI: j → frame", size: label, target: budget)
        var space = Measurement(operation: "UI: Space → frame (the save on the store thread)", size: label, target: budget)
        var spaceBefore = Measurement(operation: "UI: Space → frame with the save before it (as before issue 42)", size: label, target: nil)
        var commit = Measurement(operation: "UI: Space's save, committed and fsynced (the store thread)", size: label, target: nil)
        var filter = Measurement(operation: "UI: filter keystroke → frame (three words typed and erased)", size: label, target: budget)
        for round in 0..<rounds {
            let path = folder + "/daily-\(label)-\(round).json"
            try TaskStore(path: path).replaceWhole(with: list)
            let session = StoreSession(store: TaskStore(path: path))
            var state = AppState(tasks: try session.open(), size: size)
            _ = AppUpdate.update(&state, .resized(size), now: Timestamp.now())
            state.view.foldCaptions(state.tasks)
            _ = AppUpdate.update(&state, .keyPressed(.tab), now: Timestamp.now())

            func frame(_ key: Key, into measurement: inout Measurement) -> [Effect] {
                let start = DispatchTime.now()
                let effects = AppUpdate.update(&state, .keyPressed(key), now: Timestamp.now())
                _ = AppRender.render(state, size: size)
                measurement.milliseconds.append(milliseconds(since: start))
                return effects
            }
            /// The store thread's part: the commit, then its outcome through `update`.
            func save(_ effects: [Effect]) throws {
                for case .save(let saved) in effects {
                    guard case .committed(let clock, let outside) = try session.save(saved.changes, what: saved.what, current: state.tasks) else {
                        throw BenchError("the save was not committed")
                    }
                    _ = AppUpdate.update(&state, .saved(saved, clock: clock, outside: outside), now: Timestamp.now())
                }
            }
            for _ in 0..<100 { _ = frame(.character("j"), into: &j) }
            for _ in 0..<15 {
                let effects = frame(.character(" "), into: &space)
                let start = DispatchTime.now()
                try save(effects)
                commit.milliseconds.append(milliseconds(since: start))
                _ = frame(.character("j"), into: &j)
            }
            for _ in 0..<15 {
                let start = DispatchTime.now()
                let effects = AppUpdate.update(&state, .keyPressed(.character(" ")), now: Timestamp.now())
                try save(effects)
                _ = AppRender.render(state, size: size)
                spaceBefore.milliseconds.append(milliseconds(since: start))
                _ = frame(.character("j"), into: &j)
            }
            _ = AppUpdate.update(&state, .keyPressed(.character("/")), now: Timestamp.now())
            for word in ["review", "budget", "call"] {
                for character in word { _ = frame(.character(character), into: &filter) }
                for _ in word { _ = frame(.backspace, into: &filter) }
            }
            removeStore(path)
        }
        return [j, space, spaceBefore, commit, filter]
    }

    private static func milliseconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    }
}
