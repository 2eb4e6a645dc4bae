import FoundationEssentials
import Glibc

/// What one committed record adds to the history: the rule is the record alone (its changes
/// carry their times), so every writer, every replay and every fold count it the same.
extension ActivityHistory {
    /// The counts of `records`, in order.
    init(counting records: some Sequence<LogRecord>) {
        self.init()
        for record in records { count(record) }
    }

    /// Adds what `record` did:
    /// - an add counts on the task's `createdAt` (a file's or a phone's own date), and once more
    ///   as completed on its `completedAt` when it comes done (an import's `end` or `x` date);
    /// - completing counts on `completedAt` (a phone's COMPLETED), reopening takes that back;
    /// - completing a repeating task (its due date stepped, in a record that says "Completed")
    ///   counts at the record's time, its undo takes it back at the time of the record undone;
    /// - a delete counts nothing (the history outlives the task), but an undo's delete takes
    ///   back its add, and an undo's add (a delete taken back) is not a new task.
    mutating func count(_ record: LogRecord) {
        if let kept = record.activityLetGo {
            self += kept
            return
        }
        count(record.changes, what: record.what, undoes: record.undoes, committed: record.clock)
    }

    /// Adds what other processes' records did, as the UI's session hands them over.
    public mutating func count(records: some Sequence<LogRecord>) {
        for record in records { count(record) }
    }

    /// Adds what a record of `changes` named `what` committed at `clock` did: the UI's own
    /// save, which comes back as its stamp alone, counts as the record it became.
    public mutating func count(_ changes: [TaskChange], what: String, undoes: Clock?, committed clock: Clock) {
        let when = clock.date
        let undo = undoes != nil || what.hasPrefix("Undo: ")
        let undone = undoes?.date ?? when
        let completesOccurrences = Self.namesCompletion(what)
        for change in changes {
            switch change {
            case .add(let task):
                guard !undo else { continue }
                tally(added: 1, at: task.createdAt)
                if task.completed { tally(completed: 1, at: task.completedAt ?? when) }
            case .delete(let task):
                guard undo else { continue }
                takeBackAdd(of: task.id)
                tally(added: -1, at: task.createdAt)
                if task.completed { tally(completed: -1, at: task.completedAt ?? when) }
            case .set(let id, let fields, let was):
                switch (fields.completed, was.completed) {
                case (true?, let before) where before != true:
                    tally(completed: 1, at: fields.completedAt ?? when)
                case (false?, true?):
                    tally(completed: -1, at: was.completedAt ?? when)
                case (true?, true?) where fields.completedAt != nil && was.completedAt != nil && fields.completedAt != was.completedAt:
                    // Its completion moved (a phone changed COMPLETED): it counts on its new day.
                    tally(completed: -1, at: was.completedAt!)
                    tally(completed: 1, at: fields.completedAt!)
                case (nil, _) where completesOccurrences && fields.due != nil && was.due != nil:
                    tally(completed: undo ? -1 : 1, stepped: undo ? -1 : 1, at: undo ? undone : when)
                    tallyOccurrence(of: id, undo ? -1 : 1, at: undo ? undone : when)
                default: break
                }
            }
        }
    }

    /// Whether a record's name says it completed tasks: "Completed: …" (the command line, its
    /// lines joined by "; "), "Completed “…”" (the app), either after "Undo: " or "Redo: ".
    static func namesCompletion(_ what: String) -> Bool {
        var what = Substring(what)
        for prefix in ["Undo: ", "Redo: "] where what.hasPrefix(prefix) { what = what.dropFirst(prefix.count) }
        return what.hasPrefix("Completed") || what.contains("; Completed")
    }
}

extension LogRecord {
    /// Lets its changes go before a fold (a record too large to keep for undo), keeping what
    /// they add to the history: `counted`, when it was counted already.
    mutating func letChangesGo(counted: ActivityHistory? = nil) {
        activityLetGo = counted ?? ActivityHistory(counting: [self])
        changes = []
        changesLetGo = true
    }
}
