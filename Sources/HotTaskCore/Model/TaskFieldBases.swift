import FoundationEssentials
import Glibc

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
        case .list(let list): try container.encode(list, forKey: name)
        case .parent(let parent): try container.encode(parent.map(Subtasks.text) ?? "", forKey: name)
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
        case .list: return .list(try container.decode(String.self, forKey: name))
        case .parent:
            let text = try container.decode(String.self, forKey: name)
            return text.isEmpty ? .parent(nil) : UUID(uuidString: text).map { .parent($0) }
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
        case .caption, .order, .due, .note, .tags, .repeatRule, .list, .parent:
            out[0] = 0x20
            return 1 + UUIDBytes.writeHex(print, to: out + 1)
        }
    }

    /// The most bytes `writeBaseLine` writes for this field.
    var baseLineWidth: Int {
        switch self {
        case .section: 2
        case .completed: 1
        case .caption, .order, .due, .note, .tags, .repeatRule, .list, .parent: 17
        }
    }

    /// `ImportBase.fingerprint(value(of: task))`, without making the value or its text when
    /// it is one of a few (a section, done or not, an unset field): an export records one for
    /// each field of every task. `TaskFieldTests` checks each field against that general form.
    func fingerprint(of task: TaskItem) -> UInt64 {
        withUnsafePointer(to: task) { fingerprint(at: $0) }
    }

    /// The same, each field read where the task lies: a task handed on as a value from where it
    /// lies is copied first, its strings retained and released (a third of an import base's
    /// thread, which the import waits for).
    func fingerprint(at task: UnsafePointer<TaskItem>) -> UInt64 {
        switch self {
        case .caption:
            let print = ImportBase.hash(task.pointee.caption)
            return print == ImportBase.Entry.unknown ? print - 1 : print
        case .section: return task.pointee.section == .priority ? ImportBase.priorityPrint : ImportBase.bonusPrint
        case .completed: return task.pointee.completed ? ImportBase.donePrint : ImportBase.openPrint
        case .due:
            guard let due = task.pointee.due else { return 0 }
            // As `ImportBase.fingerprint` makes a due date's.
            return due.baseKeyHash & ~(1 << 63) | 1
        case .note: return task.pointee.note.isEmpty ? ImportBase.emptyTextPrint : ImportBase.fingerprint(value(of: task.pointee))
        case .tags: return task.pointee.tags.isEmpty ? ImportBase.emptyTextPrint : ImportBase.fingerprint(value(of: task.pointee))
        case .repeatRule: return task.pointee.repeatRule.isNone ? ImportBase.emptyTextPrint : ImportBase.fingerprint(value(of: task.pointee))
        case .list: return task.pointee.list.isEmpty ? ImportBase.emptyTextPrint : ImportBase.fingerprint(value(of: task.pointee))
        case .parent: return task.pointee.parent == nil ? ImportBase.emptyTextPrint : ImportBase.fingerprint(value(of: task.pointee))
        case .order: return ImportBase.fingerprint(value(of: task.pointee))
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
        case .caption, .order, .due, .note, .tags, .repeatRule, .list, .parent:
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
