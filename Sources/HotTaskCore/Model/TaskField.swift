import Foundation

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
    case caption, section, completed, order, due, note, tags, repeatRule

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
        }
    }

    /// Kept in a box most tasks do not have (`BoxedFields`): a field most tasks leave empty.
    /// The boxed fields come after the others in the table.
    var isBoxed: Bool {
        switch self {
        case .note, .tags, .repeatRule: true
        case .caption, .section, .completed, .order, .due: false
        }
    }

    /// The field whose key these bytes are (the fast store reader's look-up).
    init?(utf8 key: UnsafeBufferPointer<UInt8>) {
        // By raw value, each key's length compared first: this runs for each key of every task a
        // store read meets (an array of the keys' bytes cost a retain and a release a key).
        var raw = 0
        while let field = TaskField(rawValue: raw) {
            if field.staticKey ~= key {
                self = field
                return
            }
            raw += 1
        }
        return nil
    }

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
        case .caption, .section, .completed, .due, .note, .repeatRule: .laterChange
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
        case .due, .note, .tags, .repeatRule: .afterDatesWhenSet
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
    /// order is its sort order).
    static let shared: [TaskField] = allCases.filter { $0.merge != .placement }

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
typealias PerField<Element> = InlineArray<8, Element>
typealias PerInlineField<Element> = InlineArray<5, Element>
typealias PerBoxedField<Element> = InlineArray<3, Element>

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

    /// The same value as text, for a fingerprint (`ImportBase`): equal values give equal text.
    var fingerprintText: String {
        switch self {
        case .caption(let caption): caption
        case .section(let section): section.rawValue
        case .completed(let completed): completed ? "1" : "0"
        case .order(let key): key.text
        case .due(let due): DueDate.baseKey(due)
        case .note(let note): note
        case .tags(let tags): tags.joined(separator: "\n")
        case .repeatRule(let rule): rule.stored
        }
    }
}

// MARK: Reading and writing a field of a task

extension TaskField {
    /// `task`'s value of this field.
    func value(of task: TaskItem) -> FieldValue {
        switch self {
        case .caption: .caption(task.caption)
        case .section: .section(task.section)
        case .completed: .completed(task.completed)
        case .order: .order(task.order)
        case .due: .due(task.due)
        case .note: .note(task.note)
        case .tags: .tags(task.tags)
        case .repeatRule: .repeatRule(task.repeatRule)
        }
    }

    /// Gives `task` this field's `value` (a value of another field changes nothing). Completing
    /// sets when: `completedAt` if given, else the time it already had, else `now` (none when
    /// nil: a calendar's task may say done without when); reopening clears it.
    func set(_ value: FieldValue, on task: inout TaskItem, completedAt: Date? = nil, now: @autoclosure () -> Date? = Date()) {
        switch (self, value) {
        case (.caption, .caption(let caption)): task.caption = caption
        case (.section, .section(let section)): task.section = section
        case (.completed, .completed(let completed)):
            task.completed = completed
            task.completedAt = completed ? (completedAt ?? task.completedAt ?? now()) : nil
        case (.order, .order(let key)): task.order = key
        case (.due, .due(let due)): task.due = due
        case (.note, .note(let note)): task.note = note
        case (.tags, .tags(let tags)): task.tags = tags
        case (.repeatRule, .repeatRule(let rule)): task.repeatRule = rule
        default: assertionFailure("\(value) is not a value of \(self)")
        }
    }

    /// True when a task without this field set would have `value` (written only when set).
    func isUnset(_ value: FieldValue) -> Bool {
        switch value {
        case .due(let due): due == nil
        case .note(let note): note.isEmpty
        case .tags(let tags): tags.isEmpty
        case .repeatRule(let rule): rule.isNone
        case .caption, .section, .completed, .order: false
        }
    }
}

// MARK: The fields of a change

