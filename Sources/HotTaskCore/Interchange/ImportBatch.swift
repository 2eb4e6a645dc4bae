import FoundationEssentials
import Glibc

/// Tasks read from an import file, validated in full before anything is written.
struct ImportBatch: Equatable, Sendable {
    enum Format: String, Sendable {
        case hottask = "HotTask"
        case taskwarrior = "Taskwarrior"
        case todoTxt = "todo.txt"
        case iCalendar = "iCalendar"
    }

    let format: Format
    var tasks: [TaskItem]
    /// Tasks the source holds that HotTask does not take (Taskwarrior's deleted tasks and
    /// recurrence templates).
    let skipped: Int
    /// What the source held that HotTask did not keep, for the import's report.
    var losses = ImportLosses()
    /// todo.txt's `id:` tags, by the position of their task in `tasks`: the id prefix HotTask
    /// wrote when it exported the line (see `TaskList.resolvingIdentity`).
    var idPrefixes: [Int: String] = [:]
    /// What todo.txt lines left unsaid (no date, no priority), where they were, and the notes
    /// for the user; nil for other formats.
    var todoTxtLines: TodoTxtLines?
    /// What each task's record held that HotTask does not model, by the task's position in
    /// `tasks` (see `CarriedFields`); none for a record with nothing more.
    var carried: [Int: String] = [:]
    /// The lists the file names for its tasks (a vdir's sub-folders, an .ics file's
    /// X-WR-CALNAME): each task's `list` is then a name as the file gives it, placed by
    /// `TaskList.placing`; nil when the file names none.
    var namedLists: NamedLists?

    struct NamedLists: Equatable, Sendable {
        /// In the file's order.
        var names: [String]
        /// A list the store lacks is made (a vdir's sub-folder); else its tasks go to the
        /// default list (an .ics file's name: a file is not a list made).
        var makesMissing: Bool
    }

    /// The side file's format for this batch's records; nil for formats that carry nothing.
    var carriedFormat: CarriedFields.Format? {
        switch format {
        case .taskwarrior: .taskwarrior
        case .iCalendar: .iCalendar
        case .todoTxt: .todoTxt
        case .hottask: nil
        }
    }

    init(format: Format, tasks: [TaskItem], skipped: Int, losses: ImportLosses = ImportLosses(), idPrefixes: [Int: String] = [:]) {
        self.format = format
        self.tasks = tasks
        self.skipped = skipped
        self.losses = losses
        self.idPrefixes = idPrefixes
    }

    /// Why an import file could not be read.
    struct ReadFailure: Error, Sendable {
        let reason: String
    }

    /// Reads an import file (or `/dev/stdin`), refusing one larger than a store may be.
    static func readFile(_ path: String) throws(ReadFailure) -> [UInt8] {
        do throws(FileSystem.Failure) {
            if try FileSystem.kind(of: path) == .directory { throw FileSystem.Failure(reason: "it is a folder, not a file") }
            return try FileSystem.readAll(path, limit: StoreLimits.readBytes)
        } catch {
            throw ReadFailure(reason: error.reason)
        }
    }

