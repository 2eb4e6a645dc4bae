/// What `--import` reads. `auto` is strict: JSON and iCalendar are told by their content,
/// todo.txt only by a `.txt` name, and anything else is refused rather than guessed.
public enum ImportFormat: String, CaseIterable, Sendable {
    case auto
    case hottask
    case taskwarrior
    case todotxt
    case ics

    /// The format to read as, nil to tell it from the file.
    var batchFormat: ImportBatch.Format? {
        switch self {
        case .auto: nil
        case .hottask: .hottask
        case .taskwarrior: .taskwarrior
        case .todotxt: .todoTxt
        case .ics: .iCalendar
        }
    }
}

/// What `--export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// The format `--export path` writes without `--export-format`: a file named `*.txt` is
    /// todo.txt and one named `*.ics` iCalendar, as `--import` reads them (JSON written into
    /// `todo.txt` was read back by todo.sh as one task a line); anything else, and standard
    /// output, HotTask's JSON document.
    public static func named(by path: String) -> ExportFormat {
        let name = path.lowercased()
        if name.hasSuffix(".txt") { return .todotxt }
        if name.hasSuffix(".ics") { return .ics }
        return .hottask
    }

    /// How a status line names it.
    var name: String {
        switch self {
        case .hottask: "HotTask JSON"
        case .taskwarrior: "Taskwarrior JSON"
        case .todotxt: "todo.txt"
        case .ics: "iCalendar"
        case .vdir: "a vdir folder"
        }
    }

    /// The JSON store document (Assets/hottask.schema.json).
    case hottask
    /// A JSON array `task import` accepts.
    case taskwarrior
    /// One todo.txt line per task (http://todotxt.org).
    case todotxt
    /// An iCalendar file of VTODOs (RFC 5545).
    case ics
    /// A folder of .ics files, one per task, as todoman, khal and vdirsyncer keep them.
    case vdir

    /// Whose carried fields (`CarriedFields`) an export in this format writes back.
    var carriedFormat: CarriedFields.Format? {
        switch self {
        case .taskwarrior: .taskwarrior
        case .ics, .vdir: .iCalendar
        case .todotxt: .todoTxt
        case .hottask: nil
        }
    }

    /// The fields of the table this format cannot hold, by the name a note gives them: todo.txt
    /// has no notes (a line is one line).
    var leavesOut: [(field: TaskField, name: String)] {
        switch self {
        // Subtasks go out flat (DECISIONS): Taskwarrior's `depends` is a prerequisite, not a
        // family, and todo.txt has no standard for them.
        case .todotxt: [(.note, "notes"), (.parent, "subtask relations")]
        case .taskwarrior: [(.parent, "subtask relations")]
        case .hottask, .ics, .vdir: []
        }
    }
}