extension TaskFields {
    /// The value this change sets for `field`; nil when it leaves the field alone.
    subscript(field: TaskField) -> FieldValue? {
        get {
            switch field {
            case .caption: caption.map(FieldValue.caption)
            case .section: section.map(FieldValue.section)
            case .completed: completed.map(FieldValue.completed)
            case .order: order.map(FieldValue.order)
            case .due: due.map(FieldValue.due)
            case .note: note.map(FieldValue.note)
            case .tags: tags.map(FieldValue.tags)
            case .repeatRule: repeatRule.map(FieldValue.repeatRule)
            }
        }
        set {
            switch (field, newValue) {
            case (.caption, .caption(let value)?): caption = value
            case (.section, .section(let value)?): section = value
            case (.completed, .completed(let value)?): completed = value
            case (.order, .order(let value)?): order = value
            case (.due, .due(let due)?): self.due = .some(due)
            case (.note, .note(let value)?): note = value
            case (.tags, .tags(let value)?): tags = value
            case (.repeatRule, .repeatRule(let value)?): repeatRule = value
            case (.caption, nil): caption = nil
            case (.section, nil): section = nil
            case (.completed, nil):
                completed = nil
                completedAt = nil
            case (.order, nil): order = nil
            case (.due, nil): due = nil
            case (.note, nil): note = nil
            case (.tags, nil): tags = nil
            case (.repeatRule, nil): repeatRule = nil
            default: assertionFailure("\(String(describing: newValue)) is not a value of \(field)")
            }
        }
    }
}

// MARK: JSON (the store, the log, exports)

extension TaskField {
    /// Writes `"key": value` and what goes with it (`completedAt` after `completed` in a log's
    /// set, `dueZone` after `due`), each key written by `name` (which puts the separator and
    /// indentation of the object being written).
    func write(
        _ value: FieldValue, completedAt: Date? = nil, withCompletedAt: Bool = false, to writer: inout JSONWriter,
        name: (inout JSONWriter, StaticString) -> Void
    ) {
        name(&writer, staticKey)
        switch value {
        case .caption(let caption): writer.string(caption)
        case .section(let section): writer.string(section.rawValue)
        case .completed(let completed):
            writer.raw(completed ? "true" : "false")
            if withCompletedAt {
                name(&writer, "completedAt")
                if let completedAt { writer.date(completedAt) } else { writer.raw("null") }
            }
        case .order(let key): writer.string(key.text)
        case .due(let due):
            if let due {
                writer.string(due.text())
                if let zone = due.zoneName {
                    name(&writer, "dueZone")
                    writer.string(zone)
                }
            } else {
                writer.raw("null")
            }
        case .note(let note): writer.string(note)
        case .tags(let tags):
            writer.raw("[")
            for (offset, tag) in tags.enumerated() {
                if offset > 0 { writer.raw(", ") }
                writer.string(tag)
            }
            writer.raw("]")
        case .repeatRule(let rule): writer.string(rule.stored)
        }
    }

