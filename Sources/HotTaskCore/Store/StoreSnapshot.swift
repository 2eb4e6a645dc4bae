import FoundationEssentials
import Glibc

/// Why a JSON document is not a HotTask store (or import file).
enum DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON at all, with the position of the problem.
    case syntax(JSONSyntaxError)
    /// Valid JSON that is not a store of the supported version.
    case unsupportedVersion(String)
    /// Valid JSON whose content is wrong; the text names the task and field.
    case invalid(String)

    var description: String {
        switch self {
        case .syntax(let error): "not valid JSON: \(error)"
        case .unsupportedVersion(let found):
            "unknown store version \(found); this HotTask reads version \(StoreDocument.version)"
        case .invalid(let message): message
        }
    }
}

/// A snapshot's identity and summary, written before its tasks so that a command that only
/// adds can read it from the first few hundred bytes.
struct SnapshotHeader: Equatable, Sendable {
    /// A random name for this snapshot: log records name the snapshot they follow, so a record
    /// is never replayed on a snapshot that already holds it.
    var generation: Generation
    /// The latest stamp of any change the snapshot holds.
    var clock: Clock
    var count: Int
    /// The first key of each section (nil when empty): where a new task on top goes.
    var top: [Section: OrderKey]
    /// The log this snapshot folded; nil for a snapshot written before snapshots said so.
    var folds: FoldedLog?
    /// The store's lists as the snapshot holds them (written only when not `ListNames.initial`).
    var lists: ListNames

    init(
        generation: Generation, clock: Clock, count: Int, top: [Section: OrderKey], folds: FoldedLog? = nil,
        lists: ListNames = .initial
    ) {
        self.generation = generation
        self.clock = clock
        self.count = count
        self.top = top
        self.folds = folds
        self.lists = lists
    }

    /// The header for a snapshot of `list`.
    init(generation: Generation, clock: Clock, list: TaskList, folds: FoldedLog? = nil) {
        var top: [Section: OrderKey] = [:]
        for section in Section.allCases { top[section] = list.tasks(in: section).first?.order }
        self.init(generation: generation, clock: clock, count: list.count, top: top, folds: folds, lists: list.lists)
    }
}

/// What a snapshot holds of the log it was made from (keys `follows` and `folded`): the log's
/// generation and how many of that generation's records it holds. So a reader can tell the log
/// a crash left before the new log was started (that generation, no more records than that)
/// from a log that lost records or belongs to another snapshot.
struct FoldedLog: Equatable, Sendable {
    /// The generation named by the log's header; nil when there was no such log (a version 1
    /// journal, or a log without a readable header).
    var generation: Generation?
    /// How many records of that generation the snapshot holds.
    var records: Int
}

/// Sixteen hex digits naming one snapshot.
struct Generation: Hashable, Sendable, CustomStringConvertible {
    let text: String

    init?(_ text: String) {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.text = text
    }

    static func random() -> Generation {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return Generation(String(repeating: "0", count: 16 - hex.count) + hex) ?? Generation.random()
    }

    var description: String { text }
}

/// A store file read back: its tasks, and its header (nil for a version 1 store or an export).
struct StoreSnapshot: Equatable, Sendable {
    var header: SnapshotHeader?
    var list: TaskList
    /// The history of the records this snapshot folded (`"history"`, after the tasks).
    var activity = ActivityHistory()
}
