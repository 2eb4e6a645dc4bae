import FoundationEssentials
import Glibc

/// One task. `id` never changes; everything else may.
public struct TaskItem: Equatable, Hashable, Sendable, Identifiable {
    // Swift lays a struct out in declaration order: this one fills its last eight bytes (with
    // the clocks packed, both optional dates kept as eight-byte patterns and the fields most
    // tasks leave empty boxed, 168 bytes a task, in every copy of a 100,000-task list; a note
    // and its stamp inline would make it 196).
    public var id: UUID
    /// `parent`'s id, while `parentHint` says there is one (zeros otherwise): inline, not in
    /// the box, so that a subtask needs no box of its own (80,000 allocations in every read
    /// of a store with 20,000 families, a tenth of its `--list`).
    @usableFromInline private(set) var parentID: UUID
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
    /// The boxed fields (`TaskField.isBoxed`: a note, tags, a repeat, a list) and their stamps; nil while they are
    /// empty and stamped as the add stamped them, as for most tasks.
    @usableFromInline private(set) var boxed: BoxedFields?
    /// The stamps of the fields kept inline.
    private var inlineClocks: FieldClocks.Inline
    // Here, so that they fill the four bytes the clocks leave before the next eight-byte field.
    public var section: Section
    public var completed: Bool
    /// Sixteen bits of `parent` (`ParentHint`), zero for none: a pass looking for the
    /// subtasks of a few tasks reads two bytes of every other task, not sixteen.
    @usableFromInline private(set) var parentHint: ParentHint

    /// A NaN no date ever is.
    private static let noDate = UInt64.max
    /// `parentID` of a task without a parent.
    private static let noParent = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

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

    /// Free text of several lines (`NoteRule`); empty for none.
    public var note: String {
        get { boxed?.note ?? "" }
        set { rebox(note: newValue, tags: tags, repeatRule: repeatRule, list: list, parent: parent, clocks: clocks) }
    }

    /// Words (`TagRule`), in the order given, without a leading `+`; empty for none.
    public var tags: [String] {
        get { boxed?.tags ?? [] }
        set { rebox(note: note, tags: newValue, repeatRule: repeatRule, list: list, parent: parent, clocks: clocks) }
    }

    /// How it repeats (`RepeatRule`); `.none` for a task that does not.
    public var repeatRule: RepeatRule {
        get { boxed?.repeatRule ?? .none }
        set { rebox(note: note, tags: tags, repeatRule: newValue, list: list, parent: parent, clocks: clocks) }
    }

    /// The list it is in, as `ListNames` stores it: empty for the default list.
    public var list: String {
        get { boxed?.list ?? "" }
        set { rebox(note: note, tags: tags, repeatRule: repeatRule, list: newValue, parent: parent, clocks: clocks) }
    }

    /// The id of the task it is a subtask of (`Subtasks`); nil for a top-level task. A parent
    /// the list does not hold leaves it top-level, keeping the relation for when it arrives.
    public var parent: UUID? {
        // Inlined where lists are walked for families (a fold of 20,000 of them reads 80,000).
        @inlinable get { parentHint.isNone ? nil : parentID }
        set { rebox(note: note, tags: tags, repeatRule: repeatRule, list: list, parent: newValue, clocks: clocks) }
    }

    /// When each field was last set: merging keeps, field by field, the later change.
    var clocks: FieldClocks {
        get { FieldClocks(inline: inlineClocks, boxed: boxed?.clocks) }
        set {
            inlineClocks = newValue.inline
            rebox(note: note, tags: tags, repeatRule: repeatRule, list: list, parent: parent, clocks: newValue)
        }
    }

