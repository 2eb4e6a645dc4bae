import Foundation

/// Whether a caption matches the filter text, and where: the rule the UI's filter (`/`) and
/// `--list --filter` share (what is typed and shown stays in the UI's `ListView`). Both are
/// folded first: Unicode case folding with compatibility normalization (NFKC) and accents
/// removed, so `cafe` finds "Café", `strasse` finds "Straße", `file` finds "ﬁle" and
/// full-width letters match half-width ones.
///
/// Folding goes scalar by scalar: ASCII by a byte table, any other scalar through Foundation
/// once and then from a cache (a list holds a few thousand distinct scalars at most), so a
/// caption folds at about the cost of copying it. `ListView` keeps each task's folded caption,
/// made once when the list loads or the task changes, and a filter keystroke only searches
/// bytes; whole-string Foundation folding cost 8 µs a caption, 0.2 s for 25,000 of them.
public enum TaskFilter {
    /// Whether `caption` matches `query` as the UI's filter matches it.
    public static func matches(_ caption: String, _ query: String) -> Bool {
        Matcher(query).matches(caption: caption)
    }

    /// `text` folded for matching (NFKC, case folded, without accents), as UTF-8 bytes.
    package static func foldedBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var isASCII = true
        for byte in text.utf8 {
            guard byte < 0x80 else {
                isASCII = false
                break
            }
            out.append(lower(byte))
        }
        if isASCII { return out }
        out.removeAll(keepingCapacity: true)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.append(lower(UInt8(scalar.value)))
            } else {
                out.append(contentsOf: ScalarFolds.shared.fold(scalar))
            }
        }
        return out
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// A query folded once for a scan of many captions (`--list --filter` builds one).
    public struct Matcher: Sendable {
        private let needle: [UInt8]

        public init(_ query: String) {
            needle = foldedBytes(query)
        }

        /// Whether `folded` (a caption already folded by `foldedBytes`) contains the query.
        package func matches(folded: UnsafeBufferPointer<UInt8>) -> Bool {
            needle.isEmpty || Self.contains(folded, needle)
        }

        public func matches(caption: String) -> Bool {
            foldedBytes(caption).withUnsafeBufferPointer { matches(folded: $0) }
        }

        private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
            let count = needle.count
            guard haystack.count >= count, let first = needle.first else { return haystack.count >= count }
            var start = 0
            let last = haystack.count - count
            while start <= last {
                if haystack[start] == first {
                    var offset = 1
                    while offset < count, haystack[start + offset] == needle[offset] { offset += 1 }
                    if offset == count { return true }
                }
                start += 1
            }
            return false
        }
    }

    /// True when every caption that matches `query` also matches `previous`, so the previous
    /// result can be narrowed instead of scanning the whole list (the folded text only grew).
    package static func narrows(_ query: String, from previous: String) -> Bool {
        !previous.isEmpty && foldedBytes(query).starts(with: foldedBytes(previous))
    }

    /// Every match of `query` in `text`, for highlighting (only rows on screen ask): the
    /// characters whose folded form takes part in a match of the folded query.
    package static func matchRanges(of query: String, in text: String) -> [Range<String.Index>] {
        let needle = foldedBytes(query)
        guard !needle.isEmpty else { return [] }
        var folded: [UInt8] = []
        var owners: [String.Index] = []  // the character each folded byte comes from
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let bytes = foldedBytes(String(text[index..<next]))
            folded += bytes
            owners += repeatElement(index, count: bytes.count)
            index = next
        }
        var ranges: [Range<String.Index>] = []
        var start = 0
        while start + needle.count <= folded.count {
            if folded[start..<(start + needle.count)].elementsEqual(needle) {
                let lower = owners[start]
                let upper = text.index(after: owners[start + needle.count - 1])
                if let last = ranges.last, last.upperBound > lower {
                    ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, upper)
                } else {
                    ranges.append(lower..<upper)
                }
                start += needle.count
            } else {
                start += 1
            }
        }
        return ranges
    }
}

/// Each non-ASCII scalar's fold, made by Foundation the first time it is seen.
private final class ScalarFolds: @unchecked Sendable {
    static let shared = ScalarFolds()
    private let lock = NSLock()
    private var folds: [UInt32: [UInt8]] = [:]

    func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        if let known = folds[scalar.value] { return known }
        // A combining accent on its own (after a letter typed without it) is dropped, as
        // Foundation drops it from a whole string; on its own Foundation would keep it.
        if scalar.properties.generalCategory == .nonspacingMark, scalar.properties.canonicalCombiningClass.rawValue != 0 {
            folds[scalar.value] = []
            return []
        }
        let folded = String(Character(scalar)).precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        let bytes = Array(folded.utf8)
        folds[scalar.value] = bytes
        return bytes
    }
}
