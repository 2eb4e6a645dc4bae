import ArgumentParser

/// `--due`, `--repeat`, `--note`, `--in` and `--under` are read as given, every time, so that
/// one given twice is refused rather than the last silently given to every task:
/// `--add A --due fri --add B --due mon` would otherwise make both due Monday.
extension HotTaskCommand {
    var due: String? { dueGiven.last }
    var repeatText: String? { repeatGiven.last }
    var note: String? { noteGiven.last }

    /// A usage error (exit 64) for any of them given more than once.
    func validateSingleValues() throws {
        let given = [
            ("--due", dueGiven), ("--repeat", repeatGiven), ("--note", noteGiven), ("--in", lists.inListGiven),
            ("--under", subtasks.underGiven),
        ]
        for (name, values) in given where values.count > 1 {
            throw ValidationError(
                "\(name) is given \(values.count) times, and it takes one value, for every task the command adds or edits: give it once (tasks that need different values take a command each)."
            )
        }
    }
}
