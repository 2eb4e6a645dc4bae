import FoundationEssentials
import Glibc

/// `--export`: the list in another format, with what files held that HotTask does not model
/// merged back (`CarriedFields`).
extension TaskStore {
    /// Writes `list` as `format` to `path`: a file (replaced whole, never one of the store's
    /// own), a folder for vdir, or "-" for `standardOutput`. Written as it is made, in pieces:
    /// the whole document is never held (30 MB for 100,000 tasks in HotTask's format, several
    /// times that as iCalendar). What it has to say goes to `say` as it happens: a note of what
    /// the format leaves out comes before the document, and is said even when the write fails.
    /// `listName` is the one list `list` holds (`--in`), nil for all: an .ics file is then
    /// named for it (X-WR-CALNAME), and a vdir of a store of several lists gets a sub-folder
    /// per list.
    /// `byName`: `format` came from the file's name (`ExportFormat.named`), which the status
    /// line then says, with how to ask for HotTask's JSON instead.
    public func export(
        _ list: TaskList, as format: ExportFormat, byName: Bool = false, to path: String, listName: String? = nil,
        standardOutput: ([UInt8]) -> Void, say: (CommandMessage) -> Void
    ) throws {
        let (carried, said) = try carriedForExport(format, list: list)
        said.forEach(say)
        // An .ics file is one list: the lists of all are not in it, said before it is written.
        if format == .ics, listName == nil, list.hasSeveralLists {
            say(
                .note(
                    "the .ics file holds the tasks of all \(list.allListNames.count) lists without their lists (an .ics file is one list); export one list with --in NAME, or every list with --export-format vdir"
                ))
        }
        // The todo.txt file HotTask follows (the one it last read, or first wrote): an export to
        // it writes its `#` lines back and leaves out what todo.sh archived from it; any other
        // file gets every task.
        let followed = format == .todotxt && path != "-" ? carried.todoTxtFile : nil
        let sameFile = followed.map { $0.path == Self.realPath(path) } ?? true
        let comments = sameFile ? followed?.comments ?? [] : []
        var written = TodoTxtFormat.Written()
        let produce: (_ emit: ([UInt8]) -> Void) -> Void =
            switch format {
            case .hottask: { StoreDocument.encode(list, emit: $0) }
            case .taskwarrior: { list.writeTaskwarriorExport(carried: carried, $0) }
            case .todotxt: { written = TodoTxtFormat.write(list, carried: carried, comments: comments, leavingOutArchived: sameFile, emit: $0) }
            case .ics: { ICalendarFormat.write(list, carried: carried, calendarName: listName, emit: $0) }
            case .vdir: { _ in }
            }
        if format == .vdir, listName == nil, list.hasSeveralLists { return try exportLists(list, carried: carried, to: path).forEach(say) }
        if format == .vdir { return try exportFolder(list, carried: carried, to: path).forEach(say) }
        if path == "-" { return produce(standardOutput) }
        do {
            try ExportFile.write(to: path, protecting: self.path, produce)
        } catch {
            let folder = FileSystem.folder(of: path)
            if !FileManager.default.fileExists(atPath: folder) {
                throw UserFacingError.output(
                    "could not write the export file \(path): the folder \(folder) does not exist; make it first (mkdir -p \(folder))")
            }
            throw UserFacingError.output("could not write the export file \(path): \(error.reason)")
        }
        if format == .todotxt {
            // Under the store's lock, as an import reads and writes them: an import at the same
            // time neither overwrites these bases nor reads them half done.
            // The file is written already: a lock that cannot be had (a read-only folder, a writer
            // holding it) leaves the bases as they were, said, never the export failed.
            do {
                try storeTransaction(.nothing) { txn throws(StoreError) in
                    // What a killed import left pending first: these bases are written over it.
                    try settleExchange(in: txn)
                    // todo.txt dates are whole days, so "which side changed" cannot be told by dates:
                    // what the file says now is the base its next import is merged against.
                    let lines = [list.priority, list.bonus].joined().lazy.filter { !written.archived.contains($0.id) }
                    do {
                        let base = try ImportBase.load(besides: self)
                        if written.folded.isEmpty {
                            record(lines, onto: base).forEach(say)
                        } else {
                            let said = lines.map { task in
                                var said = task
                                said.caption = written.folded[task.id] ?? task.caption
                                return said
                            }
                            record(said, onto: base).forEach(say)
                        }
                    } catch {
                        say(.warning("\(error); it was not updated for this export"))
                    }
                    // Every task is in the file followed now, or archived in done.txt: a line removed
                    // from it later is a deletion (`ImportRun`). Reopened tasks are no longer archived.
                    if sameFile {
                        // Read again under the lock: an import at the same time wrote it meanwhile.
                        var carried = (try? CarriedFields.load(besides: self)) ?? carried
                        // Ids, not `list.all`: a copy of every task.
                        carried.keepOnly(list.priority.map(\.id) + list.bonus.map(\.id), .todoTxt)
                        carried.unarchive([list.priority, list.bonus].joined().lazy.filter { !$0.completed }.map(\.id))
                        carried.wroteTodoTxt([list.priority, list.bonus].joined(), doneHere: written.doneHere)
                        carried.todoTxtFile = CarriedFields.TodoTxtFile(path: Self.realPath(path), comments: comments)
                        saveCarried(carried).forEach(say)
                    }
                }
            } catch {
                say(.warning("\(error); the todo.txt file's import base was not updated for this export"))
            }
        }
        let archived = written.archived.count
        say(
            .status(
                "Exported \(list.count) tasks to \(path)"
                    + (byName && format != .hottask ? " as \(format.name), as its name says (--export-format hottask writes HotTask's JSON)" : "")
                    + (archived > 0 ? " (\(archived) done \(archived == 1 ? "one" : "ones") left in its archive done.txt)" : "")))
    }

