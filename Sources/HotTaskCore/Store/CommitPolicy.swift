/// How a transaction's commits use the log, given when the transaction starts and never
/// changed in it: the command line folds large records into the snapshot at once, the UI keeps
/// larger ones in the log (its undo reads them) and folds the log itself past a size.
struct CommitPolicy: Sendable {
    /// A record larger than this goes into a new snapshot instead of the log.
    var recordInLog: Int
    /// The log's size past which a commit folds it instead of appending; nil: never by size.
    var foldLogPastBytes: Int?

    static let command = CommitPolicy(recordInLog: StoreLimits.commandRecordInLog, foldLogPastBytes: nil)
    static let ui = CommitPolicy(recordInLog: StoreLimits.uiRecordInLog, foldLogPastBytes: StoreLimits.uiFoldsLogPastBytes)
}
