import Foundation
import HotTaskCore

/// `--import DIR` and `--export DIR --export-format vdir`: a folder of `.ics` files (`VdirFolder`).
extension CommandLineActions {
    /// Every `.ics` file of the folder, read as one iCalendar file.
    func importFolder(_ path: String, format: ImportFormat) throws -> ImportBatch {
        guard format == .auto || format == .ics else {
            throw UserFacingError(
                .refused, "cannot import \(path): it is a folder; only a folder of .ics files (a vdir) is read as one. Nothing was changed")
        }
        do {
            return try VdirFolder.batch(from: path)
        } catch {
            throw UserFacingError(.refused, "cannot import \(path): \(error). Nothing was changed")
        }
    }

    /// Writes the tasks into the folder, touching only the files whose task changed.
    func exportFolder(_ list: TaskList, carried: CarriedFields, to path: String) throws {
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
        output.status(line)
        if counts.blocked > 0 {
            HotTaskCommand.fail("note: \(counts.blocked) task\(counts.blocked == 1 ? "" : "s") not written: a file of its name holds something else")
        }
    }
}
