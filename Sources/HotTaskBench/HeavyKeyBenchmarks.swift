import Foundation
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// The keys that touch the whole list (issue 27): the sort mode, "completed last", clearing the
/// completed tasks and undoing that, and a 1 MB paste, timed as `update` + `render`: the work of
/// the frame (the store's commit is timed with the tmux walk, `Tests/Scripts/tmux_heavy_keys.py`).
enum HeavyKeyBenchmarks {
    /// Each round's state holds a list of its own, as the UI's is held by its state alone: a list
    /// shared with the caller would make the first change copy all of it, which the UI never does.
    static func run(_ list: TaskList, label: String, rounds: Int) -> [Measurement] {
        let size = UIBenchmarks.size
        let now = Timestamp.now()
        var results: [String: Measurement] = [:]
        var order: [String] = []
        func record(_ operation: String, since start: DispatchTime) {
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            if results[operation] == nil {
                results[operation] = Measurement(operation: operation, size: label, target: 50)
                order.append(operation)
            }
            results[operation]?.milliseconds.append(milliseconds)
        }
        func press(_ operation: String, _ key: Key, _ state: inout AppState) {
            let start = DispatchTime.now()
            _ = AppUpdate.update(&state, .keyPressed(key), now: now)
            _ = AppRender.render(state, size: size)
            record(operation, since: start)
        }
        /// A 1 MB bracketed paste as the terminal adapter takes it: 64 KB blocks decoded as
        /// UTF-8 and fed to the input decoder, its events through `update`, then the frame.
        func paste(_ bytes: [UInt8], _ state: inout AppState) {
            let operation = "UI: a 1 MB paste into the input (decode + update + render)"
            state.focus = .input
            let start = DispatchTime.now()
            var decoder = InputDecoder()
            var utf8 = UTF8Chunks()
            var events: [Event] = []
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + 64 * 1024, bytes.count)
                events += decoder.feed(contentsOf: utf8.decode(bytes[offset..<end]))
                offset = end
            }
            events += decoder.feed(contentsOf: utf8.flush()) + decoder.timedOut()
            for event in events { _ = AppUpdate.update(&state, event, now: now) }
            _ = AppRender.render(state, size: size)
            record(operation, since: start)
        }
        for _ in 0..<rounds {
            var state = AppState(tasks: TaskList(list.all), size: size)
            _ = AppUpdate.update(&state, .resized(size), now: now)
            state.view.foldCaptions(state.tasks)
            state.focus = .list
            // Every sort mode in turn, twice round (the second round may find what the first made).
            for _ in 0..<(2 * SortMode.allCases.count) { press("UI: s (next sort mode)", .character("s"), &state) }
            // Folds and levels (issue 54): every family, one family, and the sixth task (the
            // second family's parent, with --families) under the first and out again.
            press("UI: Z (folds every family)", .character("Z"), &state)
            press("UI: Z (shows every subtask)", .character("Z"), &state)
            press("UI: z (folds the selected family)", .character("z"), &state)
            press("UI: z (opens it)", .character("z"), &state)
            for _ in 0..<5 { _ = AppUpdate.update(&state, .keyPressed(.down), now: now) }
            press("UI: l (under the task above, with its subtasks)", .character("l"), &state)
            press("UI: h (back up a level)", .character("h"), &state)
            press("UI: c (completed last on)", .character("c"), &state)
            press("UI: c (completed last off)", .character("c"), &state)
            press("UI: C (asks to clear completed)", .character("C"), &state)
            press("UI: y (clears \(list.completedCount) completed)", .character("y"), &state)
            press("UI: u (brings them back)", .character("u"), &state)
            paste(Self.megabytePaste, &state)
        }
        return order.compactMap { results[$0] }
    }

    /// About a megabyte of lines between the bracketed-paste markers.
    static let megabytePaste: [UInt8] = {
        let line = "a line of pasted notes, with some words to wrap — and an accent: café\n"
        let body = String(repeating: line, count: 1_048_576 / line.utf8.count)
        return Array(("\u{1B}[200~" + body + "\u{1B}[201~").utf8)
    }()
}