    /// Reads this field from a JSON object (a stored task, a log record's fields); nil when the
    /// object does not have it. `null` is a value only for fields that can be unset (a log's
    /// set that clears the due date).
    func read(from fields: FieldReader) throws(DocumentError) -> FieldValue? {
        switch self {
        case .caption:
            guard fields.object[key] != nil else { return nil }
            return .caption(try fields.caption(key))
        case .section:
            guard let name = try fields.optionalString(key) else { return nil }
            guard let section = Section(rawValue: name) else {
                throw fields.problem("\"section\" must be \"priority\" or \"bonus\", found \"\(name)\"")
            }
            return .section(section)
        case .completed:
            guard fields.object[key] != nil else { return nil }
            return .completed(try fields.bool(key))
        case .order:
            guard let text = try fields.optionalString(key) else { return nil }
            guard let order = OrderKey(text) else { throw fields.problem("\"order\" is not an order key: \"\(text)\"") }
            return .order(order)
        case .due:
            switch fields.object[key] {
            case nil:
                if fields.object["dueZone"] != nil, fields.object["dueZone"] != .null { throw fields.problem("\"dueZone\" needs \"due\"") }
                return nil
            case .null?:
                return .due(nil)
            case .string(let text)?:
                guard let due = DueDate(text: text, zone: try fields.optionalString("dueZone")) else {
                    throw fields.problem(
                        "\"due\" is not a date like \"2026-12-01\" or a time like \"2026-12-01T09:30:00+01:00\": \"\(text)\"")
                }
                return .due(due)
            case let other?:
                throw fields.problem("\"due\" must be a string, found \(other.kindName)")
            }
        case .note:
            guard let text = try fields.optionalString(key) else { return nil }
            do {
                return .note(try NoteRule.cleanStored(text))
            } catch {
                throw fields.problem("\"note\": \(error)")
            }
        case .tags:
            switch fields.object[key] {
            case nil, .null?: return nil
            case .array(let items)?:
                var tags: [String] = []
                for item in items {
                    guard case .string(let tag) = item else { throw fields.problem("\"tags\" must be an array of strings") }
                    tags.append(tag)
                }
                do {
                    return .tags(try TagRule.cleanStored(tags))
                } catch {
                    throw fields.problem("\"tags\": \(error)")
                }
            case let other?:
                throw fields.problem("\"tags\" must be an array of strings, found \(other.kindName)")
            }
        case .repeatRule:
            guard let text = try fields.optionalString(key) else { return nil }
            return .repeatRule(try Self.readRepeat(text, fields.problem))
        }
    }
}

extension TaskField {
    /// A stored `"repeat"`: an RRULE HotTask steps, `;X-HOTTASK-FROM=DONE` after it for a rule
    /// counted from the day the task is done ("" for none, as a log's set that stops it).
    static func readRepeat(_ text: String, _ problem: (String) -> DocumentError) throws(DocumentError) -> RepeatRule {
        if text.isEmpty { return .none }
        guard let rule = RepeatRule(stored: text) else {
            throw problem("\"repeat\" is not a repeat rule HotTask can step (FREQ, INTERVAL, BYDAY, COUNT, UNTIL): \"\(text)\"")
        }
        return rule
    }
}

// MARK: The sync base (`SyncBase.Entry`)

/// A key of a base entry's JSON object, named by a field.
struct FieldKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension TaskField {
    /// Writes the agreed value under the field's key, as `SyncBase` files have always held it.
    func encodeBase(_ value: FieldValue, to container: inout KeyedEncodingContainer<FieldKey>) throws {
        let name = FieldKey(key)
        switch value {
        case .caption(let caption): try container.encode(caption, forKey: name)
        case .section(let section): try container.encode(section.rawValue, forKey: name)
        case .completed(let completed): try container.encode(completed, forKey: name)
        case .order(let order): try container.encode(order.text, forKey: name)
        case .due(let due): try container.encode(DueDate.baseKey(due), forKey: name)
        case .note(let note): try container.encode(note, forKey: name)
        case .tags(let tags): try container.encode(tags, forKey: name)
        case .repeatRule(let rule): try container.encode(rule.stored, forKey: name)
        }
    }

    /// The agreed value under the field's key; nil when the entry has none (a base written
    /// before the field, or a value this HotTask cannot read: then the later change wins).
    func decodeBase(from container: KeyedDecodingContainer<FieldKey>) throws -> FieldValue? {
        let name = FieldKey(key)
        guard container.contains(name) else { return nil }
        switch self {
        case .caption: return .caption(try container.decode(String.self, forKey: name))
        case .section: return .section(Section(rawValue: try container.decode(String.self, forKey: name)) ?? .bonus)
        case .completed: return .completed(try container.decode(Bool.self, forKey: name))
        case .order: return OrderKey(try container.decode(String.self, forKey: name)).map(FieldValue.order)
        case .due:
            guard let text = try container.decodeIfPresent(String.self, forKey: name) else { return nil }
            return text.isEmpty ? .due(nil) : DueDate(baseKey: text).map(FieldValue.due)
        case .note: return .note(try container.decode(String.self, forKey: name))
        case .tags: return .tags(try container.decode([String].self, forKey: name))
        case .repeatRule:
            let text = try container.decode(String.self, forKey: name)
            return text.isEmpty ? .repeatRule(.none) : RepeatRule(stored: text).map(FieldValue.repeatRule)
        }
    }
}

