import Foundation
import HotTaskCore
import HotTaskUI

/// The UI path in-process: `update` + `render` per keystroke on a large list, the way the
/// run loop calls them (the terminal write is not included).
enum UIBenchmarks {
    static let size = Size(width: 80, height: 24)

    static func keystrokes(_ list: TaskList, label: String) -> [Measurement] {
        let now = Timestamp.now()
        var state = AppState(tasks: list, size: size)
        _ = AppUpdate.update(&state, .resized(size), now: now)

        func measure(_ operation: String, target: Double?, _ keys: [Key]) -> Measurement {
            var result = Measurement(operation: operation, size: label, target: target)
            for key in keys {
                let start = DispatchTime.now()
                _ = AppUpdate.update(&state, .keyPressed(key), now: now)
                _ = AppRender.render(state, size: size)
                result.milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
            }
            return result
        }

        let typing = measure("UI: keystroke in the input → frame", target: 2, Array("Buy oat milk and bread".map { Key.character($0) }))
        let scrolling = measure(
            "UI: Down / PgDn while typing → frame", target: 2,
            Array(repeating: Key.down, count: 150) + Array(repeating: .pageDown, count: 50))
        _ = AppUpdate.update(&state, .keyPressed(.control("f")), now: now)
        // Grow the query (narrowing) and shrink it (a fresh scan), as a person searching does.
        let query: [Key] = "review".map { .character($0) } + Array(repeating: .backspace, count: 6)
        let filtering = measure("UI: filter keystroke → frame", target: label == "100k" ? 30 : 5, query + query + query)
        return [typing, scrolling, filtering]
    }

    /// Start without the terminal: read the store, build the state, draw the first frame.
    static func start(store: TaskStore, label: String, runs: Int) throws -> Measurement {
        var result = Measurement(operation: "UI: load + first frame (in-process)", size: label, target: nil)
        for _ in 0..<runs {
            let start = DispatchTime.now()
            var state = AppState(tasks: try store.load(), size: size)
            _ = AppUpdate.update(&state, .resized(size), now: Timestamp.now())
            _ = AppRender.render(state, size: size)
            result.milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }
        return result
    }

    /// Enter in the input row: the task is added and saved (a journal append while nothing
    /// else changed the store).
    static func addAndSave(store: TaskStore, label: String, runs: Int) throws -> Measurement {
        try timeSaves("UI: Enter → task saved", store: store, label: label, runs: runs) { list, number in
            list.insertOnTop(TaskItem(caption: "Typed in the UI \(number)", createdAt: Timestamp.now()))
        }
    }

    /// Space on a task: completed and saved, a rewrite of the whole store (only adds go to the
    /// journal).
    static func toggleAndSave(store: TaskStore, label: String, runs: Int) throws -> Measurement {
        try timeSaves("UI: Space (toggle) → saved", store: store, label: label, runs: runs) { list, _ in
            list.setCompleted(!list[0].completed, at: 0, now: Timestamp.now())
        }
    }

    /// Times `change` followed by the save the run loop would do, `runs` times.
    private static func timeSaves(
        _ operation: String, store: TaskStore, label: String, runs: Int, change: (inout TaskList, Int) -> Void
    ) throws -> Measurement {
        var result = Measurement(operation: operation, size: label, target: nil)
        let session = StoreSession(store: store)
        var list = try session.open()
        for number in 0..<runs {
            let start = DispatchTime.now()
            change(&list, number)
            list = try session.save(list)
            result.milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }
        return result
    }
}
