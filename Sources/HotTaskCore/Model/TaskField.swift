import FoundationEssentials
import Glibc

/// The fields of a task that change on their own, each stamped with its own clock: the one
/// table that `TaskFields`, `FieldClocks`, the merges (`TaskList.merging`, `ThreeWay`), the log's
/// records, the store's readers and writer and both base files loop over. A new field is a
/// case here, its column values and its value's cases below, a mapping in each format, and a
/// case in the fast store reader (`StoredFields`, which reads each field straight into its type).
///
/// The order of the cases is the order of the stamps in the store's `clock` text: a store
/// written before a field existed has fewer stamps, and the missing ones mean "set when the
/// task was added" (see `FieldClocks`).
public enum TaskField: Int, CaseIterable, Sendable {
    case caption, section, completed, order, due, note, tags, repeatRule, list, parent

    /// Its key in the store's task objects, in the log's `set` records and in the sync base.
    var key: String { staticKey.description }

    /// `key` as written: a literal, copied straight into a JSON writer's bytes.
    var staticKey: StaticString {
        switch self {
        case .caption: "caption"
        case .section: "section"
        case .completed: "completed"
        case .order: "order"
        case .due: "due"
        case .note: "note"
        case .tags: "tags"
        case .repeatRule: "repeat"
        case .list: "list"
        case .parent: "parent"
        }
    }

    /// Stamped in a box most tasks do not have (`BoxedFields`): a field most tasks leave empty.
    /// The boxed fields come after the others in the table. A parent's value is kept inline
    /// (`TaskItem.parentID`), so that a subtask stamped when it was added needs no box.
    var isBoxed: Bool {
        switch self {
        case .note, .tags, .repeatRule, .list, .parent: true
        case .caption, .section, .completed, .order, .due: false
        }
    }

    /// The field whose key these bytes are (the fast store reader's look-up): found by the key's
    /// length and first byte, then its bytes compared once. This runs for each key of every
    /// task a store read meets; trying the fields in turn made `parent`, the last, ten compares.
    init?(utf8 key: UnsafeBufferPointer<UInt8>) {
        guard let first = key.first, let slot = Self.slot(count: key.count, first: first) else { return nil }
        let raw = Self.byLengthAndFirstByte[slot]
        guard raw >= 0, let field = TaskField(rawValue: Int(raw)), field.staticKey ~= key else { return nil }
        self = field
    }

    /// Where a key of this length and first byte sits in `byLengthAndFirstByte`, if it can.
    @inline(__always)
    private static func slot(count: Int, first: UInt8) -> Int? {
        count < 16 ? count << 5 | Int(first & 0x1F) : nil
    }

    /// Each field's raw value at its key's slot, -1 elsewhere; made from the table, so a new
    /// field is found without a line here (`TaskFieldTests` checks that no two share a slot).
    static let byLengthAndFirstByte: [Int8] = {
        var table = [Int8](repeating: -1, count: 16 << 5)
        for field in TaskField.allCases {
            let key = field.staticKey
            if let slot = slot(count: key.utf8CodeUnitCount, first: key.utf8Start.pointee) { table[slot] = Int8(field.rawValue) }
        }
        return table
    }()

    /// How two copies of it merge when both changed it since they last agreed (sync, import).
    /// Between copies of one store every field merges by its stamp: the later change wins.
    enum Merge: Sendable {
        /// The later change wins.
        case laterChange
        /// Element by element: what each side added and took away since, both (tags, when the
        /// base knows them; otherwise the later change).
        case elementwise
        /// Placed by each side's sort order (see `SyncPlan.place`); an import never takes it.
        case placement
    }

    var merge: Merge {
        switch self {
        case .order: .placement
        case .caption, .section, .completed, .due, .note, .repeatRule, .list, .parent: .laterChange
        case .tags: .elementwise
        }
    }

    /// Where the store writes it in a task object: before the dates (caption, section,
    /// completed, as every store has), after them when set, or only in the snapshot (the order
    /// key: an export's order is its array's).
    enum Placement: Sendable {
        case beforeDates
        case afterDatesWhenSet
        case snapshotOnly
    }

    var placement: Placement {
        switch self {
        case .caption, .section, .completed: .beforeDates
        case .due, .note, .tags, .repeatRule, .list, .parent: .afterDatesWhenSet
        case .order: .snapshotOnly
        }
    }

