import Foundation

/// What was done when, kept for good: tasks added and completed per UTC quarter-hour, derived
/// from each committed record and folded into the snapshot with it, so it outlives the tasks
/// (cleared, deleted), compaction, sync and import, and an undo takes its counts back.
///
/// Quarter-hours of UTC, not local days: every zone's offset is a whole number of quarter-hours,
/// so the store needs no zone and any reader finds its own local days exactly (`days(in:)`).
public struct ActivityHistory: Equatable, Sendable {
    public struct Counts: Equatable, Sendable {
        public var added = 0
        public var completed = 0

        public init(added: Int = 0, completed: Int = 0) {
            self.added = added
            self.completed = completed
        }

        var isZero: Bool { added == 0 && completed == 0 }
    }

    /// Counts by quarter-hour since 1970 (UTC); none is zero.
    private(set) var quarters: [Int: Counts] = [:]

    public init() {}

    public var isEmpty: Bool { quarters.isEmpty }

    static func quarter(of date: Date) -> Int? {
        let seconds = date.timeIntervalSince1970
        // Dates far from any real use (a file's 0001 or 9999) are not counted.
        guard seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        return Int((seconds / 900).rounded(.down))
    }

    mutating func tally(added: Int = 0, completed: Int = 0, at date: Date) {
        guard let quarter = Self.quarter(of: date) else { return }
        var counts = quarters[quarter] ?? Counts()
        counts.added += added
        counts.completed += completed
        quarters[quarter] = counts.isZero ? nil : counts
    }

    static func + (lhs: ActivityHistory, rhs: ActivityHistory) -> ActivityHistory {
        var sum = lhs
        sum += rhs
        return sum
    }

    static func += (lhs: inout ActivityHistory, rhs: ActivityHistory) {
        for (quarter, counts) in rhs.quarters {
            var total = lhs.quarters[quarter] ?? Counts()
            total.added += counts.added
            total.completed += counts.completed
            lhs.quarters[quarter] = total.isZero ? nil : total
        }
    }

    /// The counts per local day (days since 1970-01-01 in `zone`).
    public func days(in zone: TimeZone) -> [Int: Counts] {
        var days: [Int: Counts] = [:]
        for (quarter, counts) in quarters {
            let day = DueDate.localDay(of: Date(timeIntervalSince1970: TimeInterval(quarter) * 900), in: zone)
            var total = days[day] ?? Counts()
            total.added += counts.added
            total.completed += counts.completed
            days[day] = total
        }
        return days
    }

    // MARK: Text

    /// As the snapshot keeps it: `quarter:added:completed` entries in time order, separated by
    /// spaces, each quarter after the first as its distance from the one before (a few digits).
    var text: String {
        var text = ""
        var previous = 0
        for quarter in quarters.keys.sorted() {
            let counts = quarters[quarter]!
            if !text.isEmpty { text += " " }
            text += "\(quarter - previous):\(counts.added):\(counts.completed)"
            previous = quarter
        }
        return text
    }

    /// Reads `text`; nil when it is not as `text` writes it.
    init?(text: some StringProtocol) {
        var previous = 0
        for entry in text.split(separator: " ", omittingEmptySubsequences: true) {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            // The first quarter as it is (before 1970 too), each later one after the one before.
            guard parts.count == 3, let step = Int(parts[0]), step > 0 || quarters.isEmpty, abs(step) < 1 << 40,
                let added = Int(parts[1]), let completed = Int(parts[2]), abs(added) < 1 << 40, abs(completed) < 1 << 40
            else { return nil }
            let quarter = previous + step
            guard quarters[quarter] == nil else { return nil }
            quarters[quarter] = Counts(added: added, completed: completed)
            previous = quarter
        }
        quarters = quarters.filter { !$0.value.isZero }
    }
}
