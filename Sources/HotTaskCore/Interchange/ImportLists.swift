import FoundationEssentials
import Glibc

/// Which list the new tasks of an import go to, when the file names lists (a vdir of several
/// lists, an .ics file's X-WR-CALNAME). Only new tasks: the list is not a field the files'
/// changes carry (`TaskField.shared`), so an import never moves a task between lists.
extension TaskList {
    struct ImportPlacement: Equatable, Sendable {
        /// The lists the import makes (nil when none): in the same record as its tasks.
        var change: ListNamesChange?
        var made: [String] = []
        /// Names of no list here that the file's tasks were put in the default list for.
        var unknown: [String] = []
    }

    /// Sets each task's `list` of `batch` to what this store stores for the list its file
    /// named: a list here of that name (as written, else ignoring case when one matches), else
    /// a list made for it when the file's lists are made (a vdir), else the default list.
    func placing(_ batch: inout ImportBatch) -> ImportPlacement {
        guard let named = batch.namedLists else { return ImportPlacement() }
        var placement = ImportPlacement()
        var after = lists
        var known = allListNames
        var stored: [String: String] = [:]
        for name in named.names {
            if let found = ListNameRule.find(name, in: known) {
                stored[name] = after.stored(for: found)
            } else if named.makesMissing {
                after.add(name)
                known.append(name)
                placement.made.append(name)
                stored[name] = name
            } else {
                placement.unknown.append(name)
                stored[name] = ""
            }
        }
        for index in batch.tasks.indices where !batch.tasks[index].list.isEmpty {
            batch.tasks[index].list = stored[batch.tasks[index].list] ?? ""
        }
        if after != lists { placement.change = ListNamesChange(after: after, before: lists) }
        return placement
    }
}
