/// How many terminal columns a character (a grapheme cluster) takes.
///
/// Outside emoji, a cluster takes the sum of its code points' widths, the count on which
/// glibc's `wcwidth` and Rust's unicode-width (ratatui) agree and which terminals use: 2 for
/// East Asian Wide and Fullwidth, 0 for marks that do not space (Mn, Me), format characters
/// and Hangul's medial vowels and final consonants (a jamo syllable is one wide cell), 1 for
/// the rest — so Devanagari `क्षि` takes 3 and Thai `กำ` 2. Emoji clusters (a flag, a ZWJ
/// family, a skin tone, a VS16 form) take 2, where the two disagree and terminals draw 2.
/// See DECISIONS.md.
///
/// Computed here rather than with libc `wcwidth` so that rendering is the same in every
/// locale and in tests; the values follow Unicode's East Asian Width (checked against Python's `unicodedata` by
/// DisplayWidthTests) and Emoji_Presentation.
package enum DisplayWidth {
    /// The widest a cluster is taken to be: a pile of spacing marks could be wider, but no
    /// caption needs it and the grid looks this far left for a cell that covers another.
    static let maximumClusterWidth = 8

    package static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let properties = first.properties
        // A regional indicator alone is a letter in a box; two of them are a flag.
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count > 1 ? 2 : 1 }
        if properties.isEmojiPresentation { return 2 }
        if properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D }) { return 2 }
        guard scalars.count > 1 else { return width(of: first) }
        var total = 0
        for scalar in scalars { total += width(of: scalar) }
        return min(total, maximumClusterWidth)
    }

    /// One code point's columns, as `wcwidth` counts them.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // Hangul Jungseong and Jongseong: they join the leading consonant's two columns.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        return isWide(value) ? 2 : 1
    }

    package static func of<S: StringProtocol>(_ text: S) -> Int {
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
