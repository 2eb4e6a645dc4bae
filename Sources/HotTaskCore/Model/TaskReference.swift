import Foundation

/// Why a task handle given on the command line names no single task.
public struct ReferenceError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

extension TaskList {
    /// The shortest id prefix accepted as a handle.
    public static let minimumIDPrefix = 8

    /// The position named by `handle`: a number from `--list` (1-based, running on across
    /// sections) or the first 8 or more characters of a task's id.
    public func position(ofHandle handle: String) throws(ReferenceError) -> Int {
        let text = handle.trimmingWhitespace().lowercased()
        // All digits: a list number. Only an 8-digit handle that names no listed task is read as
        // an id prefix (an id may start with 8 digits; a longer prefix contains a dash).
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigit),
            text.count != Self.minimumIDPrefix || (Int(text).map { $0 >= 1 && $0 <= count } ?? false)
        {
            guard let number = Int(text), number >= 1, number <= count else {
                throw ReferenceError(
                    description: count == 0
                        ? "there is no task \(text): the list is empty"
                        : "there is no task \(text): the numbers run from 1 to \(count) (see --list)")
            }
            return number - 1
        }
        guard text.count >= Self.minimumIDPrefix, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw ReferenceError(
                description:
                    "'\(handle)' is neither a task number from --list nor an id prefix of at least \(Self.minimumIDPrefix) characters"
            )
        }
        var found: [Int] = []
        for position in 0..<count where self[position].id.uuidString.lowercased().hasPrefix(text) {
            found.append(position)
        }
        switch found.count {
        case 1: return found[0]
        case 0: throw ReferenceError(description: "no task has an id starting with \(text)")
        default: throw ReferenceError(description: "\(found.count) tasks have ids starting with \(text): give more of the id")
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
