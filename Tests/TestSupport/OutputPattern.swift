/// Expected output written out whole, line by line, as trycmd and the docs' examples write it.
///
/// Every line of the output is stated. Two forms stand for what cannot be known in advance
/// (an id, a time, a temp path): `[..]` inside a line matches any text within that line, and a
/// line that is exactly `...` matches any number of whole lines. Nothing else is a pattern, so
/// an expectation without them is an exact comparison.
public enum OutputPattern {
    /// Whether `actual` is what `expected` describes.
    public static func matches(_ expected: String, _ actual: String) -> Bool {
        matches(lines: lines(expected), lines(actual))
    }

    /// Whether the `actual` lines are what the `expected` lines describe.
    public static func matches(lines expected: [String], _ actual: [String]) -> Bool {
        linesMatch(expected[...], actual[...])
    }

    /// The output's lines; a final line break ends the last line rather than starting another.
    /// A missing final line break is kept visible as `[no newline]`, so it is never equal to an
    /// output that has one.
    public static func lines(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" {
            lines.removeLast()
        } else {
            lines[lines.count - 1] += "[no newline]"
        }
        return lines
    }

    /// A readable account of where `actual` leaves `expected`: both texts, line by line, the
    /// first line that differs marked. Empty when they match.
    public static func difference(_ expected: String, _ actual: String) -> String {
        guard !matches(expected, actual) else { return "" }
        return shown(expected, actual, same: lineMatches)
    }

    /// As `difference`, for a comparison without patterns (a snapshot file).
    public static func exactDifference(_ expected: String, _ actual: String) -> String {
        guard expected != actual else { return "" }
        return shown(expected, actual, same: ==)
    }

    private static func shown(_ expected: String, _ actual: String, same: (String, String) -> Bool) -> String {
        let wanted = lines(expected)
        let got = lines(actual)
        let first = zip(wanted, got).enumerated().first { !same($0.element.0, $0.element.1) }?.offset ?? min(wanted.count, got.count)
        func numbered(_ lines: [String]) -> String {
            lines.isEmpty
                ? "    (nothing)"
                : lines.enumerated().map { "\($0.offset == first ? "  > " : "    ")\($0.element)" }.joined(separator: "\n")
        }
        return "expected:\n\(numbered(wanted))\nactual:\n\(numbered(got))"
    }

    private static func linesMatch(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            let rest = expected.dropFirst()
            return (actual.startIndex...actual.endIndex).contains { linesMatch(rest, actual[$0...]) }
        }
        guard let line = actual.first, lineMatches(first, line) else { return false }
        return linesMatch(expected.dropFirst(), actual.dropFirst())
    }

    /// One line against one line: `[..]` matches any run of characters, the rest literally.
    static func lineMatches(_ expected: String, _ actual: String) -> Bool {
        let pieces = expected.components(separatedBy: "[..]")
        guard pieces.count > 1 else { return expected == actual }
        var rest = Substring(actual)
        guard let head = pieces.first, rest.hasPrefix(head) else { return false }
        rest = rest.dropFirst(head.count)
        for (index, piece) in pieces.enumerated().dropFirst() {
            if index == pieces.count - 1 { return piece.isEmpty || rest.hasSuffix(piece) }
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}
