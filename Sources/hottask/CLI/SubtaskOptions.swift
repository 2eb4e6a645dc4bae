import ArgumentParser
import FoundationEssentials
import Glibc
import HotTaskCore

/// `--under`: subtasks (issue 54).
struct SubtaskOptions: ParsableArguments {
    @Option(
        name: .customLong("under"),
        help: ArgumentHelp(
            "With --add: the new tasks are subtasks of this task. With --edit N: the task (with its subtasks) moves under this task, or --under none makes it top-level. A subtask is in its parent's section and list.",
            valueName: "n|id|none"))
    var underGiven: [String] = []

    var under: String? { underGiven.last }
}

extension HotTaskCommand {
    /// `--under`: where it goes (a usage error, exit 64).
    func validateSubtaskOptions() throws {
        guard let under = subtasks.under else { return }
        if add.isEmpty && edit.isEmpty { throw ValidationError("--under goes with --add or --edit.") }
        if !add.isEmpty && !edit.isEmpty { throw ValidationError("--under goes with --add or with --edit, not both: give them in two commands.") }
        if TaskStore.isTopLevelWord(under) && !add.isEmpty {
            throw ValidationError("--under none goes with --edit: a new task is top-level without --under.")
        }
        guard !TaskStore.isTopLevelWord(under) else { return }
        for (given, name) in [(lists.inList != nil, "--in"), (priority, "--priority"), (bonus, "--bonus")] where given {
            throw ValidationError("--under and \(name): a subtask goes in its parent's section and list; leave out \(name).")
        }
    }
}
