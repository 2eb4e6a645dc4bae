import FoundationEssentials
import Glibc

/// The part of a Taskwarrior task HotTask does not model, carried (`CarriedFields`) as a JSON
/// object of those members, and merged back into the export: `task import` replaces every field
/// of a task it has, so whatever the export leaves out is wiped there.
enum TaskwarriorCarry {
    /// Fields HotTask writes from its own task: never carried, and a record holding one (made
    /// before HotTask modelled it, as the due date was) has it left out on export, so that
    /// HotTask's value wins.
    static let modelled: Set<String> = [
        "uuid", "description", "status", "entry", "modified", "end", "due", "annotations", "tags", "project", annotationEntries,
        repeatField,
    ]
    /// A repeat rule Taskwarrior has no `recur` for (`every mon,thu`), kept as its RRULE in this
    /// field (a UDA to Taskwarrior, which keeps it) so that it comes back.
    static let repeatField = "hottask_repeat"
    /// Where a record keeps its annotations' entry times (Taskwarrior has no such field): each
    /// annotation as `[entry, fingerprint of its line]`, the line being the task's note, and
    /// its text as it came third when the line is not that text (a line break or a tab in it,
    /// spaces at its ends), so that an unchanged line goes back exactly as it came.
    static let annotationEntries = "hottask:annotations"
    /// The tag a Taskwarrior `project` is: `project:NAME`.
    static let projectTagPrefix = "project:"
    /// `"name":` of each field that may override a carried member: the modelled ones and
    /// priority (status only through `status(for:)`).
    private static let overriding: [[UInt8]] = (modelled.sorted() + ["priority"]).map { Array("\"\($0)\":".utf8) }
    /// Fields Taskwarrior computes on export and ignores on import.
    static let computed: Set<String> = ["id", "urgency"]

    /// The members of `object` to carry, as a JSON object's text; nil when there are none. A
    /// priority other than H is carried (HotTask has only "Top Priority or not"), and so is H
    /// on a task that went to Bonus (a waiting one), and status `waiting` (HotTask's open is
    /// `pending`).
    static func record(of object: [String: JSONValue], section: Section) -> String? {
        var members = object.filter { !modelled.contains($0.key) && !computed.contains($0.key) }
        if let entries = entries(of: object["annotations"]) { members[annotationEntries] = entries }
        switch members["priority"] {
        case .string("H")? where section == .priority: members["priority"] = nil
        case .null?: members["priority"] = nil
        default: break
        }
        if case .string("waiting")? = object["status"] { members["status"] = .string("waiting") }
        if case .string("recurring")? = object["status"] { members["status"] = .string("recurring") }
        // Taskwarrior keeps an occurrence's place as text ("1") and exports it as a number: given
        // back as a number, `task import` stores "1.000000" and counts the task as modified.
        if case .number(let place)? = members["imask"], place.rounded() == place, abs(place) < 1e15 {
            members["imask"] = .string(String(Int64(place)))
        }
        guard !members.isEmpty else { return nil }
        var writer = JSONWriter()
        write(.object(members), to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The carried members to write after HotTask's own fields (each with its leading comma):
    /// a carried priority only while the task is not Top Priority (HotTask's H wins), status only
    /// through `status(for:)`.
    static func members(of record: String?, section: Section) -> [(key: String, value: JSONValue)] {
        guard let record, case .object(let object)? = try? JSONParser.parse(Array(record.utf8)) else { return [] }
        return object.filter { $0.key != "status" && !(section == .priority && $0.key == "priority") && !modelled.contains($0.key) }
            .sorted { $0.key < $1.key }
    }

    /// The record's members as written (its text without the braces) when none of them is one
    /// HotTask's fields may override (priority, status): most records, written without parsing.
    /// A member name is always quoted, so `"priority":` appears only as a name or inside a string
    /// (then the slow path is merely taken for nothing).
    static func plainMembers(of record: String) -> Substring? {
        guard record.hasPrefix("{"), record.hasSuffix("}"), record.utf8.count > 2, !overriding.contains(where: { has(record, $0) })
        else { return nil }
        return record.dropFirst().dropLast()
    }

    /// Whether `text` holds `part`, byte for byte (Foundation's `contains` was a third of an export).
    private static func has(_ text: String, _ part: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            part.withUnsafeBufferPointer { ByteSearch.firstIndex(of: $0, in: bytes, from: 0) != nil }
        }
    }

    /// The status to write: `waiting` for an open task Taskwarrior had waiting.
    static func status(for task: TaskItem, record: String?) -> String {
        if task.completed { return "completed" }
        if let record, has(record, Array("\"status\":\"waiting\"".utf8)),
            case .object(let object)? = try? JSONParser.parse(Array(record.utf8)), case .string("waiting")? = object["status"]
        {
            return "waiting"
        }
        return "pending"
    }

    /// JSON text of a value, keys sorted; an integral number without a fraction (`"imask":1`).
    static func write(_ value: JSONValue, to writer: inout JSONWriter) {
        switch value {
        case .null: writer.raw("null")
        case .bool(let flag): writer.raw(flag ? "true" : "false")
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                writer.raw(String(Int64(number)))
            } else {
                writer.raw(number.description)
            }
        case .string(let text): writer.string(text)
        case .array(let items):
            writer.raw("[")
            for (offset, item) in items.enumerated() {
                if offset > 0 { writer.raw(",") }
                write(item, to: &writer)
            }
            writer.raw("]")
        case .object(let object):
            writer.raw("{")
            for (offset, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
                if offset > 0 { writer.raw(",") }
                writer.string(member.key)
                writer.raw(":")
                write(member.value, to: &writer)
            }
            writer.raw("}")
        }
    }

