/// How many terminal columns a character takes: 2 for CJK and emoji, 0 for marks and format
/// characters on their own, 1 otherwise.
///
/// Computed here rather than with libc `wcwidth` so that rendering is the same in every
/// locale and in tests; the values follow Unicode's East Asian Width (checked against Python's `unicodedata` by
/// DisplayWidthTests) and Emoji_Presentation.
public enum DisplayWidth {
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let properties = first.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // A regional indicator alone is a letter in a box; two of them are a flag.
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count > 1 ? 2 : 1 }
        if properties.isEmojiPresentation || isWide(first.value) { return 2 }
        if properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return 1
    }

    public static func of<S: StringProtocol>(_ text: S) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// East Asian Wide and Fullwidth (`wideRanges`, generated from Unicode's data), by binary
    /// search; everything below U+1100 is narrow.
    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count
        while low < high {
            let middle = (low + high) / 2
            if wideRanges[middle].upperBound < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < wideRanges.count && wideRanges[low].contains(value)
    }
}
