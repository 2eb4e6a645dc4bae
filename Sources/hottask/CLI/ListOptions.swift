import ArgumentParser
import FoundationEssentials
import Glibc
import HotTaskCore

/// The flags of several lists: `--in`, `--lists`, and making, renaming and deleting a list.
struct ListOptions: ParsableArguments {
    @Option(
        name: .customLong("in"),
        help: ArgumentHelp(
            "The list a task is in or goes to: with --add and --import the new tasks go there, with --list, --stats and --export only that list, with --edit N the task moves there. The list must exist (--new-list).",
            valueName: "list"))
    var inListGiven: [String] = []

    var inList: String? { inListGiven.last }

    @Flag(name: .customLong("lists"), help: "Print each list with its open and done counts, the default list first (--json: as JSON).")
    var printLists = false

    // Each of these three is read as given, every time: given twice, it is refused rather than
    // the last silently taken (`--new-list Work --new-list Home` made Home alone).
    @Option(name: .customLong("new-list"), help: ArgumentHelp("Make an empty list.", valueName: "name"))
    var newListGiven: [String] = []
    var newList: String? { newListGiven.last }

    @Option(
        name: .customLong("rename-list"), parsing: .upToNextOption,
        help: ArgumentHelp("Rename a list; its tasks follow: --rename-list Work Office.", valueName: "old> <new"))
    var renameList: [String] = []

    @Option(
        name: .customLong("delete-list"),
        help: ArgumentHelp(
            "Delete a list (not the default one). A list that holds tasks needs --move-to LIST or --with-tasks; one --undo takes it all back.",
            valueName: "name"))
    var deleteListGiven: [String] = []
    var deleteList: String? { deleteListGiven.last }

    @Option(name: .customLong("move-to"), help: ArgumentHelp("With --delete-list: move its tasks to this list.", valueName: "list"))
    var moveToGiven: [String] = []
    var moveTo: String? { moveToGiven.last }

    @Flag(name: .customLong("with-tasks"), help: "With --delete-list: delete its tasks too.")
    var withTasks = false

    var changesLists: Bool { newList != nil || !renameList.isEmpty || deleteList != nil }

    func validate() throws {
        for (name, values) in [("--new-list", newListGiven), ("--delete-list", deleteListGiven), ("--move-to", moveToGiven)]
        where values.count > 1 {
            throw ValidationError(
                "\(name) is given \(values.count) times, and it takes one list: give it once (each list takes a command of its own).")
        }
        if !renameList.isEmpty && renameList.count != 2 {
            throw ValidationError("--rename-list takes two names, the old and the new: --rename-list Work Office.")
        }
        if (moveTo != nil || withTasks) && deleteList == nil {
            throw ValidationError("\(moveTo != nil ? "--move-to" : "--with-tasks") goes with --delete-list.")
        }
        if moveTo != nil && withTasks { throw ValidationError("--delete-list takes --move-to or --with-tasks, not both.") }
        if [newList != nil, !renameList.isEmpty, deleteList != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--new-list, --rename-list and --delete-list go in separate commands.")
        }
    }

    /// Makes, renames or deletes the list asked for, saying what it did.
    func changeLists(in store: TaskStore, output: CommandOutput) throws {
        let lines: [String]
        if let newList {
            lines = try store.newList(newList)
        } else if renameList.count == 2 {
            lines = try store.renameList(renameList[0], to: renameList[1])
        } else if let deleteList {
            lines = try store.deleteList(deleteList, tasks: moveTo.map(DeletedListTasks.moveTo) ?? (withTasks ? .delete : .refuse))
        } else {
            return
        }
        lines.forEach { output.status($0) }
    }

    /// `--lists`: a line per list (name, open, done; the default marked), or a JSON array.
    func printLists(of store: TaskStore, asJSON: Bool, output: CommandOutput) throws {
        if asJSON {
            output.bytes(try store.listSummariesJSON())
            return
        }
        let (lists, defaultName) = try store.listSummaries()
        let width = lists.map { $0.name.count }.max() ?? 0
        let lines = lists.map { list in
            let name = MessageText.escaped(list.name)
            let padding = String(repeating: " ", count: max(0, width - list.name.count))
            return "\(name)\(padding)  \(list.open) open, \(list.done) done\(list.name == defaultName ? "  (default)" : "")\n"
        }
        output.text(lines.joined())
    }
}

extension HotTaskCommand {
    /// `--in` and the list commands: where they go (a usage error, exit 64).
    func validateListOptions() throws {
        if lists.inList != nil && add.isEmpty && edit.isEmpty && !list && !stats && export == nil && importPath == nil {
            throw ValidationError("--in goes with --add, --edit, --import, --list, --stats or --export.")
        }
        if lists.inList != nil && importPath != nil && !(add.isEmpty && edit.isEmpty) {
            throw ValidationError("--in goes with one of --add, --edit and --import: give them in separate commands.")
        }
        if lists.inList != nil && importPath != nil && replace {
            throw ValidationError("--in goes with --import, not with --replace: --replace sets every list's tasks from the file.")
        }
        if lists.inList != nil && !add.isEmpty && !edit.isEmpty {
            throw ValidationError("--in goes with --add or with --edit, not both: give them in two commands.")
        }
        if lists.changesLists && (changesTasks || undo || importPath != nil || recover || syncSetup != nil) {
            throw ValidationError("--new-list, --rename-list and --delete-list go alone (with --list, --lists or --sync after them).")
        }
    }
}
