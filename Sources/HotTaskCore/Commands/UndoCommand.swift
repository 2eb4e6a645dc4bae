/// `--undo`: takes back the last change in the log that is not an undo or undone already,
/// whoever made it. A field changed again since is left as it is, and said so.
extension TaskStore {
    /// The lines to print: what was undone, and each part left as it is.
    public func undoLastChange() throws -> [String] {
        try transaction(.everything) { txn in
            let state = try txn.whole()
            var undone = Set<Clock>()
            var target: LogRecord?
            for record in state.history.reversed() {
                if let undoes = record.undoes {
                    undone.insert(undoes)
                    continue
                }
                // What a sync only learned of the server changed no task: nothing to take back.
                if undone.contains(record.clock) || (record.changes.isEmpty && record.lists == nil) { continue }
                target = record
                break
            }
            // A change compaction could not keep (too large, or past the history's bounds) is
            // never passed over: undoing an older one instead would not be what was asked.
            let floorNote = state.undoFloor.map {
                "changes made up to \(Timestamp.format($0.date)) were folded into the snapshot without being kept for undo (too large, or past the last 100)"
            }
            guard let target else {
                throw UserFacingError(
                    .refused, "nothing to undo: the change log holds no change that can be taken back" + (floorNote.map { "; \($0)" } ?? ""))
            }
            if let floor = state.undoFloor, let floorNote, target.clock < floor {
                throw UserFacingError(
                    .refused,
                    "cannot undo \(quotedCaption(target.what)): \(floorNote), and one of them is newer, so undoing this would skip it. Nothing was changed"
                )
            }
            let still = StillApplicable(target.changes.inverse, on: state.list)
            let notes = still.skipped.compactMap { skipped -> String? in
                switch skipped {
                case .deletedSince: "a task it changed is deleted now; left deleted"
                case .changedSince(let task): "\(quotedCaption(CaptionRule.shown(task.caption))) was changed again since; left as it is"
                case .alreadyThere(let task): "\(quotedCaption(CaptionRule.shown(task.caption))) is there already"
                case .goneAlready: nil
                }
            }
            // The lists go back as they were when nobody changed them since.
            var lists: ListNamesChange?
            var listNotes: [String] = []
            if let change = target.lists {
                if state.list.lists == change.after {
                    lists = change.inverse
                } else {
                    listNotes = ["the lists were changed again since; left as they are"]
                }
            }
            let lines = ["Undone: \(target.what)"] + (notes + listNotes).map { "  (\($0))" }
            try txn.commit(still.changes, what: "Undo: \(target.what)", undoes: target.clock, lists: lists)
            return lines
        }
    }
}
