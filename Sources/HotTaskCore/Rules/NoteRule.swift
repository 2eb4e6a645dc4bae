/// Why a note was refused.
public enum NoteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More UTF-8 bytes than `StoreLimits.noteBytes` after cleaning.
    case tooLong(bytes: Int)

    public var description: String {
        switch self {
        case .tooLong(let bytes):
            "the note takes \(bytes) bytes; the limit is \(StoreLimits.noteBytes) (about \(StoreLimits.noteBytes / 1000) thousand letters)"
        }
    }
}

/// The one rule every note passes, whether written in the editor, given to `--note` or read from
/// a calendar or Taskwarrior: free text of several lines, without what could reach a terminal
/// as a command. Escape sequences are removed whole (`EscapeSequences`), line breaks of every
/// kind become `\n`, tabs stay, every other control character and the bidirectional overrides
/// are dropped, trailing spaces of each line and blank lines at either end go. An empty result
/// is no note. At most `StoreLimits.noteBytes` bytes of UTF-8.
public enum NoteRule {
    public static func clean(_ raw: String) throws(NoteError) -> String {
        let cleaned = cleanUnlimited(raw)
        guard cleaned.utf8.count <= StoreLimits.noteBytes else { throw .tooLong(bytes: cleaned.utf8.count) }
        return cleaned
    }

    /// A note from another program (an import, a calendar), which is never refused: one over
    /// the limit is cut at a line or word with "…". `cut` says whether it was.
    static func cleanCutting(_ raw: String) -> (note: String, cut: Bool) {
        let cleaned = cleanUnlimited(raw)
        guard cleaned.utf8.count > StoreLimits.noteBytes else { return (cleaned, false) }
        // Whole characters, with room for the "…" (three bytes).
        var end = cleaned.startIndex
        var bytes = 0
        for index in cleaned.indices {
            bytes += cleaned[index].utf8.count
            guard bytes <= StoreLimits.noteBytes - 3 else { break }
            end = cleaned.index(after: index)
        }
        var kept = cleaned[..<end]
        if let space = kept.lastIndex(where: { $0 == " " || $0 == "\n" }), kept.distance(from: space, to: kept.endIndex) < 200 {
            kept = kept[..<space]
        }
        return (String(kept) + "…", true)
    }

    /// A note read back from the store or its log: cleaned, and held to the size it may have.
    static func cleanStored(_ raw: String) throws(NoteError) -> String {
        if isAlreadyClean(raw) { return raw }
        return try clean(raw)
    }

    /// True when `clean` would keep `raw` as it is, decided from its bytes: printable text with
    /// tabs and line breaks, no space or blank line at either end.
    static func isAlreadyClean(_ raw: String) -> Bool {
        let utf8 = raw.utf8
        guard utf8.count <= StoreLimits.noteBytes, let first = utf8.first, let last = utf8.last, first != 0x20, first != 0x0A,
            first != 0x09, last != 0x20, last != 0x0A, last != 0x09
        else { return utf8.isEmpty }
        var previous: UInt8 = 0
        for byte in utf8 {
            // Controls other than tab and line break; a space or tab ending a line.
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F || byte >= 0x80 { return cleanUnlimited(raw) == raw }
            if byte == 0x0A, previous == 0x20 || previous == 0x09 { return false }
            previous = byte
        }
        return true
    }

    private static func cleanUnlimited(_ raw: String) -> String {
        let raw = EscapeSequences.mayHoldOne(raw.unicodeScalars) ? EscapeSequences.removed(from: raw.unicodeScalars) : raw
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        func endLine() {
            var text = String(line)
            while let last = text.unicodeScalars.last, last == " " || last == "\t" || last.properties.isWhitespace {
                text.unicodeScalars.removeLast()
            }
            lines.append(text)
            line = String.UnicodeScalarView()
        }
        for scalar in raw.unicodeScalars {
            defer { previous = scalar }
            switch scalar.value {
            case 0x0A where previous == "\r": continue  // CRLF is one line break
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: endLine()
            case 0x09: line.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F: continue
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: continue
            default: line.append(scalar)
            }
        }
        endLine()
        // Blank lines at either end go; leading spaces of the first line too.
        while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        if let first = lines.first { lines[0] = String(first.drop { $0 == " " || $0 == "\t" }) }
        return lines.joined(separator: "\n")
    }

    /// The note as one line for a row or a list: its lines joined by " ↵ ".
    public static func oneLine(_ note: String) -> String {
        note.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: " ↵ ")
    }
}
