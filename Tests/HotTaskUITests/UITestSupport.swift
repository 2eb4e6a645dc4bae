import Foundation
import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// A fixed moment, so that timestamps in tests are predictable.
let testNow = Date(timeIntervalSince1970: 1_795_000_000)

/// A list with the given open tasks in Top Priority and Bonus, in that order.
func makeList(priority: [String], bonus: [String] = [], completed: Set<String> = []) -> TaskList {
    TaskList(
        [(Section.priority, priority), (.bonus, bonus)].flatMap { section, captions in
            captions.map { TaskItem(caption: $0, section: section, completed: completed.contains($0), createdAt: testNow) }
        })
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
        keys.flatMap { AppUpdate.update(&self, .keyPressed($0), now: testNow, newID: testID) }
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

/// The id the tests' new tasks get.
let testID = UUID(uuidString: "0e000000-0000-4000-8000-000000000001")!

/// The changes the effects send to the store (empty when they save nothing).
func savedChanges(_ effects: [Effect]) -> [TaskChange] {
    effects.flatMap { effect -> [TaskChange] in
        if case .save(let save) = effect { return save.changes }
        return []
    }
}

extension AppState {
    /// Presses `key` and checks the whole next state and everything it asks the run loop to
    /// do, as TCA's exhaustive test store does: the state must be the state before with exactly
    /// the edits `expected` makes, and the effects exactly the ones `expected` returns (`[]`
    /// when the key should ask for nothing). Returns the effects.
    @discardableResult
    mutating func expectPress(
        _ key: Key, sourceLocation: SourceLocation = #_sourceLocation, _ expected: (inout AppState) -> [Effect]
    ) -> [Effect] {
        var wanted = self
        let effects = AppUpdate.update(&self, .keyPressed(key), now: testNow, newID: testID)
        let wantedEffects = expected(&wanted)
        // Compared apart from the expectation, so that a failure lists the fields that differ
        // instead of printing both whole states.
        let same = self == wanted
        #expect(
            same, "the next state differs from the expected one: \(differingFields(self, wanted).joined(separator: "; "))",
            sourceLocation: sourceLocation)
        #expect(effects == wantedEffects, "the key's effects differ from the ones stated", sourceLocation: sourceLocation)
        return effects
    }

    /// What a key that changes tasks does beside changing them, as the expected side states it:
    /// the changes become one undo step, and one save carries them with that step.
    mutating func committing(_ changes: [TaskChange], _ description: String) -> [Effect] {
        let step = history.record(UndoStep(changes, description: description))
        return [.save(Save(changes, what: description, stepID: step))]
    }
}

/// The stored properties of `AppState` that differ between two states, each compared with its
/// own `==` (so derived data a type leaves out of `==` never shows), as "name: actual, expected
/// expected": where to look when a whole-state check fails.
func differingFields(_ actual: AppState, _ expected: AppState) -> [String] {
    zip(Mirror(reflecting: actual).children, Mirror(reflecting: expected).children).compactMap { left, right in
        if let value = left.value as? any Equatable, isEqual(value, right.value) { return nil }
        return "\(left.label ?? "?"): \(left.value), expected \(right.value)"
    }
}

private func isEqual<Value: Equatable>(_ value: Value, _ other: Any) -> Bool {
    value == (other as? Value)
}

/// A record another process committed, stamped later than anything the tests make.
func outsideRecord(_ changes: [TaskChange], clock: Clock = Clock(milliseconds: 9_000_000_000_000)) -> LogRecord {
    LogRecord(generation: Generation("00000000000000aa")!, clock: clock, what: "outside", changes: changes)
}

/// Feeds `text` to a fresh decoder as the terminal would send it, then a pause.
func decode(_ text: String) -> [Event] {
    var decoder = InputDecoder()
    var events = text.unicodeScalars.flatMap { decoder.feed($0) }
    if decoder.pendingTimeout != nil { events += decoder.timedOut() }
    return events
}

/// Key events, as the decoder gives them.
func keys(_ keys: Key...) -> [Event] { keys.map { .keyPressed($0) } }

/// Compares the whole rendered screen with the snapshot file `Snapshots/NAME.txt` beside the
/// tests, row by row as it is drawn: the default check of a render test, since a row checked
/// alone passes beside a wrong one. `HOTTASK_RECORD_SNAPSHOTS=1` writes the screens again (that
/// run fails on purpose); review the files' diff before committing them.
func expectScreenSnapshot(
    _ state: AppState, named name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
    let lines = AppRender.render(state, size: state.size).lines
    expectSnapshot(lines.joined(separator: "\n") + "\n", named: name + ".txt", filePath: filePath, sourceLocation: sourceLocation)
}
