import HotTaskCore

/// One step a person can undo: the changes one key made, by task id, and what to call them.
struct UndoStep: Equatable, Sendable {
    /// Names the step while its save is under way, so that the save's stamp can find it.
    var id: Int
    var changes: [TaskChange]
    /// What the step did, for messages: "Deleted “Buy milk”".
    var description: String
    /// The stamp the store gave the step's record, once saved (an undo names it).
    var clock: Clock?

    init(id: Int = 0, _ changes: [TaskChange], description: String, clock: Clock? = nil) {
        self.id = id
        self.changes = changes
        self.description = description
        self.clock = clock
    }
}

/// Undo and redo stacks of changes by task id, never copies of the list: a step costs the
/// tasks it touched, not the length of the list, and survives changes other processes make to
/// other tasks.
struct UndoHistory: Equatable, Sendable {
    /// How many steps are kept; the oldest go first.
    static let limit = 100

    private(set) var undoSteps: [UndoStep] = []
    private(set) var redoSteps: [UndoStep] = []
    private var lastID = 0

    init() {}

    /// A new change: it can be undone, and whatever was undone before can no longer be redone.
    /// Returns the step's id.
    @discardableResult
    mutating func record(_ step: UndoStep) -> Int {
        guard !step.changes.isEmpty else { return 0 }
        lastID += 1
        var step = step
        step.id = lastID
        undoSteps.append(step)
        if undoSteps.count > Self.limit { undoSteps.removeFirst(undoSteps.count - Self.limit) }
        redoSteps.removeAll()
        return lastID
    }

    /// The step to take back, moved to redo.
    mutating func popUndo() -> UndoStep? {
        guard let step = undoSteps.popLast() else { return nil }
        redoSteps.append(step)
        return step
    }

    /// The step to do again, moved back to undo.
    mutating func popRedo() -> UndoStep? {
        guard let step = redoSteps.popLast() else { return nil }
        undoSteps.append(step)
        return step
    }

    /// Puts back the step just popped that could not be taken (its tasks were changed
    /// elsewhere): nothing was undone or redone, so it stays where it was.
    mutating func putBack(undoing: Bool) {
        if undoing {
            if let step = redoSteps.popLast() { undoSteps.append(step) }
        } else if let step = undoSteps.popLast() {
            redoSteps.append(step)
        }
    }

    /// Forgets a step the store never took (its save was refused).
    mutating func drop(_ id: Int) {
        undoSteps.removeAll { $0.id == id }
        redoSteps.removeAll { $0.id == id }
    }

    /// Takes what a step's changes replace from `records` other processes committed before the
    /// step's, which the UI had not seen when it planned it (as the store's record does): its
    /// undo then puts back their values, never the ones the UI saw before them.
    mutating func replaceWas(_ id: Int, after records: [LogRecord]) {
        guard !records.isEmpty else { return }
        if let index = undoSteps.lastIndex(where: { $0.id == id }) {
            undoSteps[index].changes = undoSteps[index].changes.replacingWas(after: records)
        }
        if let index = redoSteps.lastIndex(where: { $0.id == id }) {
            redoSteps[index].changes = redoSteps[index].changes.replacingWas(after: records)
        }
    }

    /// Notes the stamp the store gave a step's record.
    mutating func stamp(_ id: Int, clock: Clock) {
        if let index = undoSteps.lastIndex(where: { $0.id == id }) { undoSteps[index].clock = clock }
        if let index = redoSteps.lastIndex(where: { $0.id == id }) { redoSteps[index].clock = clock }
    }
}
