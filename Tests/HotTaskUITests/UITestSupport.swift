import Foundation
import HotTaskCore
import HotTaskUI

/// A fixed moment, so that timestamps in tests are predictable.
let testNow = Date(timeIntervalSince1970: 1_795_000_000)

/// A list with the given open tasks in Top Priority and Bonus, in that order.
func makeList(priority: [String], bonus: [String] = [], completed: Set<String> = []) -> TaskList {
    var list = TaskList()
    for (section, captions) in [(Section.priority, priority), (.bonus, bonus)] {
        for caption in captions {
            list.append(
                TaskItem(caption: caption, section: section, completed: completed.contains(caption), createdAt: testNow))
        }
    }
    return list
}

/// A state at 80×24 (unless told otherwise), as the app starts: focus in the input.
func makeState(_ list: TaskList = TaskList(), size: Size = Size(width: 80, height: 24)) -> AppState {
    var state = AppState(tasks: list, size: size)
    _ = AppUpdate.update(&state, .resized(size), now: testNow)
    return state
}

/// Numbered captions "Task 1" ... "Task n".
func numberedTasks(_ count: Int) -> [String] {
    (1...count).map { "Task \($0)" }
}

extension AppState {
    /// Sends keys one by one and returns every effect they produced.
    @discardableResult
    mutating func press(_ keys: Key...) -> [Effect] {
        keys.flatMap { AppUpdate.update(&self, .keyPressed($0), now: testNow) }
    }

    /// Types text the way the terminal delivers it: one Unicode scalar per key.
    mutating func type(_ text: String) {
        for scalar in text.unicodeScalars {
            _ = AppUpdate.update(&self, .keyPressed(.character(Character(scalar))), now: testNow)
        }
    }

    /// The list rows on screen, first and last (inclusive).
    var visibleRows: ClosedRange<Int> {
        scrollOffset...(scrollOffset + screen.listHeight - 1)
    }

    var selectionIsVisible: Bool {
        layout.taskCount == 0 || visibleRows.contains(layout.row(ofTask: selection))
    }
}

