import FoundationEssentials
import Glibc

/// What the files tasks came from held that HotTask does not model, kept beside the store
/// (`tasks.json.carried`) exactly as it came, so that an export back to that format writes it
/// again (Taskwarrior's tags, project, annotations and UDAs; a VTODO's other properties; a
/// todo.txt priority other than A).
///
/// One record per task and format, replaced by each import of that format. Kept apart from the
/// store so that loading, saving and every other command cost nothing for it; only an import or
/// export of Taskwarrior, iCalendar or todo.txt reads it, and only a file that had something to carry
/// makes it. A line is `id letter record`, the record with `\`, line feed and carriage return
/// escaped (`\\`, `\n`, `\r`).
///
/// It also knows which tasks a format has, so that deletions travel: the Taskwarrior tasks an
/// import brought (until one says the task is deleted there), and the tasks of the todo.txt
/// file HotTask last read or wrote (`todoTxtFile`). A task a format has with nothing to carry
/// is a line `id letter` alone (which a HotTask from before skips).
struct CarriedFields: Sendable {
    enum Format: UInt8, Sendable, CaseIterable {
        case taskwarrior = 0x74  // t
        case iCalendar = 0x69  // i
        case todoTxt = 0x78  // x

        var name: String {
            switch self {
            case .taskwarrior: "Taskwarrior"
            case .iCalendar: "iCalendar"
            case .todoTxt: "todo.txt"
            }
        }
    }

    private struct Key: Hashable {
        var id: UUID
        var format: Format

        /// The id as two words and the format: Foundation hashes a UUID as bytes, which made
        /// a first todo.txt export's 100,000 members cost several times more.
        func hash(into hasher: inout Hasher) {
            let (high, low) = UUIDBytes.sortKey(id)
            hasher.combine(high)
            hasher.combine(low)
            hasher.combine(format.rawValue)
        }
    }

    private var records: [Key: String] = [:]
    /// Tasks a format has with nothing to carry (a record says the same of its task).
    private var members: Set<Key> = []
    /// Changed since it was loaded: saved only then.
    private(set) var changed = false

    /// The todo.txt file HotTask last read or wrote, and its `#` lines (not tasks: written back
    /// at the top of the file by an export to it). Kept as a record of the id of zeros.
    struct TodoTxtFile: Equatable, Sendable {
        /// Its real path (symbolic links resolved).
        var path: String
        var comments: [String] = []
    }

