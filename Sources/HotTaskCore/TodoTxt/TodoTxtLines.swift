import FoundationEssentials
import Glibc

/// What a todo.txt import's lines said, or left unsaid, beyond their tasks: kept by position in
/// `ImportBatch.tasks`, so that matching lines to tasks and merging them can ask.
struct TodoTxtLines: Equatable, Sendable {
    /// The files read, in order (`todo.txt`, then its archive `done.txt`), and the position in
    /// `tasks` where each one's lines begin.
    var files: [(name: String, firstPosition: Int)] = []
    /// Each task's line number in its file.
    var numbers: [Int] = []
    /// Lines with no date: their created time is the import's "now", which must never count as
    /// written after anything done here.
    var undated: Set<Int> = []
    /// `rec:` lines without `due:`: their due date is the day the import gave them, which the
    /// task's own due date stands for.
    var dueAssumed: Set<Int> = []
    /// Completed lines with no priority: todo.sh's `do` drops a line's `(A) ` and writes no
    /// `pri:A`, so such a line says nothing about the task's section.
    var priorityUnsaid: Set<Int> = []
    /// What the import should tell the user: repeated ids, lines whose task is unclear.
    var notes: [String] = []
    /// Lines with `+project` or `@context` words: the caption an older HotTask read from them
    /// (those words left in it), so that such a line still finds the task it made. Known by its
    /// digest, as the line's id is: a line of 50 MB is not held twice.
    var captionsWithTags: [Int: TextDigest] = [:]
    /// The `#` lines of todo.txt, in order: not tasks, kept and written back by an export to it.
    var comments: [String] = []
    /// Tasks a line without an `id:` tag may be (a note names them): their lines being gone is
    /// no proof they were deleted.
    var unclearCandidates: Set<UUID> = []

    init() {}

    /// What the line at `position` left unsaid (replacing what an earlier line of it said).
    mutating func note(_ read: TodoTxtFormat.Line, at position: Int) {
        func mark(_ set: inout Set<Int>, _ on: Bool) { if on { set.insert(position) } else { set.remove(position) } }
        mark(&undated, read.undated)
        mark(&priorityUnsaid, read.priorityUnsaid)
        mark(&dueAssumed, read.dueAssumed)
        captionsWithTags[position] = read.captionWithTags
    }

    /// "todo.txt line 4".
    func place(of position: Int) -> String {
        let file = files.last { $0.firstPosition <= position }?.name ?? "todo.txt"
        return "\(file) line \(numbers.indices.contains(position) ? numbers[position] : position + 1)"
    }

    static func == (a: TodoTxtLines, b: TodoTxtLines) -> Bool {
        a.files.map(\.name) == b.files.map(\.name) && a.files.map(\.firstPosition) == b.files.map(\.firstPosition)
            && a.numbers == b.numbers && a.undated == b.undated && a.dueAssumed == b.dueAssumed && a.priorityUnsaid == b.priorityUnsaid
            && a.notes == b.notes
            && a.captionsWithTags == b.captionsWithTags
            && a.comments == b.comments && a.unclearCandidates == b.unclearCandidates
    }
}
