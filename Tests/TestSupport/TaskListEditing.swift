import Foundation

@testable import HotTaskCore

/// Shorthands for tests: build a change with the list's own builders and apply it stamped with
/// `now`, as the store would. Each returns the change made (nil or empty when nothing changed).
extension TaskList {
    public static func clock(_ date: Date) -> Clock {
        Clock(milliseconds: Int64(date.timeIntervalSince1970 * 1000))
    }

    /// Puts a task on top of its section.
    @discardableResult
    public mutating func insertOnTop(_ task: TaskItem, now: Date = Fixtures.baseDate) -> TaskChange {
        let change = adding(onTop: task)
        apply(change, clock: Self.clock(now))
        return change
    }

    /// Puts a task at the end of its section.
    public mutating func append(_ task: TaskItem, now: Date = Fixtures.baseDate) {
        var task = task
        task.order = endKey(of: task.section)
        apply(.add(task), clock: Self.clock(now))
    }

    @discardableResult
    public mutating func setCompleted(_ completed: Bool, at position: Int, now: Date) -> Bool {
        guard let change = completing(completed, at: position, now: now, local: .current) else { return false }
        apply(change, clock: Self.clock(now))
        return true
    }

    /// Moves the task on top of the other section; returns its new position.
    @discardableResult
    public mutating func moveToOtherSection(at position: Int, now: Date) -> Int {
        let task = self[position]
        if let change = moving(from: position, to: task.section.other, index: 0) { apply(change, clock: Self.clock(now)) }
        return self.position(of: task.id) ?? 0
    }

    @discardableResult
    public mutating func remove(at position: Int, now: Date = Fixtures.date(hours: 1000)) -> TaskItem {
        let task = self[position]
        apply(deleting(at: position), clock: Self.clock(now))
        return task
    }

    @discardableResult
    public mutating func rename(at position: Int, to caption: String, now: Date) -> TaskChange? {
        let change = renaming(at: position, to: caption)
        if let change { apply(change, clock: Self.clock(now)) }
        return change
    }

    @discardableResult
    public mutating func move(from position: Int, to section: Section, index: Int, now: Date) -> TaskChange? {
        let change = moving(from: position, to: section, index: index)
        if let change { apply(change, clock: Self.clock(now)) }
        return change
    }

    @discardableResult
    public mutating func removeCompleted(now: Date = Fixtures.date(hours: 1000)) -> [TaskChange] {
        let changes = removingCompleted()
        apply(changes, clock: Self.clock(now))
        return changes
    }

    /// The tasks as stored: every field but the stamps.
    public var shown: [TaskItem] { all.map(\.withoutClocks) }

    /// The tasks as a person sees them, one line each: caption, section, completed, in order.
    public var seen: [String] {
        all.map { "\($0.caption) [\($0.section.rawValue)\($0.completed ? ", done" : "")]" }
    }
}

extension TaskStore {
    /// Commits the changes `body` makes from the list as it is, as one record.
    public func change(_ body: (TaskList) throws -> [TaskChange]) throws {
        try update { state in (try body(state.list), "test", nil, ()) }
    }
}

extension TaskList {
    /// Merges an import batch in as the store would: the changes `importing` makes, applied.
    @discardableResult
    public mutating func merge(_ batch: ImportBatch, now: Date = Fixtures.date(hours: 1000)) -> ImportCounts {
        let (changes, counts) = importing(batch, dates: DueDisplay(now: now, local: .current))
        apply(changes, clock: Self.clock(now))
        return counts
    }
}

extension TaskItem {
    /// The task without its order key (lists built in different ways key the same order differently).
    public var withoutOrder: TaskItem {
        var copy = self
        copy.order = .middle
        return copy
    }
}

extension DueDisplay {
    /// Due dates as of the test's run, in the process's zone: what the rules got before they
    /// took the time and zone as arguments.
    public static var runningNow: DueDisplay { DueDisplay(now: Date(), local: .current) }
}