    /// Writes the tasks into the folder, touching only the files whose task changed.
    private func exportFolder(_ list: TaskList, carried: CarriedFields, to path: String) throws -> [CommandMessage] {
        let counts: VdirFolder.ExportCounts
        do {
            counts = try VdirFolder.export(list, carried: carried, to: path)
        } catch {
            throw UserFacingError.output("could not write the vdir folder \(path): \(error.reason)")
        }
        var line =
            "Exported \(list.count) tasks to the folder \(path): \(counts.added) files added, \(counts.changed) changed, \(counts.unchanged) unchanged"
        if counts.others > 0 {
            line += "; \(counts.others) other .ics file\(counts.others == 1 ? "" : "s") left as \(counts.others == 1 ? "it was" : "they were")"
        }
        var messages = [CommandMessage.status(line)]
        if counts.blocked > 0 {
            messages.append(.note("\(counts.blocked) task\(counts.blocked == 1 ? "" : "s") not written: a file of its name holds something else"))
        }
        return messages
    }

    /// Writes each list into its own sub-folder of the folder.
    private func exportLists(_ list: TaskList, carried: CarriedFields, to path: String) throws -> [CommandMessage] {
        let done: [VdirFolder.ListExport]
        do {
            done = try VdirFolder.exportLists(list, carried: carried, to: path)
        } catch {
            throw UserFacingError.output("could not write the vdir folder \(path): \(error.reason)")
        }
        var messages: [CommandMessage] = []
        // A folder exported before the store had lists: its files are no list's now.
        if let flat = try? VdirFolder.files(in: path), !flat.isEmpty {
            messages.append(
                .note(
                    "\(flat.count) .ics file\(flat.count == 1 ? "" : "s") at the top of \(path) left as \(flat.count == 1 ? "it was" : "they were"): the lists are in its sub-folders now; remove \(flat.count == 1 ? "it" : "them") so that an import or todoman does not read \(flat.count == 1 ? "it" : "them") twice"
                ))
        }
        for one in done {
            let counts = one.counts
            var line =
                "Exported \(one.tasks) tasks of \(quotedCaption(one.name)) to the folder \(path)/\(one.folder): \(counts.added) files added, \(counts.changed) changed, \(counts.unchanged) unchanged"
            if counts.others > 0 {
                line += "; \(counts.others) other .ics file\(counts.others == 1 ? "" : "s") left as \(counts.others == 1 ? "it was" : "they were")"
            }
            messages.append(.status(line))
            if counts.blocked > 0 {
                messages.append(
                    .note(
                        "\(counts.blocked) task\(counts.blocked == 1 ? "" : "s") of \(quotedCaption(one.name)) not written: a file of its name holds something else"
                    ))
            }
        }
        return messages
    }

    /// The path with symbolic links and `..` resolved (as written, when it cannot be).
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
