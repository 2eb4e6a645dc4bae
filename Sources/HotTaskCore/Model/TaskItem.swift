import Foundation

/// One task. `id` never changes; everything else may.
public struct TaskItem: Equatable, Hashable, Sendable, Identifiable {
    // The fields are declared largest first, the one-byte ones last: Swift lays a struct out in
    // declaration order, and this order leaves no padding (with `FieldClocks` packed, 128 bytes
    // a task instead of 152, in every copy of a 100,000-task list).
    public var id: UUID
    public var caption: String
    /// Its place in the manual order of its section.
    public var order: OrderKey
    /// When each field was last set: merging keeps, field by field, the later change.
    public var clocks: FieldClocks
    public var createdAt: Date
    /// When a person last changed it (wall clock; shown and exported, never used to merge).
    public var modifiedAt: Date
    /// Set while `completed` is true, nil otherwise.
    public var completedAt: Date?
    public var section: Section
    public var completed: Bool

    public init(
        id: UUID = UUID(),
        caption: String,
        section: Section = .priority,
        completed: Bool = false,
        createdAt: Date,
        completedAt: Date? = nil,
        modifiedAt: Date? = nil,
        order: OrderKey = .middle,
        clocks: FieldClocks = FieldClocks()
    ) {
        self.id = id
        self.caption = caption
        self.section = section
        self.completed = completed
        self.createdAt = createdAt
        self.completedAt = completed ? (completedAt ?? createdAt) : nil
        self.modifiedAt = modifiedAt ?? createdAt
        self.order = order
        self.clocks = clocks
    }

    /// The same task with the clocks of the fields a person sees reset: for comparing what a
    /// list shows rather than when each field was stamped.
    public var withoutClocks: TaskItem {
        var copy = self
        copy.clocks = FieldClocks()
        return copy
    }

    /// The latest stamp of any field.
    public var latestClock: Clock { clocks.latest }
}

/// The stamp of the last change to each field of a task that can change.
///
/// Kept as milliseconds and counters side by side rather than as four `Clock`s: a Clock's 12
/// bytes take 16 in a row, and every task holds these (a task takes 128 bytes instead of 144).
public struct FieldClocks: Equatable, Hashable, Sendable {
    private var milliseconds: (caption: Int64, section: Int64, completed: Int64, order: Int64)
    private var counters: (caption: Int32, section: Int32, completed: Int32, order: Int32)

    // Read and written as Clocks.
    public var caption: Clock { get { Clock(milliseconds.caption, counters.caption) } set { (milliseconds.caption, counters.caption) = newValue.parts } }
    public var section: Clock { get { Clock(milliseconds.section, counters.section) } set { (milliseconds.section, counters.section) = newValue.parts } }
    public var completed: Clock { get { Clock(milliseconds.completed, counters.completed) } set { (milliseconds.completed, counters.completed) = newValue.parts } }
    public var order: Clock { get { Clock(milliseconds.order, counters.order) } set { (milliseconds.order, counters.order) = newValue.parts } }

    public init(_ all: Clock = .zero) {
        self.init(caption: all, section: all, completed: all, order: all)
    }

    public init(caption: Clock, section: Clock, completed: Clock, order: Clock) {
        milliseconds = (caption.milliseconds, section.milliseconds, completed.milliseconds, order.milliseconds)
        counters = (caption.counter, section.counter, completed.counter, order.counter)
    }

    public static func == (a: FieldClocks, b: FieldClocks) -> Bool {
        a.milliseconds == b.milliseconds && a.counters == b.counters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(caption)
        hasher.combine(section)
        hasher.combine(completed)
        hasher.combine(order)
    }

    public var latest: Clock { max(caption, section, completed, order) }

    /// True when every field has the same stamp (written as one in the store).
    public var areUniform: Bool { caption == section && section == completed && completed == order }
}
