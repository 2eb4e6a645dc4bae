import Foundation
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// Issue 53: a store of many lists in the app. `>` shows the next list (a scan of every task
/// for the list's), then the keys a person presses there; each key to its frame, 16 ms a key.
enum ListBenchmarks {
    /// The same tasks spread over `lists` lists ("List 1" … ; the default list holds the rest).
    static func spread(_ list: TaskList, over lists: Int) -> TaskList {
        var index = 0
        return TaskList(
            list.all.map { task in
                var task = task
                index += 1
                let number = index % lists
                task.list = number == 0 ? "" : "List \(number)"
                return task
            })
    }

    static func switching(_ list: TaskList, label: String) -> Measurement {
        let now = Timestamp.now()
        var state = AppState(tasks: list, size: UIBenchmarks.size)
        _ = AppUpdate.update(&state, .resized(UIBenchmarks.size), now: now)
        state.view.foldCaptions(state.tasks)
        _ = AppUpdate.update(&state, .keyPressed(.tab), now: now)
        var result = Measurement(operation: "UI: > (next list) and keys in it → frame", size: label, target: 16)
        let keys: [Key] =
            Array(repeating: .character(">"), count: 12) + [.down, .down, .character(" "), .character(" ")]
            + Array(repeating: .character("<"), count: 12)
        UIBenchmarks.timeKeys(keys, on: &state, now: now, into: &result)
        return result
    }
}