    // MARK: Notes and tags

    /// The note and tags a task's `annotations`, `tags` and `project` make: each annotation a
    /// line of the note, in entry order (its line breaks become spaces, its tabs stay); the tags as they
    /// are, after the project as `project:NAME`. What does not pass the rules is left out.
    static func noteAndTags(annotations: JSONValue?, tags: JSONValue?, project: JSONValue?) -> (note: String, tags: [String]) {
        let lines = annotationTexts(annotations).map(\.text)
        var words: [String] = []
        if case .string(let name)? = project, !name.isEmpty { words.append(projectTagPrefix + name) }
        if case .array(let items)? = tags {
            for case .string(let tag) in items { words.append(tag) }
        }
        return (NoteRule.cleanCutting(lines.joined(separator: "\n")).note, TagRule.cleanKeeping(words).tags)
    }

    /// Each annotation's entry and text as one line, in entry order, and its text as it came.
    private static func annotationTexts(_ annotations: JSONValue?) -> [(entry: String, text: String, raw: String)] {
        guard case .array(let items)? = annotations else { return [] }
        var texts: [(entry: String, text: String, raw: String)] = []
        for case .object(let annotation) in items {
            guard case .string(let description)? = annotation["description"] else { continue }
            // A tab stays a tab, as a note keeps it (issue 52); the rest is cleaned as a caption.
            let line = description.split(separator: "\t", omittingEmptySubsequences: false).map { CaptionRule.cleanFragment(String($0)) }
                .joined(separator: "\t").trimmingWhitespace()
            guard !line.isEmpty else { continue }
            let entry: String = if case .string(let entry)? = annotation["entry"] { entry } else { "" }
            texts.append((entry, line, description))
        }
        return texts.enumerated().sorted { ($0.element.entry, $0.offset) < ($1.element.entry, $1.offset) }.map(\.element)
    }

    private static let noteOrTagKeys = ["annotations", "tags", "project", annotationEntries].map { Array("\"\($0)\":".utf8) }

