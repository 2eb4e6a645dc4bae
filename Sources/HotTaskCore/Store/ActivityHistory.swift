import FoundationEssentials
import Glibc

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
        /// Of `completed`, the occurrences of repeating tasks: done, but the task stays open
        /// (its due date steps on), so they close nothing (the open tasks' line).
        public var stepped = 0

        public init(added: Int = 0, completed: Int = 0, stepped: Int = 0) {
            self.added = added
            self.completed = completed
            self.stepped = stepped
        }

        var isZero: Bool { added == 0 && completed == 0 && stepped == 0 }

        static func += (lhs: inout Counts, rhs: Counts) {
            lhs.added += rhs.added
            lhs.completed += rhs.completed
            lhs.stepped += rhs.stepped
        }
    }

    /// Counts by quarter-hour since 1970 (UTC); none is zero.
    private(set) var quarters: [Int: Counts] = [:]
    /// The occurrences of each repeating task completed, by task and quarter-hour (none zero).
    /// Its due date stepped on, such a task stays open and holds no trace of them, so statistics
    /// narrowed to some tasks (`--in`, `--filter`) read them here.
    private(set) var occurrences: [UUID: [Int: Int]] = [:]
    /// Tasks whose add an undo took back: their tombstones are no task added, for statistics
    /// narrowed to some tasks.
    private(set) var addsTakenBack: Set<UUID> = []

    public init() {}

    public var isEmpty: Bool { quarters.isEmpty && addsTakenBack.isEmpty }

    mutating func takeBackAdd(of id: UUID) {
        addsTakenBack.insert(id)
    }

    static func quarter(of date: Date) -> Int? {
        let seconds = date.timeIntervalSince1970
        // Dates far from any real use (a file's 0001 or 9999) are not counted.
        guard seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        return Int((seconds / 900).rounded(.down))
    }

    mutating func tally(added: Int = 0, completed: Int = 0, stepped: Int = 0, at date: Date) {
        guard let quarter = Self.quarter(of: date) else { return }
        // Changed where it lies, one look-up (a get and a set were most of counting an import's
        // 100,000 adds).
        func addIsZero(_ counts: inout Counts) -> Bool {
            counts += Counts(added: added, completed: completed, stepped: stepped)
            return counts.isZero
        }
        if addIsZero(&quarters[quarter, default: Counts()]) { quarters[quarter] = nil }
    }

    mutating func tallyOccurrence(of id: UUID, _ count: Int, at date: Date) {
        guard let quarter = Self.quarter(of: date) else { return }
        let total = (occurrences[id]?[quarter] ?? 0) + count
        occurrences[id, default: [:]][quarter] = total == 0 ? nil : total
        if occurrences[id]?.isEmpty == true { occurrences[id] = nil }
    }

    /// The occurrences of the repeating task `id` completed, as counts of completions.
    func occurrences(of id: UUID) -> [Int: Counts] {
        (occurrences[id] ?? [:]).mapValues { Counts(completed: $0) }
    }

    /// Counts as completions the occurrences of the repeating task `id` that `kept` holds.
    mutating func countOccurrences(of id: UUID, in kept: ActivityHistory) {
        for (quarter, counts) in kept.occurrences(of: id) {
            var total = quarters[quarter] ?? Counts()
            total += counts
            quarters[quarter] = total.isZero ? nil : total
        }
    }

    static func + (lhs: ActivityHistory, rhs: ActivityHistory) -> ActivityHistory {
        var sum = lhs
        sum += rhs
        return sum
    }

    static func += (lhs: inout ActivityHistory, rhs: ActivityHistory) {
        for (quarter, counts) in rhs.quarters {
            var total = lhs.quarters[quarter] ?? Counts()
            total += counts
            lhs.quarters[quarter] = total.isZero ? nil : total
        }
        for (id, counts) in rhs.occurrences {
            for (quarter, count) in counts {
                let total = (lhs.occurrences[id]?[quarter] ?? 0) + count
                lhs.occurrences[id, default: [:]][quarter] = total == 0 ? nil : total
            }
            if lhs.occurrences[id]?.isEmpty == true { lhs.occurrences[id] = nil }
        }
        lhs.addsTakenBack.formUnion(rhs.addsTakenBack)
    }

    /// The counts per local day (days since 1970-01-01 in `zone`).
    public func days(in zone: ZoneInfo) -> [Int: Counts] {
        var days: [Int: Counts] = [:]
        for (quarter, counts) in quarters {
            let day = DueDate.localDay(of: Date(timeIntervalSince1970: TimeInterval(quarter) * 900), in: zone)
            days[day, default: Counts()] += counts
        }
        return days
    }

    // MARK: Text

    /// As the snapshot keeps it: `quarter:added:completed` entries in time order, separated by
    /// spaces, each quarter after the first as its distance from the one before (a few digits).
    /// Written as bytes: through interpolated strings, a year of history (200 KB) took 15 ms of
    /// every compaction.
    var text: String { String(decoding: Self.text(quarters) { ($0.added, $0.completed) }, as: UTF8.self) }

    /// The repeating tasks' occurrences as the snapshot keeps them beside (`"steps"`, which
    /// older HotTasks read past): `quarter:0:stepped` entries, written as `text` writes.
    var stepsText: String { String(decoding: Self.text(quarters) { (0, $0.stepped) }, as: UTF8.self) }

    /// Each repeating task's occurrences (`"occurrences"`, which older HotTasks read past): its
    /// id, a space and `quarter:0:count` entries written as `text` writes, tasks separated by
    /// `;`, in the order of their ids.
    var occurrencesText: String {
        var bytes: [UInt8] = []
        for id in occurrences.keys.sorted(by: { UUIDBytes.sortKey($0) < UUIDBytes.sortKey($1) }) {
            if !bytes.isEmpty { bytes.append(0x3B) }
            bytes.append(contentsOf: id.uuidString.lowercased().utf8)
            bytes.append(0x20)
            bytes.append(contentsOf: Self.text(occurrences(of: id)) { (0, $0.completed) })
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `addsTakenBack` (`"takenBack"`): the ids, in order, separated by spaces.
    var addsTakenBackText: String {
        addsTakenBack.sorted { UUIDBytes.sortKey($0) < UUIDBytes.sortKey($1) }.map { $0.uuidString.lowercased() }.joined(separator: " ")
    }

    private static func text(_ quarters: [Int: Counts], _ numbers: (Counts) -> (Int, Int)) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(quarters.count * 8)
        var previous: Int?
        for quarter in quarters.keys.sorted() {
            let (first, second) = numbers(quarters[quarter]!)
            guard first != 0 || second != 0 else { continue }
            if previous != nil { bytes.append(0x20) }
            Self.append(quarter - (previous ?? 0), to: &bytes)
            bytes.append(0x3A)
            Self.append(first, to: &bytes)
            bytes.append(0x3A)
            Self.append(second, to: &bytes)
            previous = quarter
        }
        return bytes
    }

    private static func append(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        JSONWriter.appendDigits(UInt64(value.magnitude), to: &bytes)
    }

    /// Reads `text`; nil when it is not as `text` writes it. Read as bytes: split into
    /// substrings and each read with `Int(_:)`, a year of history took 40 ms of every store read.
    init?(text: some StringProtocol, steps: String? = nil, occurrences: String? = nil, takenBack: String? = nil) {
        var text = String(text)
        guard var read = text.withUTF8({ Self.quarters(in: $0) }) else { return nil }
        if var steps {
            guard let stepped = steps.withUTF8({ Self.quarters(in: $0) }) else { return nil }
            for (quarter, counts) in stepped { read[quarter, default: Counts()].stepped = counts.completed }
        }
        quarters = read
        for entry in occurrences?.split(separator: ";") ?? [] {
            var counts = String(entry.dropFirst(37))
            guard entry.count > 37, entry.dropFirst(36).first == " ", let id = UUID(uuidString: String(entry.prefix(36))),
                self.occurrences[id] == nil, let read = counts.withUTF8({ Self.quarters(in: $0) }), !read.isEmpty
            else { return nil }
            self.occurrences[id] = read.mapValues(\.completed)
        }
        for text in takenBack?.split(separator: " ") ?? [] {
            guard let id = UUID(uuidString: String(text)) else { return nil }
            addsTakenBack.insert(id)
        }
    }

    /// Entries separated by spaces, each three numbers (a sign allowed, as `Int(_:)` reads
    /// them, under 2^40) separated by colons; each quarter after the first later than the one
    /// before. Zero counts are left out.
    private static func quarters(in bytes: UnsafeBufferPointer<UInt8>) -> [Int: Counts]? {
        var quarters: [Int: Counts] = [:]
        // Room for the most entries the text can hold (six bytes each at least, `1:1:0 `).
        quarters.reserveCapacity(bytes.count / 6 + 1)
        var at = 0
        func number() -> Int? {
            var negative = false
            if at < bytes.count, bytes[at] == 0x2D || bytes[at] == 0x2B {
                negative = bytes[at] == 0x2D
                at += 1
            }
            let start = at
            var value = 0
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) {
                value = value * 10 + Int(bytes[at] - 0x30)
                guard value < 1 << 40 else { return nil }
                at += 1
            }
            return at > start ? (negative ? -value : value) : nil
        }
        var previous = 0
        var first = true
        while true {
            while at < bytes.count, bytes[at] == 0x20 { at += 1 }
            guard at < bytes.count else { break }
            guard let step = number(), at < bytes.count, bytes[at] == 0x3A else { return nil }
            at += 1
            guard let added = number(), at < bytes.count, bytes[at] == 0x3A else { return nil }
            at += 1
            guard let completed = number(), at == bytes.count || bytes[at] == 0x20 else { return nil }
            // The first quarter as it is (before 1970 too), each later one after the one before:
            // none twice, with no look-up (a look-up, an insert and a filtered copy of a year's
            // quarters were 10 ms of every read of an imported store).
            guard step > 0 || first else { return nil }
            let quarter = previous + step
            let counts = Counts(added: added, completed: completed)
            if !counts.isZero { quarters[quarter] = counts }
            previous = quarter
            first = false
        }
        return quarters
    }
}
