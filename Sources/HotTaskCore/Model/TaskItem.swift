import Foundation

/// One task. `id` never changes; everything else may.
public struct TaskItem: Equatable, Hashable, Sendable, Identifiable {
    // Swift lays a struct out in declaration order: this one leaves two bytes of padding (with
    // `FieldClocks` packed and both optional dates kept as eight-byte patterns, 144 bytes a
    // task, in every copy of a 100,000-task list; optionals would make it 168).
    public var id: UUID
    public var caption: String
    /// Its place in the manual order of its section.
    var order: OrderKey
    public var createdAt: Date
    /// When a person last changed it (wall clock; shown and exported, never used to merge).
    var modifiedAt: Date
    /// `completedAt`'s seconds as a bit pattern (`Self.noDate` for none): eight bytes where
    /// an optional Date takes nine and pads to sixteen.
    private var completedBits: UInt64
    /// The due date packed (`DueDate.noneBits` for none), for the same reason.
    private var dueBits: UInt64
    /// When each field was last set: merging keeps, field by field, the later change.
    var clocks: FieldClocks
    // Here, so that they fill the four bytes the clocks leave before the next eight-byte field.
    public var section: Section
    public var completed: Bool

    /// A NaN no date ever is.
    private static let noDate = UInt64.max

    /// Set while `completed` is true, nil otherwise.
    public var completedAt: Date? {
        get { completedBits == Self.noDate ? nil : Date(timeIntervalSince1970: Double(bitPattern: completedBits)) }
        set { completedBits = newValue.map { $0.timeIntervalSince1970.bitPattern } ?? Self.noDate }
    }

    /// When it is due, if ever.
    public var due: DueDate? {
        get { DueDate(bits: dueBits) }
        set { dueBits = newValue?.bits ?? DueDate.noneBits }
    }

    public init(
        id: UUID = UUID(),
        caption: String,
        section: Section = .priority,
        completed: Bool = false,
        createdAt: Date,
        completedAt: Date? = nil,
        modifiedAt: Date? = nil,
        order: OrderKey = .middle,
        due: DueDate? = nil,
        clocks: FieldClocks = FieldClocks()
    ) {
        self.dueBits = due?.bits ?? DueDate.noneBits
        self.id = id
        self.caption = caption
        self.section = section
        self.completed = completed
        self.createdAt = createdAt
        self.completedBits = (completed ? (completedAt ?? createdAt) : nil).map { $0.timeIntervalSince1970.bitPattern } ?? Self.noDate
        self.modifiedAt = modifiedAt ?? createdAt
        self.order = order
        self.clocks = clocks
    }

    /// The same task with the clocks of the fields a person sees reset: for comparing what a
    /// list shows rather than when each field was stamped.
    var withoutClocks: TaskItem {
        var copy = self
        copy.clocks = FieldClocks()
        return copy
    }

    /// The latest stamp of any field.
    var latestClock: Clock { clocks.latest }
}

/// The stamp of the last change to each field of a task that can change.
///
/// Kept as milliseconds and counters side by side rather than as five `Clock`s: a Clock's 12
/// bytes take 16 in a row, and every task holds these (60 bytes instead of 80).
public struct FieldClocks: Equatable, Hashable, Sendable {
    private var milliseconds: (caption: Int64, section: Int64, completed: Int64, order: Int64, due: Int64)
    private var counters: (caption: Int32, section: Int32, completed: Int32, order: Int32, due: Int32)

    // Read and written as Clocks.
    var caption: Clock {
        get { Clock(milliseconds.caption, counters.caption) }
        set { (milliseconds.caption, counters.caption) = newValue.parts }
    }
    var section: Clock {
        get { Clock(milliseconds.section, counters.section) }
        set { (milliseconds.section, counters.section) = newValue.parts }
    }
    var completed: Clock {
        get { Clock(milliseconds.completed, counters.completed) }
        set { (milliseconds.completed, counters.completed) = newValue.parts }
    }
    var order: Clock {
        get { Clock(milliseconds.order, counters.order) }
        set { (milliseconds.order, counters.order) = newValue.parts }
    }
    var due: Clock {
        get { Clock(milliseconds.due, counters.due) }
        set { (milliseconds.due, counters.due) = newValue.parts }
    }

    public init(_ all: Clock = .zero) {
        self.init(caption: all, section: all, completed: all, order: all, due: all)
    }

    /// Without `due`, it is the earliest of the four: the stamp of the add, which stamped every
    /// field (what a store written before due dates means).
    init(caption: Clock, section: Clock, completed: Clock, order: Clock, due: Clock? = nil) {
        let due = due ?? min(caption, section, completed, order)
        milliseconds = (caption.milliseconds, section.milliseconds, completed.milliseconds, order.milliseconds, due.milliseconds)
        counters = (caption.counter, section.counter, completed.counter, order.counter, due.counter)
    }

    public static func == (a: FieldClocks, b: FieldClocks) -> Bool {
        a.milliseconds == b.milliseconds && a.counters == b.counters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(caption)
        hasher.combine(section)
        hasher.combine(completed)
        hasher.combine(order)
        hasher.combine(due)
    }

    var latest: Clock { max(caption, section, completed, order, due) }

    /// True when every field has the same stamp (written as one in the store).
    var areUniform: Bool { caption == section && section == completed && completed == order && order == due }

    /// True when the due date's stamp is the earliest of the other four (what four stamps mean).
    var dueIsImplied: Bool { due == min(caption, section, completed, order) }
}
