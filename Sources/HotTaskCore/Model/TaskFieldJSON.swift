import FoundationEssentials
import Glibc

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
                writer.due(due)
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
        case .list(let list): writer.string(list)
        case .parent(let parent):
            if let parent { writer.string(Subtasks.text(parent)) } else { writer.raw("null") }
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
        case .list:
            guard let text = try fields.optionalString(key) else { return nil }
            if !text.isEmpty, let problem = ListNameRule.check(text) { throw fields.problem("\"list\": \(problem)") }
            return .list(text)
        case .parent:
            switch fields.object[key] {
            case nil: return nil
            case .null?: return .parent(nil)
            case .string(let text)?:
                guard let parent = UUID(uuidString: text) else { throw fields.problem("\"parent\" is not a task's id: \"\(text)\"") }
                return .parent(parent)
            case let other?: throw fields.problem("\"parent\" must be a task's id, found \(other.kindName)")
            }
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
