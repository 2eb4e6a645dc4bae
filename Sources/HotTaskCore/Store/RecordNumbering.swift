/// The numbers records of one generation carry (`n`: 1, 2, 3…), and the check that none is
/// missing from the middle of the log.
///
/// A record of an older HotTask has no number and counts by its place. A damaged line may hide
/// a number (it is reported on its own, as damaged); a number no line accounts for is a record
/// that was removed.
struct SequenceCheck {
    private var last = 0
    private var damagedSinceLast = 0

    /// Takes the next record of the generation (its number, and its line for the message);
    /// returns what is missing before it, if anything.
    mutating func next(_ sequence: Int?, line: Int) -> String? {
        defer { damagedSinceLast = 0 }
        guard let sequence else {
            last += 1
            return nil
        }
        defer { last = max(last, sequence) }
        if sequence <= last {
            return "line \(line) is record \(sequence) again, after record \(last): records are out of order"
        }
        let unaccounted = sequence - last - 1 - damagedSinceLast
        guard unaccounted > 0 else { return nil }
        let first = last + 1
        let span = sequence - 1 > first ? "records \(first) to \(sequence - 1) are" : "record \(first) is"
        return "\(span) missing before line \(line) (record \(sequence)): removed from the middle of the log"
    }

    mutating func damagedLine() {
        damagedSinceLast += 1
    }
}

extension ChangeLog {
    /// The number the next record of `generation` takes, after the log's `records`.
    static func nextSequence(after records: [LogRecord], generation: Generation) -> Int {
        var last = 0
        for record in records where record.generation == generation {
            last = max(last, record.sequence ?? last + 1)
        }
        return last + 1
    }
}