    private static let fileKey = Key(id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), format: .todoTxt)

    init() {}

    var isEmpty: Bool { records.isEmpty && members.isEmpty }

    subscript(id: UUID, format: Format) -> String? {
        records[Key(id: id, format: format)]
    }

    /// True when `format` has the task (see the type's notes).
    func has(_ id: UUID, _ format: Format) -> Bool {
        let key = Key(id: id, format: format)
        return members.contains(key) || records[key] != nil
    }

    /// The todo.txt file HotTask last read or wrote.
    var todoTxtFile: TodoTxtFile? {
        get {
            guard let record = records[Self.fileKey] else { return nil }
            let lines = record.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return TodoTxtFile(path: lines[0], comments: Array(lines.dropFirst()))
        }
        set {
            let record = newValue.map { ([$0.path] + $0.comments).joined(separator: "\n") }
            if records[Self.fileKey] != record {
                records[Self.fileKey] = record
                changed = true
            }
        }
    }

    /// The format no longer has these tasks (Taskwarrior said they are deleted there; their
    /// todo.txt line is gone): their records go too.
    mutating func forget(_ ids: some Sequence<UUID>, _ format: Format) {
        for id in ids {
            let key = Key(id: id, format: format)
            if members.remove(key) != nil { changed = true }
            if records.removeValue(forKey: key) != nil { changed = true }
        }
    }

    /// These tasks' todo.txt lines are no longer archived (they are open again, and written
    /// back into todo.txt).
    /// Each repeating task's todo.txt record after an export wrote it: its line's due day, and
    /// the done lines written for occurrences done here (`doneHere`), until todo.sh archives them.
    mutating func wroteTodoTxt(_ tasks: some Sequence<TaskItem>, doneHere: [UUID: [String]]) {
        for task in tasks where !task.repeatRule.isNone && !task.completed {
            let key = Key(id: task.id, format: .todoTxt)
            var record = TodoTxtRecord(records[key])
            record.lineDue = task.due?.dayText
            record.doneLines += doneHere[task.id] ?? []
            guard records[key] != record.text else { continue }
            records[key] = record.text
            members.insert(key)
            changed = true
        }
    }

    mutating func unarchive(_ ids: some Sequence<UUID>) {
        // Most files have no archived line: then no id is looked up.
        let anyArchived = records.contains { $0.key.format == .todoTxt && $0.key != Self.fileKey && TodoTxtRecord($0.value).archived }
        guard anyArchived else { return }
        for id in ids {
            let key = Key(id: id, format: .todoTxt)
            guard let text = records[key] else { continue }
            var record = TodoTxtRecord(text)
            guard record.archived else { continue }
            record.archived = false
            records[key] = record.text
            if record.text == nil { members.insert(key) }
            changed = true
        }
    }

    /// Exactly `ids` are what `format` has now (a todo.txt file read or written whole): the
    /// others are forgotten, with their records.
    mutating func keepOnly(_ ids: some Collection<UUID>, _ format: Format) {
        // An `IDTable`, not a `Set<UUID>`: this runs for every task of a todo.txt export.
        var kept = IDTable(count: ids.count)
        for id in ids { kept.insert(id) }
        let gone =
            Array(members.lazy.filter { $0.format == format && !kept.contains($0.id) }.map(\.id))
            + records.keys.lazy.filter { $0.format == format && $0 != Self.fileKey && !kept.contains($0.id) }.map(\.id)
        forget(gone, format)
        members.reserveCapacity(members.count + ids.count)  // one table, not a resize per doubling
        for id in ids where members.insert(Key(id: id, format: format)).inserted { changed = true }
    }

    /// How many tasks in `ids` have a record of each format other than `format`: what an export
    /// to `format` leaves out.
    func others(than format: Format?, among ids: some Sequence<UUID>) -> [Format: Int] {
        // The records that hold fields, by id: looked up once an id, not once a format (most
        // stores that carry anything have only todo.txt's file record, and no id to look up).
        var holding: [UUID: [Format]] = [:]
        for (key, record) in records where key.format != format {
            // A todo.txt record of flags alone (no date, archived) holds no field.
            guard key.format != .todoTxt || TodoTxtRecord(record).letter != nil else { continue }
            holding[key.id, default: []].append(key.format)
        }
        guard !holding.isEmpty else { return [:] }
        var counts: [Format: Int] = [:]
        for id in ids {
            for other in holding[id] ?? [] { counts[other, default: 0] += 1 }
        }
        return counts
    }

    /// What a file of `format` said of its tasks: each record replaces the one before, and a
    /// task the file gave without one loses its old one (the file no longer has those fields).
    /// Taskwarrior and todo.txt have the tasks they gave (`has`).
    mutating func record(_ format: Format, tasks: [TaskItem], records said: [Int: String]) {
        record(format, ids: tasks.map(\.id), records: said)
    }

    /// The same, by the tasks' ids.
    mutating func record(_ format: Format, ids: [UUID], records said: [Int: String]) {
        let tracked = format != .iCalendar
        if records.isEmpty && said.isEmpty && !tracked { return }
        if tracked { members.reserveCapacity(members.count + ids.count) }
        for (position, id) in ids.enumerated() {
            let key = Key(id: id, format: format)
            // No look-up in an empty table (a first import of 100,000 tasks that carry nothing
            // hashed each id twice for nothing).
            let record = said.isEmpty ? nil : said[position]
            if record != nil || !records.isEmpty, records[key] != record {
                records[key] = record
                changed = true
            }
            if tracked && record == nil && members.insert(key).inserted { changed = true }
        }
    }

    static func path(besides store: TaskStore) -> String { store.path + ".carried" }

    /// The file could not be read (or is not trusted); the import or export says so and goes on
    /// without it.
    struct Unreadable: Error, Sendable, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "the carried fields \(path) cannot be read: \(reason)" }
    }

    /// The records beside `store`; none when there is no file.
    static func load(besides store: TaskStore) throws(Unreadable) -> CarriedFields {
        let path = path(besides: store)
        let bytes: [UInt8]
        do throws(FileSystem.Failure) {
            // Opened without blocking: a named pipe in its place is an error, never a wait.
            bytes = try FileSystem.readAll(path, limit: StoreLimits.readBytes, sideFile: true)
        } catch  where error.code == ENOENT || error.code == ENOTDIR {
            return CarriedFields()
        } catch {
            throw Unreadable(path: path, reason: error.reason)
        }
        // Its text goes into exports as it is: one another user could write is not trusted.
        if let problem = FileSystem.untrusted(path) { throw Unreadable(path: path, reason: problem) }
        var carried = CarriedFields()
        // Room for a member on every line (39 bytes each) at once: grown as it filled, the set
        // was rehashed again and again, most of loading a todo.txt file's 100,000 members.
        carried.members.reserveCapacity(bytes.count / 39)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            if end - start == 38, bytes[start + 36] == 0x20, let format = Format(rawValue: bytes[start + 37]),
                let id = bytes.withUnsafeBufferPointer({ UUIDBytes.parse(UnsafeBufferPointer(rebasing: $0[start..<start + 36])) })
            {
                carried.members.insert(Key(id: id, format: format))
            } else if end - start > 39, bytes[start + 36] == 0x20, bytes[start + 38] == 0x20,
                let format = Format(rawValue: bytes[start + 37]),
                let id = bytes.withUnsafeBufferPointer({ UUIDBytes.parse(UnsafeBufferPointer(rebasing: $0[start..<start + 36])) }),
                let record = unescaped(bytes[(start + 39)..<end])
            {
                carried.records[Key(id: id, format: format)] = record
            }
            start = end + 1
        }
        return carried
    }

    /// Writes the records beside `store` (atomically, as the other side files), in id order;
    /// no records and no file: nothing is written.
    func save(besides store: TaskStore) throws(StoreDocument.ExportFailure) {
        try save(to: Self.path(besides: store))
    }

    /// Writes the records to `path` (an import's, pending its commit: `ExchangeFiles`).
    func save(to path: String) throws(StoreDocument.ExportFailure) {
        // Keys alone, as the id's words and the format, sorted in place (its text made two
        // strings a comparison): an import or first todo.txt export of 100,000 tasks has as
        // many members, and a sorted copy of keys with their records was a fifth of its memory.
        // A member that has a record too is written once, as the record: sorted after it
        // (`member` 1) and skipped, rather than looked up in the records one by one.
        var keys: [(high: UInt64, low: UInt64, format: UInt8, member: UInt8)] = []
        keys.reserveCapacity(records.count + members.count)
        for key in records.keys {
            let (high, low) = UUIDBytes.sortKey(key.id)
            keys.append((high, low, key.format.rawValue, 0))
        }
        for key in members {
            let (high, low) = UUIDBytes.sortKey(key.id)
            keys.append((high, low, key.format.rawValue, 1))
        }
        keys.sort { ($0.high, $0.low, $0.format, $0.member) < ($1.high, $1.low, $1.format, $1.member) }
        do throws(FileSystem.Failure) {
            FileSystem.removeDeadWritersTempFiles(besides: path)
            // Written in pieces of about a megabyte: an iCalendar import's records (each
            // to-do's text) are 33 MB at 100,000 tasks, and the whole file in one array took 75.
            var file = try FileSystem.AtomicFile(replacing: path)
            let pieceSize = 1 << 20
            var bytes: [UInt8] = []
            bytes.reserveCapacity(pieceSize + 4096)
            func writeIfFull() {
                guard bytes.count >= pieceSize else { return }
                file.write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
            for (index, entry) in keys.enumerated() {
                if index > 0, entry.member == 1, keys[index - 1].high == entry.high, keys[index - 1].low == entry.low,
                    keys[index - 1].format == entry.format
                {
                    continue
                }
                let id = UUIDBytes.id(sortKey: (entry.high, entry.low))
                UUIDBytes.append(id, to: &bytes)
                bytes.append(0x20)
                bytes.append(entry.format)
                if entry.member == 0, let format = Format(rawValue: entry.format), let record = records[Key(id: id, format: format)] {
                    bytes.append(0x20)
                    // A record of any size goes out a piece at a time (a todo.txt line of 50 MB).
                    for byte in record.utf8 {
                        Self.appendEscaped(byte, to: &bytes)
                        writeIfFull()
                    }
                }
                bytes.append(0x0A)
                writeIfFull()
            }
            file.write(bytes)
            try file.install()
        } catch {
            throw StoreDocument.ExportFailure(reason: error.reason)
        }
    }

    /// A record's byte on its line: backslash, line feed and carriage return escaped.
    @inline(__always)
    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case 0x5C: bytes += [0x5C, 0x5C]
        case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
        case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
        default: bytes.append(byte)
        }
    }

    private static func unescaped(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaping = false
        for byte in bytes {
            if escaping {
                switch byte {
                case 0x5C: out.append(0x5C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                default: return nil
                }
                escaping = false
            } else if byte == 0x5C {
                escaping = true
            } else {
                out.append(byte)
            }
        }
        return escaping ? nil : String(validating: out, as: UTF8.self)
    }
}

