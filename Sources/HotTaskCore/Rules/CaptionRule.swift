/// Why a caption was refused.
public enum CaptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing visible: only whitespace, control characters, or characters that draw nothing
    /// (zero-width spaces, joiners, variation selectors, format characters, lone marks).
    case empty
    /// Longer than `CaptionRule.maximumLength` after cleaning.
    case tooLong(length: Int)
    /// More UTF-8 bytes than `CaptionRule.maximumBytes` after cleaning (piles of combining
    /// marks count as one character each, but not as one byte).
    case tooManyBytes(bytes: Int)

    public var description: String {
        switch self {
        case .empty:
            "a task needs some text: the caption is empty or only whitespace"
        case .tooLong(let length):
            "the caption has \(length) characters; the limit is \(CaptionRule.maximumLength)"
        case .tooManyBytes(let bytes):
            "the caption takes \(bytes) bytes; the limit is \(CaptionRule.maximumBytes) (accents and emoji take several each)"
        }
    }
}

/// The one rule every caption passes, whether typed in the UI, given to `--add` or imported.
///
/// Escape sequences are removed whole (`EscapeSequences`); tabs and line breaks inside become
/// spaces; every other control character (C0, C1, DEL) and the bidirectional overrides are dropped, so a caption can never carry a terminal
/// escape sequence or reorder the text around it; leading and trailing whitespace is trimmed.
/// What is left must show something (a caption of zero-width spaces would be a blank row) and
/// fit both limits: characters, and bytes (60,000 combining marks on one letter are one
/// character).
public enum CaptionRule {
    /// Longest caption accepted, in characters (grapheme clusters).
    public static let maximumLength = 1_000
    /// Most UTF-8 bytes accepted: room for 1,000 characters of any script with accents or
    /// emoji sequences, far below what a pile of combining marks takes.
    static let maximumBytes = 8_192

    public static func clean(_ raw: String) throws(CaptionError) -> String {
        try clean(raw, strict: true)
    }

    /// A caption read back from the store or its log: cleaned as `clean` does, but held only to
    /// the rule older versions wrote by (not empty, at most 1,000 characters), so that a store
    /// holding a caption today's rule refuses (only a zero-width space, say) still opens
    /// instead of being reported damaged. New captions all pass `clean`.
    static func cleanStored(_ raw: String) throws(CaptionError) -> String {
        try clean(raw, strict: false)
    }

    /// `strict`: something must be visible, and the byte cap applies.
    private static func clean(_ raw: String, strict: Bool) throws(CaptionError) -> String {
        if isAlreadyClean(raw, requiringVisible: strict) { return raw }
        let cleaned = cleanFragment(raw).trimmingWhitespace()
        guard strict ? cleaned.unicodeScalars.contains(where: isVisible) : !cleaned.isEmpty else { throw .empty }
        let bytes = cleaned.utf8.count
        guard !strict || bytes <= maximumBytes else { throw .tooManyBytes(bytes: bytes) }
        let length = cleaned.count
        guard length <= maximumLength else { throw .tooLong(length: length) }
        return cleaned
    }

