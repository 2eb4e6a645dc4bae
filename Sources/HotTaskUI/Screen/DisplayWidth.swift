/// How many terminal columns a character takes: 2 for CJK and emoji, 0 for marks and format
/// characters on their own, 1 otherwise.
///
/// Computed here rather than with libc `wcwidth` so that rendering is the same in every
/// locale and in tests; the values follow Unicode's East Asian Width and Emoji_Presentation.
public enum DisplayWidth {
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let properties = first.properties
        if properties.isEmojiPresentation || isWide(first.value) { return 2 }
        if properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    public static func of<S: StringProtocol>(_ text: S) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// East Asian Wide and Fullwidth blocks.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F900...0x1F9FF, 0x20000...0x2FFFD,
            0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
