/// How a change log stands to a snapshot: decided from what each says of itself, never guessed.
///
/// The log's header names the generation it was started for; a snapshot says which log it was
/// made from and how many of that log's records it holds (`FoldedLog`). Every state a crash or a
/// failed write can leave is one of `belongs` or `folded`; anything else lost acknowledged
/// changes or mixes files of two stores, and is `damaged`.
enum LogStanding: Equatable {
    /// The log was started for this snapshot: its records of this generation go on top.
    case belongs
    /// The log this snapshot was made from, left by a crash or a failed start of the new log:
    /// every record it holds of its generation is in the snapshot already.
    case folded
    /// A snapshot of an older HotTask, which does not say what it folded: read as it was then.
    case unknown
    /// The log lost records the snapshot does not hold, or belongs to another snapshot: why.
    case damaged(String)

    init(log contents: ChangeLog.Contents?, snapshot header: SnapshotHeader) {
        let logGeneration = contents?.header?.generation
        if logGeneration == header.generation {
            if let contents, !contents.missing.isEmpty {
                self = .damaged("has lost records: " + contents.missing.joined(separator: "; "))
            } else {
                self = .belongs
            }
            return
        }
        guard let folds = header.folds else {
            self = .unknown
            return
        }
        guard let contents else {
            // Only a snapshot made from no log at all (or an unreadable one) may stand alone.
            self = folds.generation == nil ? .folded : .damaged("is missing, but the snapshot was made with a change log beside it")
            return
        }
        guard let logGeneration else {
            if folds.generation == nil {
                self = .folded
            } else if contents.byteCount == 0 {
                self = .damaged("is empty (0 bytes): it has lost its header and every change it held")
            } else {
                self = .damaged("has no readable header line, so its changes cannot be placed")
            }
            return
        }
        guard logGeneration == folds.generation else {
            self = .damaged(
                "belongs to another snapshot: it names generation \(logGeneration), but the snapshot is generation "
                    + "\(header.generation), made from the log of \(folds.generation.map(\.text) ?? "no generation")")
            return
        }
        let held = contents.records.reduce(0) { $0 + ($1.generation == logGeneration ? 1 : 0) }
        if held <= folds.records {
            self = .folded
        } else {
            let missing = held - folds.records
            self = .damaged(
                "holds \(missing) change\(missing == 1 ? "" : "s") of generation \(logGeneration) that the snapshot "
                    + "(generation \(header.generation), which holds \(folds.records)) lacks")
        }
    }

    /// Whether replaying this log on the snapshot gives every acknowledged change.
    var isWhole: Bool {
        switch self {
        case .belongs, .folded: true
        case .unknown, .damaged: false
        }
    }
}