// MARK: The import base (`ImportBase`)

extension TaskField {
    /// Writes the field's part of an import base line at `out` (which has `baseLineWidth`
    /// bytes of room): ` <16 hex digits>` for a fingerprint, ` p` or ` b` for the section and
    /// `1` or `0` for done (as every base file has them). Returns how many bytes it wrote.
    func writeBaseLine(_ print: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        switch self {
        case .section:
            out[0] = 0x20
            out[1] = print == ImportBase.priorityPrint ? UInt8(ascii: "p") : UInt8(ascii: "b")
            return 2
        case .completed:
            out[0] = print == ImportBase.donePrint ? UInt8(ascii: "1") : UInt8(ascii: "0")
            return 1
        case .caption, .order, .due, .note, .tags, .repeatRule:
            out[0] = 0x20
            return 1 + UUIDBytes.writeHex(print, to: out + 1)
        }
    }

    /// The most bytes `writeBaseLine` writes for this field.
    var baseLineWidth: Int {
        switch self {
        case .section: 2
        case .completed: 1
        case .caption, .order, .due, .note, .tags, .repeatRule: 17
        }
    }

    /// `ImportBase.fingerprint(value(of: task))`, without making the value or its text when
    /// it is one of a few (a section, done or not, an unset field): an export records one for
    /// each field of every task. `TaskFieldTests` checks each field against that general form.
    func fingerprint(of task: TaskItem) -> UInt64 {
        switch self {
        case .caption:
            let print = ImportBase.hash(task.caption)
            return print == ImportBase.Entry.unknown ? print - 1 : print
        case .section: return task.section == .priority ? ImportBase.priorityPrint : ImportBase.bonusPrint
        case .completed: return task.completed ? ImportBase.donePrint : ImportBase.openPrint
        case .due:
            guard let due = task.due else { return 0 }
            // As `ImportBase.fingerprint` makes a due date's.
            if let hash = due.dayBaseKeyHash { return hash & ~(1 << 63) | 1 }
            return ImportBase.fingerprint(.due(due))
        case .note: return task.note.isEmpty ? ImportBase.emptyTextPrint : ImportBase.fingerprint(value(of: task))
        case .tags: return task.tags.isEmpty ? ImportBase.emptyTextPrint : ImportBase.fingerprint(value(of: task))
        case .repeatRule: return task.repeatRule.isNone ? ImportBase.emptyTextPrint : ImportBase.fingerprint(value(of: task))
        case .order: return ImportBase.fingerprint(value(of: task))
        }
    }

    /// Reads what `writeBaseLine` wrote at `start`: the fingerprint and where the next field
    /// starts; nil when the bytes are not this field's.
    func readBaseLine(_ line: UnsafeBufferPointer<UInt8>, at start: Int) -> (print: UInt64, next: Int)? {
        switch self {
        case .section:
            guard start + 2 <= line.count, line[start] == 0x20 else { return nil }
            return (line[start + 1] == UInt8(ascii: "p") ? ImportBase.priorityPrint : ImportBase.bonusPrint, start + 2)
        case .completed:
            guard start < line.count else { return nil }
            return (line[start] == UInt8(ascii: "1") ? ImportBase.donePrint : ImportBase.openPrint, start + 1)
        case .caption, .order, .due, .note, .tags, .repeatRule:
            guard start + 17 <= line.count, line[start] == 0x20 else { return nil }
            var print: UInt64 = 0
            for byte in line[(start + 1)..<(start + 17)] {
                guard let digit = UUIDBytes.nibble(byte) else { return nil }
                print = print << 4 | UInt64(digit)
            }
            return (print, start + 17)
        }
    }
}
