import Foundation

/// `--export`: the list in another format, with what files held that HotTask does not model
/// merged back (`CarriedFields`).
extension TaskStore {
    /// Writes `list` as `format` to `path`: a file (replaced whole, never one of the store's
    /// own), a folder for vdir, or "-" for `standardOutput`. Written as it is made, in pieces:
    /// the whole document is never held (30 MB for 100,000 tasks in HotTask's format, several
    /// times that as iCalendar).
    public func export(
        _ list: TaskList, as format: ExportFormat, to path: String, standardOutput: ([UInt8]) -> Void
    ) throws -> [CommandMessage] {
        let (carried, said) = try carriedForExport(format.carriedFormat, list: list)
        var messages = said
        let produce: (_ emit: ([UInt8]) -> Void) -> Void =
            switch format {
            case .hottask: { StoreDocument.encode(list, emit: $0) }
            case .taskwarrior: { list.writeTaskwarriorExport(carried: carried, $0) }
            case .todotxt: { TodoTxtFormat.write(list, carried: carried, emit: $0) }
            case .ics: { ICalendarFormat.write(list, carried: carried, emit: $0) }
            case .vdir: { _ in }
            }
        if format == .vdir { return messages + (try exportFolder(list, carried: carried, to: path)) }
        if path == "-" {
            produce(standardOutput)
            return messages
        }
        do {
            try ExportFile.write(to: path, protecting: self.path, produce)
        } catch {
            throw UserFacingError.output("could not write the export file \(path): \(error.reason)")
        }
        if format == .todotxt {
            // todo.txt dates are whole days, so "which side changed" cannot be told by dates:
            // what the file says now is the base its next import is merged against.
            do {
                messages += record([list.priority, list.bonus].joined(), onto: try ImportBase.load(besides: self))
            } catch {
                messages.append(.warning("\(error); it was not updated for this export"))
            }
        }
        messages.append(.status("Exported \(list.count) tasks to \(path)"))
        return messages
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