/// What todo.txt carries of a task: a priority letter other than A (`B`), `undated` for a line
/// without a creation date (none is made up on export), `archived` for a line todo.sh moved to
/// `done.txt` (never written back into todo.txt while the task stays done), `nodue:DAY` for a
/// `rec:` line without `due:` (the due date the import gave it: while the task keeps it, the
/// export writes no `due:`), and `as:HASH WORDS` for a line whose words stand in another order
/// than an export writes them (`Plan +garden party`): while the task's words hash to HASH, the
/// export writes WORDS as they came. Words with a space between, `as:` last (its words take
/// the rest); a record of only the letter is what a HotTask from before wrote. Then, a line
/// each, the done lines of the task's past occurrences that todo.sh's `do` left in todo.txt
/// (auto-archive off): written back before the task's line until todo.sh archives them.
struct TodoTxtRecord: Equatable, Sendable {
    var letter: String?
    var undated = false
    var archived = false
    /// The day (`YYYY-MM-DD`) an import gave a `rec:` line without `due:`.
    var assumedDue: String?
    /// The due day of a repeating task's open line as the file last had it (read or written):
    /// the occurrences done here since are written as done lines (issue 52).
    var lineDue: String?
    /// The line's words as they came, and the hash of the words an export would write for them.
    var words: (said: UInt64, text: String)?
    /// Done lines of past occurrences still in todo.txt, as they came.
    var doneLines: [String] = []

