import FoundationEssentials
import Glibc

/// Why a task handle given on the command line names no single task.
struct ReferenceError: Error, Equatable, Sendable, CustomStringConvertible {
    let description: String
}

extension TaskList {
    /// The shortest id prefix accepted as a handle.
    static let minimumIDPrefix = 8

    /// Whether a handle is an id prefix: 8 or more hex digits (dashes allowed), whatever else
    /// it might look like. Shorter all-digit handles are list numbers, so `--done 00000042`
    /// can never complete task 42 by mistake.
    static func isIDPrefix(_ handle: String) -> Bool {
        let text = handle.trimmingWhitespace()
        return text.count >= minimumIDPrefix && text.count <= 36 && text.allSatisfy { $0.isHexDigit || $0 == "-" }
    }

    /// The position named by `handle`: a number from `--list` (1-based, running on across
    /// sections) or the first 8 or more characters of a task's id.
    func position(ofHandle handle: String) throws(ReferenceError) -> Int {
        let text = handle.trimmingWhitespace().lowercased()
        if Self.isIDPrefix(text) {
            let found = (0..<count).filter { self[$0].id.uuidString.lowercased().hasPrefix(text) }
            guard found.count == 1 else { throw Self.prefixProblem(text, matching: found.map { self[$0] }) }
            return found[0]
        }
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else {
            throw ReferenceError(
                description:
                    "'\(handle)' is neither a task number from --list nor an id prefix of at least \(Self.minimumIDPrefix) hex digits; "
                    + "hottask --list --ids shows both"
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
    static func prefixProblem(_ prefix: String, matching tasks: [TaskItem]) -> ReferenceError {
        guard !tasks.isEmpty else { return ReferenceError(description: "no task has an id starting with \(prefix)") }
        let shown = tasks.prefix(5).map { task in
            let id = task.id.uuidString.lowercased()
            let length = min(id.count, max(prefix.count, uniquePrefixLength(of: id, among: tasks.map { $0.id.uuidString.lowercased() })))
            return "\(id.prefix(length)) '\(CaptionRule.shown(task.caption))'"
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
        // Ids sorted by their bytes are sorted as their lowercase text, so only an id's
        // neighbours can share the longest prefix with it. Compared as numbers: as Strings,
        // 100,000 ids took 30 MB and a second.
        let keyed = SortedIDs(self).entries
        var lengths = [Int](repeating: Self.minimumIDPrefix, count: keyed.count)
        for rank in keyed.indices {
            for neighbour in [rank - 1, rank + 1] where neighbour >= 0 && neighbour < keyed.count && keyed[neighbour].key != keyed[rank].key {
                let position = Int(keyed[rank].position)
                lengths[position] = max(lengths[position], min(36, Self.sharedTextPrefix(keyed[rank].key, keyed[neighbour].key) + 1))
            }
        }
        var shortIDs: [String] = []
        shortIDs.reserveCapacity(count)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for section in Section.allCases {
            for task in tasks(in: section) {
                var length = lengths[shortIDs.count]
                // A dash cannot end a handle usefully: take the hex digit after it too.
                if [9, 14, 19, 24].contains(length) { length += 1 }
                text.removeAll(keepingCapacity: true)
                UUIDBytes.append(task.id, to: &text)
                shortIDs.append(String(decoding: text[0..<length], as: UTF8.self))
            }
        }
        return shortIDs
    }

    /// How many characters of their lowercase text two different ids share at the start: the
    /// hex digits their bits share, and the dashes among them (after digits 8, 12, 16 and 20).
    static func sharedTextPrefix(_ a: (UInt64, UInt64), _ b: (UInt64, UInt64)) -> Int {
        let digits = a.0 != b.0 ? (a.0 ^ b.0).leadingZeroBitCount / 4 : 16 + (a.1 ^ b.1).leadingZeroBitCount / 4
        return digits + [8, 12, 16, 20].filter { digits >= $0 }.count
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
