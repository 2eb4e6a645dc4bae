/// Text made safe to print on a terminal, whoever wrote it (a file, an argument, a server):
/// every control a terminal may act on, or that reorders what it shows, is written as `\u001B`.
/// The one function `hottask`, `hottask-sync` and the app put their messages through.
public enum TerminalText {
    /// `keepingLineBreaks`: for multi-line texts (help, usage, the app's two-line sync reason).
    /// Escaping twice changes nothing more: the escape is plain ASCII.
    public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        let escapes = { (scalar: Unicode.Scalar) in isControl(scalar) && !(keepingLineBreaks && scalar == "\n") }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if escapes(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// C0, DEL and C1 (escape sequences, OSC 52, the window title), and the bidirectional
    /// controls, which make a line read differently from what it holds.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