    init(letter: String? = nil, undated: Bool = false, archived: Bool = false) {
        self.letter = letter
        self.undated = undated
        self.archived = archived
    }

    init(_ record: String?) {
        let lines = (record ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        doneLines = lines.dropFirst().map(String.init)
        var rest = lines.first ?? ""
        while !rest.isEmpty {
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count).dropFirst()
            switch word {
            case "undated": undated = true
            case "archived": archived = true
            default:
                if word.hasPrefix("as:"), let said = UInt64(word.dropFirst(3), radix: 16) {
                    words = (said, String(rest))
                    return
                }
                if word.hasPrefix("at:") {
                    lineDue = String(word.dropFirst(3))
                } else if word.hasPrefix("nodue:") {
                    assumedDue = String(word.dropFirst(6))
                } else if word.count == 1 {
                    letter = String(word)
                }
            }
        }
    }

    /// The record's text; nil when it says nothing.
    var text: String? {
        let parts = [letter, undated ? "undated" : nil, archived ? "archived" : nil, assumedDue.map { "nodue:" + $0 }, lineDue.map { "at:" + $0 }]
            .compactMap { $0 }
        guard !parts.isEmpty || words != nil || !doneLines.isEmpty else { return nil }
        // Made once at its size: the words of a line of 50 MB are not copied twice more.
        let said = words.map { "as:" + String($0.said, radix: 16) + " " }
        var text = parts.joined(separator: " ")
        text.reserveCapacity(
            text.utf8.count + 1 + (said?.utf8.count ?? 0) + (words?.text.utf8.count ?? 0) + doneLines.reduce(0) { $0 + 1 + $1.utf8.count })
        if let said, let words {
            if !parts.isEmpty { text += " " }
            text += said
            text += words.text
        }
        for line in doneLines {
            text += "\n"
            text += line
        }
        return text
    }

    static func == (a: TodoTxtRecord, b: TodoTxtRecord) -> Bool {
        a.text == b.text
    }
}
