import Foundation

/// `--export`: the list in another format, with what files held that HotTask does not model
/// merged back (`CarriedFields`).
extension TaskStore {
    /// Writes `list` as `format` to `path`: a file (replaced whole, never one of the store's
    /// own), a folder for vdir, or "-" for `standardOutput`. Written as it is made, in pieces:
    /// the whole document is never held (30 MB for 100,000 tasks in HotTask's format, several
    /// times that as iCalendar). What it has to say goes to `say` as it happens: a note of what
    /// the format leaves out comes before the document, and is said even when the write fails.
    public func export(
        _ list: TaskList, as format: ExportFormat, to path: String, standardOutput: ([UInt8]) -> Void,
        say: (CommandMessage) -> Void
    ) throws {
        let (carried, said) = try carriedForExport(format, list: list)
        said.forEach(say)
        let produce: (_ emit: ([UInt8]) -> Void) -> Void =
            switch format {
            case .hottask: { StoreDocument.encode(list, emit: $0) }
            case .taskwarrior: { list.writeTaskwarriorExport(carried: carried, $0) }
            case .todotxt: { TodoTxtFormat.write(list, carried: carried, emit: $0) }
            case .ics: { ICalendarFormat.write(list, carried: carried, emit: $0) }
            case .vdir: { _ in }
            }
        if format == .vdir { return try exportFolder(list, carried: carried, to: path).forEach(say) }
        if path == "-" { return produce(standardOutput) }
        do {
            try ExportFile.write(to: path, protecting: self.path, produce)
        } catch {
            throw UserFacingError.output("could not write the export file \(path): \(error.reason)")
        }
        if format == .todotxt {
            // todo.txt dates are whole days, so "which side changed" cannot be told by dates:
            // what the file says now is the base its next import is merged against.
            do {
                record([list.priority, list.bonus].joined(), onto: try ImportBase.load(besides: self)).forEach(say)
            } catch {
                say(.warning("\(error); it was not updated for this export"))
            }
        }
        say(.status("Exported \(list.count) tasks to \(path)"))
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
}