    /// The fields in each place of a task object, in table order.
    static let writtenBeforeDates = allCases.filter { $0.placement == .beforeDates }
    static let writtenAfterDates = allCases.filter { $0.placement == .afterDatesWhenSet }
    static let writtenInSnapshotsOnly = allCases.filter { $0.placement == .snapshotOnly }

    /// The fields every stamp text since version 2 names (one stamp for all, or these four);
    /// a later field's stamp, when not written, is the earliest of these: the add's.
    static let firstStamped: [TaskField] = [.caption, .section, .completed, .order]

    /// The fields a calendar holds too (`SharedFields`): all but the order key (a calendar's
    /// order is its sort order) and the list (a calendar is one list; which one is not said
    /// inside a task). An import never moves a task to another list either.
    static let shared: [TaskField] = allCases.filter { $0.merge != .placement && $0 != .list }

    /// What a base (`tasks.json.sync`, `tasks.json.imported`) written before this field existed
    /// holds for it.
    enum InOldBases: Sendable {
        /// Every base has it.
        case always
        /// Nothing known: a value on either side counts as changed there, and when both have
        /// one the later change wins (the due date).
        case unknown
        /// What HotTask had then, when it did not read the field: nothing (a note, tags).
        case meant(FieldValue)
    }

    var inOldBases: InOldBases {
        switch self {
        case .caption, .section, .completed, .order: .always
        case .due: .unknown
        case .note: .meant(.note(""))
        case .tags: .meant(.tags([]))
        case .repeatRule: .meant(.repeatRule(.none))
        case .list: .meant(.list(""))
        case .parent: .meant(.parent(nil))
        }
    }

    /// True when `task` has no value for this field and never had one given here since it was
    /// added (its stamp is still the add's): a field an older HotTask did not read is so.
    func neverGiven(in task: TaskItem) -> Bool {
        guard oldBasesMean != nil else { return false }
        let clocks = task.clocks
        return isUnset(value(of: task)) && clocks[self] <= clocks.implied
    }

    /// What a base that lacks this field agreed on, when that is known.
    var oldBasesMean: FieldValue? {
        if case .meant(let value) = inOldBases { return value }
        return nil
    }
}

/// A value for each field of the table, by the field's place (`rawValue`), held inline; and
/// for each field kept inline in a task, and each boxed one (`TaskField.isBoxed`). Their sizes
/// are the table's counts (Swift cannot take them from the enum): `TaskFieldTests` checks them.
typealias PerField<Element> = InlineArray<10, Element>
typealias PerInlineField<Element> = InlineArray<5, Element>
typealias PerBoxedField<Element> = InlineArray<5, Element>

/// One field's value, whatever its type: what the field table reads, writes, compares and
/// merges. `completed` alone says done or open: when it was done (`completedAt`) goes with it
/// but is no part of it (bases do not keep it).
enum FieldValue: Hashable, Sendable {
    case caption(String)
    case section(Section)
    case completed(Bool)
    case order(OrderKey)
    case due(DueDate?)
    case note(String)
    /// Without a leading `+`; a todo.txt context with its `@`.
    case tags([String])
    /// `RepeatRule.none` for none.
    case repeatRule(RepeatRule)
    /// The list it is in (`ListName`); empty for the default list.
    case list(String)
    /// The id of the task it is a subtask of (`Subtasks`); nil for a top-level task.
    case parent(UUID?)

    /// The field it is a value of.
    var field: TaskField {
        switch self {
        case .caption: .caption
        case .section: .section
        case .completed: .completed
        case .order: .order
        case .due: .due
        case .note: .note
        case .tags: .tags
        case .repeatRule: .repeatRule
        case .list: .list
        case .parent: .parent
        }
    }

    /// The same value as text, for a fingerprint (`ImportBase`): equal values give equal text,
    /// and tags in another order too.
    var fingerprintText: String {
        switch self {
        case .caption(let caption): caption
        case .section(let section): section.rawValue
        case .completed(let completed): completed ? "1" : "0"
        case .order(let key): key.text
        case .due(let due): DueDate.baseKey(due)
        case .note(let note): note
        // As a set: a format that keeps some tags apart (Taskwarrior's project) gives them back
        // in another order, and an untouched file must not read as changed.
        case .tags(let tags): tags.sorted().joined(separator: "\n")
        case .repeatRule(let rule): rule.stored
        case .list(let list): list
        case .parent(let parent): parent.map(Subtasks.text) ?? ""
        }
    }
}