    /// The box for these values, or none when they are what a task without a box has.
    private mutating func rebox(note: String, tags: [String], repeatRule: RepeatRule, list: String, parent: UUID?, clocks: FieldClocks) {
        parentHint = ParentHint(parent)
        parentID = parent ?? Self.noParent
        if note.isEmpty, tags.isEmpty, repeatRule.isNone, list.isEmpty, clocks.boxedAreImplied {
            boxed = nil
            return
        }
        let boxedClocks = clocks.boxed
        if boxed?.note != note || boxed?.tags != tags || boxed?.repeatRule != repeatRule || boxed?.list != list
            || boxed?.clocks != boxedClocks
        {
            boxed = BoxedFields(note: note, tags: tags, repeatRule: repeatRule, list: list, clocks: boxedClocks)
        }
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
        note: String = "",
        tags: [String] = [],
        repeatRule: RepeatRule = .none,
        list: String = "",
        parent: UUID? = nil,
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
        self.inlineClocks = clocks.inline
        self.boxed = nil
        self.parentHint = ParentHint(nil)
        self.parentID = Self.noParent
        rebox(note: note, tags: tags, repeatRule: repeatRule, list: list, parent: parent, clocks: clocks)
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

/// The fields a task keeps in a box of their own (`TaskField.isBoxed`, a parent's id aside), with their stamps:
/// most tasks have none, and pay eight bytes for them. Never changed once made (a task that
/// changes them gets a new box), so copies of a task share it safely.
@usableFromInline final class BoxedFields: Hashable, Sendable {
    let note: String
    let tags: [String]
    let repeatRule: RepeatRule
    let list: String
    let clocks: FieldClocks.Boxed

    init(note: String, tags: [String], repeatRule: RepeatRule, list: String, clocks: FieldClocks.Boxed) {
        self.note = note
        self.tags = tags
        self.repeatRule = repeatRule
        self.list = list
        self.clocks = clocks
    }

    @usableFromInline static func == (a: BoxedFields, b: BoxedFields) -> Bool {
        a === b
            || (a.note == b.note && a.tags == b.tags && a.repeatRule == b.repeatRule && a.list == b.list
                && a.clocks == b.clocks)
    }

    @usableFromInline func hash(into hasher: inout Hasher) {
        hasher.combine(note)
        hasher.combine(tags)
        hasher.combine(repeatRule)
        hasher.combine(list)
        hasher.combine(clocks)
    }
}

/// The stamp of the last change to each field of a task (`TaskField`), by field.
///
/// Kept as milliseconds and counters side by side rather than as `Clock`s: a Clock's 12 bytes
/// take 16 in a row, and every task holds these (60 bytes instead of 80).
public struct FieldClocks: Equatable, Hashable, Sendable {
    private var milliseconds: PerField<Int64>
    private var counters: PerField<Int32>

    /// The stamps of the fields a task keeps inline (the first ones in table order).
    struct Inline: Hashable, Sendable {
        fileprivate var milliseconds: PerInlineField<Int64>
        fileprivate var counters: PerInlineField<Int32>

        static func == (a: Inline, b: Inline) -> Bool {
            a.milliseconds.indices.allSatisfy { a.milliseconds[$0] == b.milliseconds[$0] && a.counters[$0] == b.counters[$0] }
        }

        func hash(into hasher: inout Hasher) {
            for index in milliseconds.indices {
                hasher.combine(milliseconds[index])
                hasher.combine(counters[index])
            }
        }
    }

    /// The stamps of the boxed fields (after the inline ones in table order).
    struct Boxed: Hashable, Sendable {
        fileprivate var stamps: PerBoxedField<Clock>

        static func == (a: Boxed, b: Boxed) -> Bool { a.stamps.indices.allSatisfy { a.stamps[$0] == b.stamps[$0] } }

        func hash(into hasher: inout Hasher) {
            for index in stamps.indices { hasher.combine(stamps[index]) }
        }
    }

    static let inlineCount = TaskField.allCases.count { !$0.isBoxed }

    var inline: Inline {
        var inline = Inline(milliseconds: InlineArray(repeating: 0), counters: InlineArray(repeating: 0))
        for index in inline.milliseconds.indices {
            inline.milliseconds[index] = milliseconds[index]
            inline.counters[index] = counters[index]
        }
        return inline
    }

    var boxed: Boxed {
        var boxed = Boxed(stamps: InlineArray(repeating: .zero))
        for index in boxed.stamps.indices {
            boxed.stamps[index] = Clock(milliseconds[Self.inlineCount + index], counters[Self.inlineCount + index])
        }
        return boxed
    }

    /// True when every boxed field's stamp is the add's (`implied`): a task without a box.
    var boxedAreImplied: Bool {
        // Most tasks have one stamp for all (and `implied` reads the table's first-stamped list).
        if areUniform { return true }
        let implied = self.implied
        return (Self.inlineCount..<milliseconds.count).allSatisfy { Clock(milliseconds[$0], counters[$0]) == implied }
    }

    /// The inline stamps, and the boxed ones (the add's when there is no box).
    init(inline: Inline, boxed: Boxed?) {
        milliseconds = InlineArray(repeating: 0)
        counters = InlineArray(repeating: 0)
        for index in inline.milliseconds.indices {
            milliseconds[index] = inline.milliseconds[index]
            counters[index] = inline.counters[index]
        }
        let implied = self.implied
        for index in Self.inlineCount..<milliseconds.count {
            let stamp = boxed.map { $0.stamps[index - Self.inlineCount] } ?? implied
            (milliseconds[index], counters[index]) = stamp.parts
        }
    }

    subscript(field: TaskField) -> Clock {
        get { Clock(milliseconds[field.rawValue], counters[field.rawValue]) }
        set { (milliseconds[field.rawValue], counters[field.rawValue]) = newValue.parts }
    }

    public init(_ all: Clock = .zero) {
        milliseconds = InlineArray(repeating: all.milliseconds)
        counters = InlineArray(repeating: all.counter)
    }

    /// The stamps of the first fields in table order, as a store writes them (`stamps` holds
    /// one for all, or at least the first-stamped fields'); each field after them gets the
    /// earliest of the first-stamped ones: the stamp of the add, which stamped every field
    /// (what a store written before that field existed means). Nil for any other count.
    init?(stamps: some Collection<Clock>) {
        guard let first = stamps.first else { return nil }
        self.init(first)
        guard stamps.count > 1 else { return }
        guard stamps.count >= TaskField.firstStamped.count, stamps.count <= TaskField.allCases.count else { return nil }
        for (field, stamp) in zip(TaskField.allCases, stamps) { self[field] = stamp }
        let implied = self.implied
        for field in TaskField.allCases.dropFirst(stamps.count) { self[field] = implied }
    }

    // By index, not by `TaskField.allCases`: these run for every task of a list.
    public static func == (a: FieldClocks, b: FieldClocks) -> Bool {
        for index in a.milliseconds.indices where a.milliseconds[index] != b.milliseconds[index] || a.counters[index] != b.counters[index] {
            return false
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        for index in milliseconds.indices {
            hasher.combine(milliseconds[index])
            hasher.combine(counters[index])
        }
    }

    var latest: Clock {
        var latest = Clock(milliseconds[0], counters[0])
        for index in milliseconds.indices.dropFirst() { latest = max(latest, Clock(milliseconds[index], counters[index])) }
        return latest
    }

    /// The earliest stamp of the first-stamped fields: the add's, what a later field's stamp is
    /// when the store does not write it.
    var implied: Clock { TaskField.firstStamped.dropFirst().reduce(self[TaskField.firstStamped[0]]) { min($0, self[$1]) } }

    /// True when every field has the same stamp (written as one in the store).
    var areUniform: Bool {
        milliseconds.indices.allSatisfy { milliseconds[$0] == milliseconds[0] && counters[$0] == counters[0] }
    }

    /// The stamps the store writes, in table order: one when all are the same, else the
    /// first-stamped fields' and on to the last field whose stamp is not `implied` (so a task
    /// whose later fields were never set is written as before those fields existed).
    var written: [Clock] {
        var written: [Clock] = []
        forEachWritten { written.append($0) }
        return written
    }

    /// `written`, one by one, without an array (the store's writer, for every task).
    func forEachWritten(_ body: (Clock) -> Void) {
        if areUniform { return body(self[.caption]) }
        let implied = self.implied
        let last = TaskField.allCases.lastIndex { self[$0] != implied } ?? 0
        let count = max(TaskField.firstStamped.count, last + 1)
        for field in TaskField.allCases.prefix(count) { body(self[field]) }
    }
}
