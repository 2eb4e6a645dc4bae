import Foundation
import HotTaskCore
import HotTaskUI

/// Issue 27's heavy keys, in-process as the run loop runs them (update, the save when there
/// is one, the saved outcome, and the frame): changing the sort, `c`, `C` `y` on a list that is
/// 30% completed, and the `u` that takes the clear back. Target 50 ms of work each.
enum HeavyKeyBenchmarks {
    static let size = Size(width: 80, height: 24)
    static let target = 50.0

    static func run(store path: String, label: String, runs: Int) throws -> [Measurement] {
        let session = StoreSession(store: TaskStore(path: path))
        var state = AppState(tasks: try session.open(), size: size)
        _ = AppUpdate.update(&state, .resized(size), now: Timestamp.now())
        state.view.foldCaptions(state.tasks)  // as the app does right after its first frame
        state.focus = .list

        func press(_ key: Key) throws {
            let effects = AppUpdate.update(&state, .keyPressed(key), now: Timestamp.now())
            for case .save(let save) in effects {
                switch try session.save(save.changes, what: save.what, undoes: save.undoes) {
                case .committed(let clock, let outside):
                    _ = AppUpdate.update(&state, .saved(save, clock: clock, outside: outside), now: Timestamp.now())
                case .reloaded(let list, let clock):
                    _ = AppUpdate.update(&state, .reloaded(list), now: Timestamp.now())
                    _ = AppUpdate.update(&state, .saved(save, clock: clock, outside: []), now: Timestamp.now())
                case .busy:
                    throw BenchError("the store's lock was busy")
                }
            }
            _ = AppRender.render(state, size: size)
        }
        func timed(_ key: Key, into measurement: inout Measurement) throws {
            let start = DispatchTime.now()
            try press(key)
            measurement.milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }

        let done = state.tasks.all.filter(\.completed).count
        let what = "(\(done) done)"
        var sort = Measurement(operation: "UI: s (next sort) → frame \(what)", size: label, target: target)
        var completedLast = Measurement(operation: "UI: c (completed last) → frame \(what)", size: label, target: target)
        var clear = Measurement(operation: "UI: C y (clear completed) → saved \(what)", size: label, target: target)
        var undo = Measurement(operation: "UI: u (undo the clear) → saved \(what)", size: label, target: target)
        for _ in 0..<runs {
            for _ in 0..<SortMode.allCases.count { try timed(.character("s"), into: &sort) }
            try timed(.character("c"), into: &completedLast)
            try timed(.character("c"), into: &completedLast)
            try press(.character("C"))
            try timed(.character("y"), into: &clear)
            try timed(.character("u"), into: &undo)
        }
        return [sort, completedLast, clear, undo]
    }
}