    /// Reads a HotTask store document, Taskwarrior's `task export` (an array or one object
    /// per line), an iCalendar file or a todo.txt file.
    ///
    /// `format` nil tells them apart strictly: JSON and iCalendar by their content, todo.txt
    /// only when `fileName` ends in `.txt`. Anything else is refused: todo.txt accepts almost
    /// any text, so guessing it would import an SSH key as tasks.
    static func parse(_ bytes: [UInt8], as format: Format? = nil, fileName: String? = nil) throws(DocumentError) -> ImportBatch {
        let namedTxt = fileName?.lowercased().hasSuffix(".txt") ?? false
        // A todo.txt file with no tasks is a todo.txt file (what an empty list exports).
        if format == .todoTxt || (format == nil && namedTxt) {
            let jsonLooking = format == nil ? bytes.first(where: { !isJSONWhitespace($0) }) : nil
            // A JSON export that happens to be named .txt. No todo.txt line starts with "{", so
            // such a file that does not parse is a damaged document, said so, not tasks made
            // of its lines; "[" may start a todo.txt line ("[work] call Bob").
            if jsonLooking == UInt8(ascii: "{") { return try parseJSON(bytes) }
            if jsonLooking == UInt8(ascii: "["), let json = try? parseJSON(bytes) { return json }
            return try TodoTxtFormat.batch(from: bytes)
        }
        guard let first = bytes.first(where: { !isJSONWhitespace($0) }) else {
            throw .invalid("the input is empty")
        }
        switch format {
        case .todoTxt?: return try TodoTxtFormat.batch(from: bytes)
        case .iCalendar?:
            guard ICalendarFormat.looksLikeICalendar(bytes) else {
                throw .invalid("it is not an iCalendar file (it does not start with BEGIN:VCALENDAR)")
            }
            return try ICalendarFormat.batch(from: bytes)
        case .hottask?, .taskwarrior?:
            let batch = try parseJSON(bytes)
            guard batch.format == format else {
                throw .invalid(
                    "it is a \(batch.format.rawValue) file, not \(format!.rawValue); give --import-format \(batch.format == .hottask ? "hottask" : "taskwarrior") or auto"
                )
            }
            return batch
        case nil:
            if ICalendarFormat.looksLikeICalendar(bytes) { return try ICalendarFormat.batch(from: bytes) }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || (try? JSONParser.parse(bytes)) != nil {
                return try parseJSON(bytes)
            }
            // Binary data (a NUL, or control bytes that no text has) is none of the formats:
            // offering todo.txt would lead to a second refusal. Text in another encoding (a
            // Latin-1 todo.txt) is text, and keeps the todo.txt hint.
            let head = bytes.prefix(65_536)
            let controls = head.lazy.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }.count
            guard !head.contains(0), controls * 20 < head.count else {
                throw .invalid(
                    "it is not text (binary data); give a HotTask or Taskwarrior JSON export, an .ics file, a calendar folder or a todo.txt file")
            }
            throw .invalid(
                "it is not JSON or iCalendar, and todo.txt is read only from a file named *.txt; give --import-format todotxt to read it as todo.txt")
        }
    }

    /// Why a file over the store's limit is refused, and what to do instead.
    static let tooManyTasks =
        "it holds more than \(StoreLimits.tasks) tasks, and HotTask keeps at most \(StoreLimits.tasks); "
        + "split it into smaller files, or leave out the completed tasks, and import each"

    /// The HotTask document in the regular file at `path`, read through a window as the store
    /// is (a 100,000-task export is 30 MB, which `parse` would hold while the tasks are made).
    /// nil for anything else, or anything unusual: `readFile` and `parse` then read it whole,
    /// and say what is wrong with it.
    static func hotTaskDocument(at path: String, as format: Format?) -> ImportBatch? {
        guard format == nil || format == .hottask, (try? FileSystem.kind(of: path)) == .file,
            let file = try? FileSystem.OpenFile(path),
            var snapshot = JSONParser.decodeStoreFast(file, limit: StoreLimits.readBytes, givingKeys: false)
        else { return nil }
        return ImportBatch(format: .hottask, tasks: snapshot.list.takeAll(), skipped: 0)
    }

    /// The Taskwarrior export in the regular file at `path`, read through a window (a
    /// 100,000-task export is 21 MB, which `parse` would hold while the tasks are made). nil for
    /// anything else, or anything unusual: `readFile` and `parse` then read it whole.
    static func taskwarriorExport(at path: String, as format: Format?) throws(DocumentError) -> ImportBatch? {
        guard format == nil || format == .taskwarrior, (try? FileSystem.kind(of: path)) == .file,
            let file = try? FileSystem.OpenFile(path)
        else { return nil }
        do {
            return try JSONParser.decodeTaskwarriorFast(file, limit: StoreLimits.readBytes)
        } catch {
            throw .invalid(tooManyTasks)
        }
    }

    /// A HotTask document (its captions read as a store's are: kept as they came) or a
    /// Taskwarrior export.
    private static func parseJSON(_ bytes: [UInt8]) throws(DocumentError) -> ImportBatch {
        if var snapshot = JSONParser.decodeStoreFast(bytes, givingKeys: false) {
            return ImportBatch(format: .hottask, tasks: snapshot.list.takeAll(), skipped: 0)
        }
        // A Taskwarrior export read straight into tasks; anything unusual takes the strict path.
        if bytes.first(where: { !isJSONWhitespace($0) }) == UInt8(ascii: "["), let batch = JSONParser.decodeTaskwarriorFast(bytes) {
            return batch
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch let wholeError {
            // Taskwarrior writes one object per line; a HotTask document never has that shape.
            guard let lines = try jsonLines(bytes) else { throw .syntax(wholeError) }
            return try TaskwarriorFormat.batch(from: lines.map { ("line \($0.line)", $0.value) })
        }
        switch root {
        case .object(let object) where object["tasks"] != nil || object["version"] != nil:
            var snapshot = try StoreDocument.decode(root)
            return ImportBatch(format: .hottask, tasks: snapshot.list.takeAll(), skipped: 0)
        case .object(let object) where object["uuid"] != nil:
            return try TaskwarriorFormat.batch(from: [("task 1", root)])
        case .array(let items):
            return try TaskwarriorFormat.batch(from: items.enumerated().map { ("task \($0.offset + 1)", $0.element) })
        default:
            throw .invalid(
                "expected a HotTask store ({\"version\": 1, \"tasks\": [...]}) or a Taskwarrior export (an array of tasks), found \(root.kindName)"
            )
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The values of a JSON Lines text, or nil when the text does not look like one (its
    /// first line is not a complete object on its own).
    private static func jsonLines(_ bytes: [UInt8]) throws(DocumentError) -> [(line: Int, value: JSONValue)]? {
        let start = bytes.firstIndex(where: { !isJSONWhitespace($0) }) ?? 0
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        guard case .object? = try? JSONParser.parse(Array(bytes[start..<end])), end < bytes.count else {
            return nil
        }
        // More lines than a store keeps tasks: refused before a million objects are parsed.
        var lines = 0
        for byte in bytes where byte == 0x0A { lines += 1 }
        if lines > StoreLimits.tasks {
            throw .invalid(tooManyTasks)
        }
        do {
            return try JSONParser.parseLines(bytes)
        } catch {
            throw .syntax(error)
        }
    }
}
