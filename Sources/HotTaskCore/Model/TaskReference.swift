import Foundation

/// Why a task handle given on the command line names no single task.
public struct ReferenceError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

extension TaskList {
    /// The shortest id prefix accepted as a handle.
    public static let minimumIDPrefix = 8

    /// Whether a handle is an id prefix: 8 or more hex digits (dashes allowed), whatever else
    /// it might look like. Shorter all-digit handles are list numbers, so `--done 00000042`
    /// can never complete task 42 by mistake.
    public static func isIDPrefix(_ handle: String) -> Bool {
        let text = handle.trimmingWhitespace()
        return text.count >= minimumIDPrefix && text.count <= 36 && text.allSatisfy { $0.isHexDigit || $0 == "-" }
    }

    /// The position named by `handle`: a number from `--list` (1-based, running on across
    /// sections) or the first 8 or more characters of a task's id.
    public func position(ofHandle handle: String) throws(ReferenceError) -> Int {
        let text = handle.trimmingWhitespace().lowercased()
        if Self.isIDPrefix(text) {
            let found = (0..<count).filter { self[$0].id.uuidString.lowercased().hasPrefix(text) }
            guard found.count == 1 else { throw Self.prefixProblem(text, matching: found.map { self[$0] }) }
            return found[0]
        }
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else {
            throw ReferenceError(
                description:
                    "'\(handle)' is neither a task number from --list nor an id prefix of at least \(Self.minimumIDPrefix) hex digits"
            )
        }
        guard let number = Int(text), number >= 1, number <= count else {
            throw ReferenceError(
                description: count == 0
                    ? "there is no task \(text): the list is empty"
                    : "there is no task \(text): the numbers run from 1 to \(count) (see --list)")
        }
        return number - 1
    }

    /// Why an id prefix names no single task; an ambiguous one names the tasks it matches, with
    /// enough of each id to tell them apart.
    public static func prefixProblem(_ prefix: String, matching tasks: [TaskItem]) -> ReferenceError {
        guard !tasks.isEmpty else { return ReferenceError(description: "no task has an id starting with \(prefix)") }
        let shown = tasks.prefix(5).map { task in
            let id = task.id.uuidString.lowercased()
            let length = min(id.count, max(prefix.count, uniquePrefixLength(of: id, among: tasks.map { $0.id.uuidString.lowercased() })))
            return "\(id.prefix(length)) '\(task.caption)'"
        }
        let more = tasks.count > shown.count ? " and \(tasks.count - shown.count) more" : ""
        return ReferenceError(
            description: "'\(prefix)' is the start of \(tasks.count) tasks' ids: \(shown.joined(separator: ", "))\(more); give more of the id")
    }

    /// How many characters of `id` tell it apart from every other id in `ids`.
    static func uniquePrefixLength(of id: String, among ids: [String]) -> Int {
        var length = 1
        let mine = Array(id.utf8)
        for other in ids where other != id {
            let theirs = Array(other.utf8)
            var common = 0
            while common < mine.count, common < theirs.count, mine[common] == theirs[common] { common += 1 }
            length = max(length, common + 1)
        }
        return length
    }

    /// For `--list --ids`: each task's id, as short as it can be (8 hex digits at least) while
    /// naming only that task. By position, like the list.
    public func shortIDs() -> [String] {
        let ids = all.map { $0.id.uuidString.lowercased() }
        let sorted = ids.enumerated().sorted { $0.element < $1.element }
        var lengths = [Int](repeating: Self.minimumIDPrefix, count: ids.count)
        // Only sorted neighbours can share the longest prefix with an id.
        for (rank, entry) in sorted.enumerated() {
            for neighbour in [rank - 1, rank + 1] where neighbour >= 0 && neighbour < sorted.count {
                let length = Self.uniquePrefixLength(of: entry.element, among: [sorted[neighbour].element])
                lengths[entry.offset] = max(lengths[entry.offset], length)
            }
        }
        // A dash cannot end a handle usefully: take the hex digit after it too.
        return ids.enumerated().map { offset, id in
            var length = min(lengths[offset], id.count)
            if length < id.count, Array(id)[length - 1] == "-" { length += 1 }
            return String(id.prefix(length))
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
