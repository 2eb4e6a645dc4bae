import FoundationEssentials
import Glibc

/// Finds the task of a todo.txt line that lost its `id:` tag (`todo.sh replace N "text"` writes
/// the line anew without it; so do hand edits) and whose caption changed, so that it is not
/// imported as a duplicate. The line stands between two lines whose tasks are known; between
/// those tasks here lie the tasks whose lines are now missing from the file (tasks a file said
/// before, per the import base, that no line claimed). The line is that task when exactly one
/// of them has the line's creation date (`replace` keeps the date and priority; HotTask's
/// export always writes the date). When some are there but none or several fit, the line is
/// unclear: a new task, with a note. With none there, it is a new line.
struct TodoTxtPlacement {
    enum Outcome {
        case found(Int)
        case unclear([TaskItem])
        case new
    }

    private let list: TaskList
    /// Indices in the list (in order) of the tasks a file said and no line claimed.
    private let missing: [Int]
    /// List indices of the missing tasks lines took, sorted (to count those within one gap).
    private var taken: [Int] = []
    /// For each line, the list index of the task of the nearest claimed line before it and
    /// after it in its file (-1, and the list's count, where there is none).
    private var lower: [Int]
    private var upper: [Int]
    /// A gap holding more missing tasks than this is unclear without looking at each.
    private static let widestGap = 1_000

    /// `matchOf` holds the index in `known` (which the list's tasks start) each line took.
    init(list: TaskList, base: ImportBase, claimed: Set<UUID>, batch: ImportBatch, lines: TodoTxtLines, matchOf: [Int]) {
        self.list = list
        missing = list.all.indices.filter { !claimed.contains(list[$0].id) && base[list[$0].id] != nil }
        let count = list.count
        lower = [Int](repeating: -1, count: matchOf.count)
        upper = [Int](repeating: count, count: matchOf.count)
        // Neighbours within one file only: done.txt's order is todo.sh's archive order.
        var starts = lines.files.map(\.firstPosition).filter { $0 < matchOf.count }
        if starts.first != 0 { starts.insert(0, at: 0) }
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1] : matchOf.count
            var last = -1
            for position in start..<end {
                lower[position] = last
                if matchOf[position] >= 0 && matchOf[position] < count { last = matchOf[position] }
            }
            last = count
            for position in (start..<end).reversed() {
                upper[position] = last
                if matchOf[position] >= 0 && matchOf[position] < count { last = matchOf[position] }
            }
        }
    }

    /// The task (its index in the list) the line at `position` stands for.
    mutating func task(for position: Int, in batch: ImportBatch, lines: TodoTxtLines) -> Outcome {
        let (after, before) = (lower[position], upper[position])
        guard !missing.isEmpty, after < before else { return .new }
        let first = missing.partitioningIndex { $0 > after }
        let end = missing.partitioningIndex { $0 >= before }
        // A wide gap (a file whose lines all lost their tags) is unclear without a look at
        // each task in it: looking would take time in the square of the lines.
        // Only the tasks taken within this gap count: all those taken anywhere made a wide gap
        // look narrow, and each of its lines then looked at every task in it.
        let takenHere = taken.partitioningIndex { $0 >= before } - taken.partitioningIndex { $0 > after }
        if end - first - takenHere > Self.widestGap { return .unclear(missing[first..<first + 3].map { list[$0] }) }
        let taken = Set(taken[taken.partitioningIndex { $0 > after }..<taken.partitioningIndex { $0 >= before }])
        let between = missing[first..<max(first, end)].filter { !taken.contains($0) }
        guard !between.isEmpty else { return .new }
        let line = batch.tasks[position]
        let fits = lines.undated.contains(position) ? [] : between.filter { Self.day(list[$0].createdAt) == Self.day(line.createdAt) }
        guard fits.count == 1 else { return .unclear(between.prefix(3).map { list[$0] }) }
        self.taken.insert(fits[0], at: self.taken.partitioningIndex { $0 > fits[0] })
        return .found(fits[0])
    }

    private static func day(_ date: Date) -> Substring {
        Timestamp.format(date).prefix(10)
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, in an array where every element that
    /// satisfies it comes after every one that does not.
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