    /// Part of a caption (pasted text): tabs and line breaks become spaces and controls are
    /// dropped, as `clean` does, but nothing is trimmed or refused; the whole caption passes
    /// `clean` when it is added.
    public static func cleanFragment(_ raw: String) -> String {
        // Whole escape sequences first: dropping only their ESC would leave `[31m` as text.
        let raw = EscapeSequences.mayHoldOne(raw.unicodeScalars) ? EscapeSequences.removed(from: raw.unicodeScalars) : raw
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in raw.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n", previous == "\r" { continue }  // CRLF is one line break
            switch disposition(of: scalar) {
            case .keep: scalars.append(scalar)
            case .space: scalars.append(" ")
            case .drop: continue
            }
        }
        return String(scalars)
    }

    /// True when `clean` would accept the text (the UI uses it to light the Add marker).
    public static func accepts(_ raw: String) -> Bool {
        (try? clean(raw)) != nil
    }

    /// True when the scalar draws something on its own. Whitespace, format characters (ZWSP,
    /// ZWJ, word joiner…), default-ignorable ones (variation selectors, Hangul fillers, tags)
    /// and marks without a base do not.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value > 0x20 && scalar.value < 0x7F }
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return false }
        switch properties.generalCategory {
        case .format, .control, .surrogate, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator,
            .spaceSeparator:
            return false
        default:
            return true
        }
    }

    /// True when `clean` would return `raw` unchanged, decided from its UTF-8 bytes alone:
    /// every load checks every caption, and building a new string for each was half the
    /// load time of a large store. Short enough in bytes that it cannot exceed the limit.
    private static func isAlreadyClean(_ raw: String, requiringVisible: Bool) -> Bool {
        let utf8 = raw.utf8
        // Printable ASCII without a space at either end (most captions): clean and visible.
        if utf8.count <= maximumLength, let first = utf8.first, let last = utf8.last, first != 0x20, last != 0x20,
            utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        {
            return true
        }
        guard utf8.count <= maximumLength, let first = raw.first, let last = raw.last,
            !first.isWhitespace, !last.isWhitespace
        else { return false }
        guard let visible = visibleIfNothingToDrop(utf8) else { return false }
        return visible || !requiringVisible
    }

    /// `cleanStored` would return `caption`, whose UTF-8 is `bytes`, as it is: the store
    /// reader's path, decided from the bytes but for a Character at an end that is not
    /// printable ASCII (whether it is whitespace). Going through `cleanStored` instead took
    /// about 5,000 instructions for each caption that is not all ASCII.
    static func isCleanAsStored(_ caption: String, utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= maximumLength, let first = bytes.first, let last = bytes.last,
            visibleIfNothingToDrop(bytes) != nil
        else { return false }
        // A Character is whitespace by its first scalar. One that ends in printable ASCII
        // starts with it or with a Prepend scalar (Unicode's grapheme rule GB9b): neither is.
        let printable: ClosedRange<UInt8> = 0x21...0x7E
        return (printable.contains(first) || caption.first?.isWhitespace == false)
            && (printable.contains(last) || caption.last?.isWhitespace == false)
    }

    /// nil when the bytes hold something `clean` drops or replaces (C0, DEL, C1, bidi controls,
    /// line separators); otherwise whether they hold an ASCII letter, digit or sign.
    private static func visibleIfNothingToDrop<Bytes: Sequence<UInt8>>(_ utf8: Bytes) -> Bool? {
        var previous: (UInt8, UInt8) = (0, 0)
        var visible = false  // an ASCII letter, digit or sign; otherwise the full check decides
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F { return nil }
            if byte > 0x20 && byte < 0x7F { visible = true }
            switch previous {
            case (_, 0xC2) where byte <= 0x9F: return nil  // C1 controls U+0080–U+009F
            case (_, 0xD8) where byte == 0x9C: return nil  // U+061C arabic letter mark
            case (0xE2, 0x80) where byte == 0x8E || byte == 0x8F || (0xA8...0xAE).contains(byte):
                return nil  // U+200E/F marks, U+2028/9 separators, U+202A–E embeddings
            case (0xE2, 0x81) where (0xA6...0xA9).contains(byte): return nil  // U+2066–9 isolates
            default: break
            }
            previous = (previous.1, byte)
        }
        return visible
    }

    private enum Disposition { case keep, space, drop }

    private static func disposition(of scalar: Unicode.Scalar) -> Disposition {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
            .space  // tab, line and paragraph breaks
        case 0x00...0x1F, 0x7F...0x9F:
            .drop  // C0, DEL, C1 (ESC and CSI among them)
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
            .drop  // bidi embeddings, overrides, isolates and marks
        default:
            .keep
        }
    }
}

extension String {
    /// The string without leading and trailing whitespace and line breaks.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
