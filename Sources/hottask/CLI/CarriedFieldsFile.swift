import Foundation
import HotTaskCore

/// `tasks.json.carried` for the CLI: an import records what its file held that HotTask does
/// not model; an export to that format merges it back, and one to another format says what it
/// left out. A file that cannot be read or written is a warning: the tasks themselves are
/// imported or exported all the same.
extension CommandLineActions {
    /// What an import hands over once committed: the ids of the file's tasks and their records.
    struct CarriedSaid {
        let format: CarriedFields.Format
        let tasks: [TaskItem]
        let records: [Int: String]
    }

    /// What `batch` has to record, or nil when there is nothing (no records, and none from an
    /// earlier import to replace): an import of a file of modelled fields costs nothing here.
    func carriedSaid(by batch: ImportBatch) -> CarriedSaid? {
        guard let format = batch.carriedFormat else { return nil }
        guard !batch.carried.isEmpty || FileManager.default.fileExists(atPath: CarriedFields.path(besides: store)) else { return nil }
        // Ids only: the tasks' captions are dropped with the batch.
        let tasks = batch.tasks.map { TaskItem(id: $0.id, caption: "", section: .bonus, createdAt: $0.createdAt) }
        return CarriedSaid(format: format, tasks: tasks, records: batch.carried)
    }

    func record(_ said: CarriedSaid) {
        var carried: CarriedFields
        do {
            carried = try CarriedFields.load(besides: store)
        } catch {
            HotTaskCommand.fail("warning: \(error); the fields HotTask does not model were not kept for this import")
            return
        }
        carried.record(said.format, tasks: said.tasks, records: said.records)
        guard carried.changed else { return }
        do {
            try carried.save(besides: store)
        } catch {
            HotTaskCommand.fail(
                "warning: could not write \(CarriedFields.path(besides: store)) (\(error.reason)); the fields HotTask does not model were not kept for this import")
        }
    }

    /// The carried records for an export to `format` (empty when there are none, or they
    /// cannot be read: said on stderr), and a note of what records of other formats it leaves out.
    func carriedForExport(_ format: CarriedFields.Format?, list: TaskList) -> CarriedFields {
        guard FileManager.default.fileExists(atPath: CarriedFields.path(besides: store)) else { return CarriedFields() }
        let carried: CarriedFields
        do {
            carried = try CarriedFields.load(besides: store)
        } catch {
            HotTaskCommand.fail("warning: \(error); exported without the fields HotTask does not model")
            return CarriedFields()
        }
        let left = carried.others(than: format, among: list.all.lazy.map(\.id))
        if !left.isEmpty {
            let counts = left.sorted { $0.key.name < $1.key.name }.map { "\($0.key.name) fields of \($0.value) task\($0.value == 1 ? "" : "s")" }
            HotTaskCommand.fail("note: left out, as this format cannot hold them: \(counts.joined(separator: ", "))")
        }
        return carried
    }
}
