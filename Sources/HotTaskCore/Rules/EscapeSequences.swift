/// Terminal escape sequences removed whole from text that is meant to be a caption: a paste,
/// `--add`, `--edit`, an import. The caption rule drops the ESC itself, but `[31m` or
/// `]0;title` would otherwise stay behind as text. The one place that knows their shapes.
public enum EscapeSequences {
    /// True when `text` holds an ESC or an 8-bit C1 introducer (the only way a sequence starts).
    static func mayHoldOne<S: Sequence<Unicode.Scalar>>(_ text: S) -> Bool {
        text.contains { $0 == "\u{1B}" || (0x8F...0x9F).contains($0.value) }
    }

    /// `text` without its escape sequences: CSI (`ESC [` or 8-bit `CSI`) to its final byte;
    /// OSC, DCS, SOS, PM and APC strings (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _` or their
    /// 8-bit forms) to BEL or ST; SS3 (`ESC O A`) and the rest (`ESC ( B`, `ESC 7`) with their
    /// intermediates and final. A sequence cut short by a character that cannot belong to it
    /// ends there, and that character is kept.
    public static func removed<S: Sequence<Unicode.Scalar>>(from text: S) -> String {
        var result = String.UnicodeScalarView()
        var iterator = text.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            defer { pending = nil }
            return pending ?? iterator.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x1B:
                guard let introducer = next() else { break }
                switch introducer {
                case "[": pending = skipControlSequence(&iterator)
                case "]", "P", "X", "^", "_": skipString(&iterator)
                case "O": pending = skipFinal(&iterator)
                case " "..."/": pending = skipEscape(&iterator)  // intermediates, then a final
                case "0"..."~": break  // ESC and one final character
                default: pending = introducer  // ESC before text or another control: only ESC goes
                }
            case 0x9B: pending = skipControlSequence(&iterator)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: skipString(&iterator)
            case 0x8F: pending = skipFinal(&iterator)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Parameter and intermediate bytes, then a final byte. Returns a scalar that ended the
    /// sequence without belonging to it.
    private static func skipControlSequence<I: IteratorProtocol<Unicode.Scalar>>(_ iterator: inout I) -> Unicode.Scalar? {
        while let scalar = iterator.next() {
            switch scalar.value {
            case 0x20...0x3F: continue
            case 0x40...0x7E: return nil
            default: return scalar
            }
        }
        return nil
    }

    /// To BEL, ST (`ESC \` or 8-bit), or CAN/SUB.
    private static func skipString<I: IteratorProtocol<Unicode.Scalar>>(_ iterator: inout I) {
        var afterEscape = false
        while let scalar = iterator.next() {
            if afterEscape && scalar == "\\" { return }
            afterEscape = scalar == "\u{1B}"
            if [0x07, 0x9C, 0x18, 0x1A].contains(scalar.value) { return }
        }
    }

    /// One final character (`ESC O A`), unless what follows cannot be one.
    private static func skipFinal<I: IteratorProtocol<Unicode.Scalar>>(_ iterator: inout I) -> Unicode.Scalar? {
        guard let scalar = iterator.next() else { return nil }
        return (0x20...0x7E).contains(scalar.value) ? nil : scalar
    }

    private static func skipEscape<I: IteratorProtocol<Unicode.Scalar>>(_ iterator: inout I) -> Unicode.Scalar? {
        while let scalar = iterator.next() {
            switch scalar.value {
            case 0x20...0x2F: continue
            case 0x30...0x7E: return nil
            default: return scalar
            }
        }
        return nil
    }
}
