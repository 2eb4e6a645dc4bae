import HotTaskCore

/// One step a person can undo: the changes one key made, and what to call them.
public struct UndoStep: Equatable, Sendable {
    public var changes: [TaskChange]
    /// What the step did, for messages: "Deleted “Buy milk”".
    public var description: String

    public init(_ changes: [TaskChange], description: String) {
        self.changes = changes
        self.description = description
    }
}

/// Undo and redo stacks of small reversible changes, never copies of the list: a step costs
/// the tasks it touched, not the length of the list.
public struct UndoHistory: Equatable, Sendable {
    /// How many steps are kept; the oldest go first.
    public static let limit = 100

    public private(set) var undoSteps: [UndoStep] = []
    public private(set) var redoSteps: [UndoStep] = []

    public init() {}

    /// A new change: it can be undone, and whatever was undone before can no longer be redone.
    public mutating func record(_ step: UndoStep) {
        guard !step.changes.isEmpty else { return }
        undoSteps.append(step)
        if undoSteps.count > Self.limit { undoSteps.removeFirst(undoSteps.count - Self.limit) }
        redoSteps.removeAll()
    }

    /// The step to take back (its changes must then be applied inverted), moved to redo.
    public mutating func popUndo() -> UndoStep? {
        guard let step = undoSteps.popLast() else { return nil }
        redoSteps.append(step)
        return step
    }

    /// The step to do again, moved back to undo.
    public mutating func popRedo() -> UndoStep? {
        guard let step = redoSteps.popLast() else { return nil }
        undoSteps.append(step)
        return step
    }
}
