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

/// The rules of captions: `clean` for what a person types (the app's input and editor, `--add`,
/// `--edit`), `kept` for what a file or a server gave, and `shown` for the screen.
///
/// Typed text: escape sequences are removed whole (`EscapeSequences`); tabs and line breaks
/// inside become spaces; every other control character (C0, C1, DEL) and the bidirectional
/// overrides are dropped, so a caption can never carry a terminal escape sequence or reorder
/// the text around it; leading and trailing whitespace is trimmed. What is left must show
/// something (a caption of zero-width spaces would be a blank row) and fit both limits:
/// characters, and bytes (60,000 combining marks on one letter are one character).
public enum CaptionRule {
    /// Longest caption accepted, in characters (grapheme clusters).
    public static let maximumLength = 1_000
    /// Most UTF-8 bytes accepted: room for 1,000 characters of any script with accents or
    /// emoji sequences, far below what a pile of combining marks takes.
    static let maximumBytes = 8_192

    /// What a person typed, under the input rule.
    public static func clean(_ raw: String) throws(CaptionError) -> String {
        try clean(raw, maximumLength: maximumLength, maximumBytes: maximumBytes)
    }

    /// Text that came from a file or a server (a Taskwarrior description, a VTODO's SUMMARY, a
    /// todo.txt line's text), and every caption read back from the store or its log: kept as it
    /// came — at any length, with its line breaks, tabs and spaces at either end, even empty (a
    /// phone's to-do without a title) — but for what could act on a terminal, removed as from
    /// typed text: escape sequences whole, control characters other than tab, line feed and
    /// carriage return, and the bidirectional controls. `shown` folds it onto one line for the
    /// screen; nothing cuts it but the store's own size (`StoreLimits`).
    public static func kept(_ raw: String) -> String {
        var raw = raw
        let asItIs = raw.withUTF8 { keepsAsItIs($0) }
        if asItIs { return raw }
        let text = EscapeSequences.mayHoldOne(raw.unicodeScalars) ? EscapeSequences.removed(from: raw.unicodeScalars) : raw
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: scalars.append(scalar)
            default: if disposition(of: scalar) == .keep { scalars.append(scalar) }
            }
        }
        return String(scalars)
    }

    /// `kept` would return the text whose UTF-8 is `bytes` as it is: nothing in it to drop.
    /// Decided from the bytes alone (every load reads every caption through it).
    static func keepsAsItIs(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        visibleIfNothingToDrop(bytes, keepingLineBreaks: true) != nil
    }

    /// The caption on one line, as the screen, `--list` and messages show it: each line break
    /// (CRLF, LF, CR, U+2028, U+2029) and tab a space, whitespace at either end trimmed; a
    /// caption with nothing visible (a phone's to-do without a title) is `untitled`. What a
    /// file or a server gave is kept whole in the store (`kept`); only its display is folded.
    public static func shown(_ caption: String) -> String {
        // Most captions: already one line with something visible.
        var caption = caption
        if isOneVisibleLine(&caption) { return caption }
        let line = oneLine(caption)
        return hasVisible(line) ? line : untitled
    }

    /// True when the text shows something (see `isVisible`): not empty, not only whitespace.
    public static func hasVisible(_ text: String) -> Bool {
        if text.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return true }
        return text.unicodeScalars.contains(where: isVisible)
    }

    /// What a caption with nothing visible shows.
    public static let untitled = "(no title)"

    /// The caption folded onto one line (see `shown`), without the placeholder: what the
    /// editor starts from (empty for a task without a title).
    public static func oneLine(_ caption: String) -> String {
        var caption = caption
        if isOneVisibleLine(&caption) { return caption }
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in caption.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n", previous == "\r" { continue }  // CRLF is one line break
            switch scalar.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x2028, 0x2029: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        return String(scalars).trimmingWhitespace()
    }

    /// True for most captions, which `oneLine` and `shown` leave as they are: no control byte,
    /// no U+2028/U+2029, no space at either end, and something visible in ASCII.
    private static func isOneVisibleLine(_ caption: inout String) -> Bool {
        caption.withUTF8 { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return false }
            // Starting with a visible ASCII byte, and no control byte or 0xE2 (the first byte of
            // U+2028 and U+2029) anywhere: eight bytes at a time (`--list` folds every caption).
            if first > 0x20, first < 0x7F, !hasControlOrE2(bytes) { return true }
            var visible = false
            var previous: (UInt8, UInt8) = (0, 0)
            for byte in bytes {
                if byte < 0x20 { return false }
                if byte > 0x20 && byte < 0x7F { visible = true }
                if previous == (0xE2, 0x80) && (byte == 0xA8 || byte == 0xA9) { return false }
                previous = (previous.1, byte)
            }
            return visible
        }
    }

    /// True when a byte of `bytes` is below 0x20 or is 0xE2; eight bytes at a time.
    private static func hasControlOrE2(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var at = 0
        while at + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            if ByteWord.below(word, 0x20) | ByteWord.equal(word, 0xE2) != 0 { return true }
            at += 8
        }
        while at < bytes.count {
            if bytes[at] < 0x20 || bytes[at] == 0xE2 { return true }
            at += 1
        }
        return false
    }

    /// A caption a person typed over one that came from elsewhere (an edit in the app): the
    /// input rule, with room for as many characters and bytes as the caption it replaces, so
    /// that mending a word of a long imported description is not refused for its length.
    public static func clean(_ raw: String, replacing old: String) throws(CaptionError) -> String {
        try clean(raw, maximumLength: max(maximumLength, old.count), maximumBytes: max(maximumBytes, old.utf8.count))
    }

    private static func clean(_ raw: String, maximumLength: Int, maximumBytes: Int) throws(CaptionError) -> String {
        if isAlreadyClean(raw) { return raw }
        let cleaned = cleanFragment(raw).trimmingWhitespace()
        guard cleaned.unicodeScalars.contains(where: isVisible) else { throw .empty }
        let bytes = cleaned.utf8.count
        guard bytes <= maximumBytes else { throw .tooManyBytes(bytes: bytes) }
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
    /// building a new string for each caption was half the time of an import. Short enough in
    /// bytes that it cannot exceed the limit.
    private static func isAlreadyClean(_ raw: String) -> Bool {
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
        return visibleIfNothingToDrop(utf8, keepingLineBreaks: false) == true
    }

    /// nil when the bytes hold something `clean` drops or replaces (C0, DEL, C1, bidi controls,
    /// line separators; with `keepingLineBreaks`, as `kept` has it: tab, line feed, carriage
    /// return and the line separators stay); otherwise whether they hold an ASCII letter, digit
    /// or sign.
    private static func visibleIfNothingToDrop<Bytes: Sequence<UInt8>>(_ utf8: Bytes, keepingLineBreaks: Bool) -> Bool? {
        var previous: (UInt8, UInt8) = (0, 0)
        var visible = false  // an ASCII letter, digit or sign; otherwise the full check decides
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F {
                guard keepingLineBreaks, byte == 0x09 || byte == 0x0A || byte == 0x0D else { return nil }
            }
            if byte > 0x20 && byte < 0x7F { visible = true }
            switch previous {
            case (_, 0xC2) where byte <= 0x9F: return nil  // C1 controls U+0080–U+009F
            case (_, 0xD8) where byte == 0x9C: return nil  // U+061C arabic letter mark
            case (0xE2, 0x80) where byte == 0x8E || byte == 0x8F || (0xAA...0xAE).contains(byte):
                return nil  // U+200E/F marks, U+202A–E embeddings
            case (0xE2, 0x80) where !keepingLineBreaks && (byte == 0xA8 || byte == 0xA9):
                return nil  // U+2028/9 separators
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