    /// What a record keeps of `annotations`: each one's entry and the fingerprint of its line
    /// (and its text as it came, when the line is not that text).
    static func entries(of annotations: JSONValue?) -> JSONValue? {
        let texts = annotationTexts(annotations)
        guard !texts.isEmpty else { return nil }
        return .array(
            texts.map {
                .array([.string($0.entry), .string(fingerprint($0.text))] + ($0.raw == $0.text ? [] : [.string($0.raw)]))
            })
    }

    private static func fingerprint(_ line: String) -> String {
        String(FNV1a.hash(line.utf8), radix: 16)
    }

    /// The members HotTask writes for its note and tags: `project` (the first `project:` tag),
    /// `tags` (the others) and `annotations` (a line of the note each: a line an annotation
    /// had keeps its entry time; a new one gets the time of the note's change, a second
    /// apart from every other). A field the task was never given here (imported by a HotTask
    /// that did not read it) keeps what the record carried instead, as it came.
    static func noteAndTagMembers(for task: TaskItem, record: String?) -> [(key: String, value: JSONValue)] {
        // Parsed only when it holds one of them (most records do not: an export stays fast).
        let object: [String: JSONValue] =
            if let record, noteOrTagKeys.contains(where: { has(record, $0) }),
                case .object(let object)? = try? JSONParser.parse(Array(record.utf8))
            {
                object
            } else {
                [:]
            }
        var members: [(key: String, value: JSONValue)] = []
        if TaskField.tags.neverGiven(in: task) {
            for key in ["project", "tags"] { if let value = object[key] { members.append((key, value)) } }
        } else {
            var tags = task.tags
            if let index = tags.firstIndex(where: { $0.hasPrefix(projectTagPrefix) && $0.count > projectTagPrefix.count }) {
                members.append(("project", .string(String(tags.remove(at: index).dropFirst(projectTagPrefix.count)))))
            }
            if !tags.isEmpty { members.append(("tags", .array(tags.map(JSONValue.string)))) }
        }
        if TaskField.note.neverGiven(in: task) {
            if let value = object["annotations"] { members.append(("annotations", value)) }
        } else if !task.note.isEmpty {
            members.append(("annotations", annotations(for: task, carried: object)))
        }
        return members
    }

    /// The note's lines as annotations, entries from what the record carried where a line is
    /// the same.
    private static func annotations(for task: TaskItem, carried object: [String: JSONValue]) -> JSONValue {
        // Carried entries by fingerprint: this HotTask's record, or the annotations an older one kept whole.
        var known: [(entry: String, print: String, raw: String?)] = []
        if case .array(let pairs)? = object[annotationEntries] {
            for case .array(let pair) in pairs {
                guard pair.count >= 2, case .string(let entry) = pair[0], case .string(let print) = pair[1] else { continue }
                let raw: String? = if pair.count > 2, case .string(let raw) = pair[2] { raw } else { nil }
                known.append((entry, print, raw))
            }
        } else {
            known = annotationTexts(object["annotations"]).map { ($0.entry, fingerprint($0.text), $0.raw) }
        }
        let lines = task.note.split(separator: "\n").map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
        var used = Set<Int>()
        // A line an annotation had: its entry, and its text as it came (issue 41: kept exactly).
        var texts = lines
        var entries: [String?] = lines.indices.map { at in
            let print = fingerprint(lines[at])
            guard let index = known.indices.first(where: { !used.contains($0) && known[$0].print == print }) else { return nil }
            used.insert(index)
            if let raw = known[index].raw { texts[at] = raw }
            return known[index].entry
        }
        // New lines: the note's change, a second apart, clear of every entry kept.
        var taken = Set(entries.compactMap { $0 })
        var next = max(task.clocks[.note].date, task.createdAt)
        for index in entries.indices where entries[index] == nil {
            var text = Timestamp.formatCompact(next)
            while taken.contains(text) {
                next = next.addingTimeInterval(1)
                text = Timestamp.formatCompact(next)
            }
            taken.insert(text)
            entries[index] = text
        }
        return .array(
            zip(texts, entries).map { text, entry in .object(["entry": .string(entry ?? ""), "description": .string(text)]) })
    }
}
