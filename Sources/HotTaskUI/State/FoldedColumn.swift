import HotTaskCore

/// One section's folded captions in one buffer, caption `i` at `bytes[ends[i - 1]..<ends[i]]`:
/// a filter scan reads memory in order instead of visiting a string object per task, and the
/// list holds no object per task for it. An insert or removal moves the bytes after it (a
/// memmove of a few MB at 100,000 tasks, well under a millisecond).
struct FoldedColumn: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int32] = []

    init() {}

    init<Captions: Sequence<String>>(_ captions: Captions) {
        for caption in captions {
            bytes += TaskFilter.foldedBytes(caption)
            ends.append(Int32(bytes.count))
        }
    }

    var count: Int { ends.count }

    private func start(_ index: Int) -> Int {
        index == 0 ? 0 : Int(ends[index - 1])
    }

    mutating func insert(_ caption: String, at index: Int) {
        let folded = TaskFilter.foldedBytes(caption)
        let start = start(index)
        bytes.insert(contentsOf: folded, at: start)
        ends.insert(Int32(start), at: index)
        shiftEnds(from: index, by: folded.count)
    }

    /// The column without the captions at `indices` (ascending): one copy of the rest.
    func removing(_ indices: [Int]) -> FoldedColumn {
        var result = FoldedColumn()
        result.bytes.reserveCapacity(bytes.count)
        result.ends.reserveCapacity(ends.count - indices.count)
        var runStart = 0  // the first caption of the run being kept
        func keep(upTo end: Int) {
            guard runStart < end else { return }
            let from = start(runStart)
            let offset = Int32(result.bytes.count) - Int32(from)
            result.bytes.append(contentsOf: bytes[from..<Int(ends[end - 1])])
            for index in runStart..<end { result.ends.append(ends[index] + offset) }
        }
        for index in indices {
            keep(upTo: index)
            runStart = index + 1
        }
        keep(upTo: ends.count)
        return result
    }

    mutating func remove(at index: Int) {
        let removed = start(index)..<Int(ends[index])
        bytes.removeSubrange(removed)
        ends.remove(at: index)
        shiftEnds(from: index, by: -removed.count)
    }

    mutating func replace(at index: Int, with caption: String) {
        let old = start(index)..<Int(ends[index])
        let folded = TaskFilter.foldedBytes(caption)
        bytes.replaceSubrange(old, with: folded)
        shiftEnds(from: index, by: folded.count - old.count)
    }

    private mutating func shiftEnds(from index: Int, by delta: Int) {
        guard delta != 0 else { return }
        let delta = Int32(delta)
        for position in index..<ends.count { ends[position] += delta }
    }

    /// How the captions at `a` and `b` compare for A–Z: byte by byte (code point order of the
    /// folded text), a run of digits against a run of digits by its value ("Task 2" before
    /// "Task 10"; leading zeros do not count). Negative, zero or positive.
    func naturalOrder(_ a: Int, _ b: Int) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            var i = a == 0 ? 0 : Int(ends[a - 1])
            var j = b == 0 ? 0 : Int(ends[b - 1])
            let endA = Int(ends[a])
            let endB = Int(ends[b])
            func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
            while i < endA && j < endB {
                let x = bytes[i]
                let y = bytes[j]
                if isDigit(x) && isDigit(y) {
                    while i < endA && bytes[i] == 0x30 { i += 1 }
                    while j < endB && bytes[j] == 0x30 { j += 1 }
                    var runA = i
                    var runB = j
                    while runA < endA && isDigit(bytes[runA]) { runA += 1 }
                    while runB < endB && isDigit(bytes[runB]) { runB += 1 }
                    if runA - i != runB - j { return (runA - i) - (runB - j) }
                    while i < runA {
                        if bytes[i] != bytes[j] { return Int(bytes[i]) - Int(bytes[j]) }
                        i += 1
                        j += 1
                    }
                    continue
                }
                if x != y { return Int(x) - Int(y) }
                i += 1
                j += 1
            }
            return (endA - i) - (endB - j)
        }
    }

    /// The indices of `order` whose tasks (`tasks`, the section the column folds) match: their
    /// tags and due date first when the query asks (a task without tags fails `+work` at once),
    /// then the folded caption.
    func keeping(_ order: [Int], _ matcher: TaskFilter.Matcher, tasks: [TaskItem]) -> [Int] {
        matching(order, matcher, tasks: tasks)
    }

    /// `keeping` of every index, in order.
    func keepingAll(_ matcher: TaskFilter.Matcher, tasks: [TaskItem]) -> [Int] {
        matching(ends.indices, matcher, tasks: tasks)
    }

    private func matching<Indices: Sequence<Int>>(_ order: Indices, _ matcher: TaskFilter.Matcher, tasks: [TaskItem]) -> [Int] {
        let checkTasks = matcher.looksAtTasks && tasks.count == ends.count
        return bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in
                order.filter { index in
                    if checkTasks, !matcher.matchesTagsAndDue(tasks[index]) { return false }
                    let start = index == 0 ? 0 : Int(ends[index - 1])
                    return matcher.matches(folded: UnsafeBufferPointer(rebasing: bytes[start..<Int(ends[index])]))
                }
            }
        }
    }
}
