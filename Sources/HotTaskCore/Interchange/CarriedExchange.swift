import FoundationEssentials
import Glibc

/// `tasks.json.carried` for imports and exports: an import records what its file held that
/// HotTask does not model; an export to that format merges it back, and one to another format
/// says what it left out. A file that cannot be read or written is a warning: the tasks
/// themselves are imported or exported all the same.
extension TaskStore {
    /// What an import hands over once committed: the ids of the file's tasks and their records,
    /// the tasks the format no longer has (Taskwarrior's deleted ones), and for todo.txt the file
    /// read (its tasks are exactly what it has now).
    struct CarriedSaid {
        let format: CarriedFields.Format
        /// The file's tasks' ids, by position.
        let ids: [UUID]
        let records: [Int: String]
        var forgotten: [UUID] = []
        var todoTxtFile: CarriedFields.TodoTxtFile?
    }

    /// The records beside the store, read before an import of `batch` changes anything: nil
    /// when the batch's format carries nothing, or (iCalendar) it has no records and there is
    /// no file (an import of a file of modelled fields costs nothing here). Taskwarrior and
    /// todo.txt always record which tasks they have (none yet: an empty record). Records that
    /// cannot be read refuse the import, as an import base that cannot be read does.
    func carriedBeforeImport(of batch: ImportBatch, source: String) throws -> CarriedFields? {
        guard let format = batch.carriedFormat else { return nil }
        // A file that cannot be looked at is read, and refused by `load`.
        let missing = (try? FileSystem.kind(of: CarriedFields.path(besides: self))) == .missing
        if missing { return format == .iCalendar && batch.carried.isEmpty ? nil : CarriedFields() }
        do {
            return try CarriedFields.load(besides: self)
        } catch {
            throw UserFacingError(.refused, "cannot import \(source): \(error). Move it away and import again. Nothing was changed")
        }
    }

    /// What `batch` has to record: the ids of its tasks and their records. `todoTxtFile`: the
    /// todo.txt file read (its real path).
    func carriedSaid(by batch: ImportBatch, todoTxtFile: String? = nil) -> CarriedSaid? {
        guard let format = batch.carriedFormat else { return nil }
        // Ids only: the tasks are dropped with the batch.
        var said = CarriedSaid(format: format, ids: batch.tasks.map(\.id), records: batch.carried, forgotten: batch.losses.deletedIDs)
        if let todoTxtFile { said.todoTxtFile = CarriedFields.TodoTxtFile(path: todoTxtFile, comments: batch.todoTxtLines?.comments ?? []) }
        return said
    }

    /// The records read before the import with what its file said on them (saved with the
    /// import's commit: `ExchangeFiles`).
    static func recorded(_ said: CarriedSaid, onto carried: CarriedFields) -> CarriedFields {
        var carried = carried
        if said.format == .todoTxt, let file = said.todoTxtFile {
            // The file's lines are what it has: a task whose line is gone no longer is there.
            carried.keepOnly(said.ids, .todoTxt)
            carried.todoTxtFile = file
        }
        carried.record(said.format, ids: said.ids, records: said.records)
        carried.forget(said.forgotten, said.format)
        return carried
    }

    /// Saves the records when they changed (a warning if they cannot be: the import or export
    /// itself is done).
    func saveCarried(_ carried: CarriedFields) -> [CommandMessage] {
        guard carried.changed else { return [] }
        do {
            try carried.save(besides: self)
            return []
        } catch {
            return [
                .warning(
                    "could not write \(CarriedFields.path(besides: self)) (\(error.reason)); the fields HotTask does not model were not kept"
                )
            ]
        }
    }

    /// The carried records for an export to `format` (empty when there are none), and what to
    /// say of the records of other formats it leaves out. Records that cannot be read refuse an
    /// export to a format that holds them (`task import` would wipe those fields where it
    /// goes); another format goes on with a warning.
    func carriedForExport(_ exportFormat: ExportFormat, list: TaskList) throws -> (CarriedFields, [CommandMessage]) {
        let (carried, messages) = try carriedForExport(exportFormat.carriedFormat, list: list)
        // What the format cannot hold of HotTask's own fields, counted into the same note.
        var leftOut: [String] = []
        for (field, name) in exportFormat.leavesOut {
            var count = 0
            for position in 0..<list.count where !field.isUnset(field.value(of: list[position])) { count += 1 }
            if count > 0 { leftOut.append("\(name) of \(count) task\(count == 1 ? "" : "s")") }
        }
        // todo.txt's `rec:` says every N days, weeks, months or years, and weekdays: a rule by
        // other days of the week, or with an end, stays here (an import of the line keeps it).
        if exportFormat == .todotxt {
            var count = 0
            for position in 0..<list.count where !TodoTxtRecurrence.says(list[position].repeatRule) { count += 1 }
            if count > 0 { leftOut.append("repeat rules rec: cannot say of \(count) task\(count == 1 ? "" : "s") (kept here)") }
        }
        guard !leftOut.isEmpty else { return (carried, messages) }
        let prefix = "left out, as this format cannot hold them: "
        var others: [String] = []
        var rest: [CommandMessage] = []
        for message in messages {
            if case .note(let text) = message, text.hasPrefix(prefix) {
                others.append(String(text.dropFirst(prefix.count)))
            } else {
                rest.append(message)
            }
        }
        return (carried, rest + [.note(prefix + (leftOut + others).joined(separator: ", "))])
    }

    private func carriedForExport(_ format: CarriedFields.Format?, list: TaskList) throws -> (CarriedFields, [CommandMessage]) {
        let carried: CarriedFields
        do {
            carried = try CarriedFields.load(besides: self)
        } catch {
            guard let format else { return (CarriedFields(), [.warning("\(error)")]) }
            throw UserFacingError(
                .refused,
                "cannot export: \(error); without them the export would wipe those \(format.name) fields where it goes (move the file away to export without them). Nothing was written"
            )
        }
        guard !carried.isEmpty else { return (carried, []) }  // no file, or nothing kept: no list walk
        let left = carried.others(than: format, among: [list.priority, list.bonus].joined().lazy.map(\.id))  // no copy of every task
        guard !left.isEmpty else { return (carried, []) }
        let counts = left.sorted { $0.key.name < $1.key.name }.map { "\($0.key.name) fields of \($0.value) task\($0.value == 1 ? "" : "s")" }
        return (carried, [.note("left out, as this format cannot hold them: \(counts.joined(separator: ", "))")])
    }
}
