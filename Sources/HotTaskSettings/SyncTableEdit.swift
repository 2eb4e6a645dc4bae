import FoundationEssentials
import Glibc
import HotTaskCore

/// Puts a `[sync]` table into the text of a config file, for `hottask --sync-setup`: every
/// other line stays byte for byte (comments, blank lines, other tables, line ends), and so do
/// the lines of an existing `[sync]` that are not one of the settings it writes.
public enum SyncTableEdit {
    /// The settings `[sync]` gets; a nil one is left out (and removed if it was there).
    public static func applying(_ settings: SyncSettings, to text: String) -> String {
        let values: [(String, String?)] = [
            ("url", settings.url), ("username", settings.username), ("password_command", settings.passwordCommand),
            ("ca_file", settings.caFile),
        ]
        var written = values.compactMap { key, value in value.map { "\(key) = \(quoted($0))" } }
        if let calendars = settings.calendars { written.append("calendars = [" + calendars.map(quoted).joined(separator: ", ") + "]") }
        var lines = splitKeepingEnds(text)
        // The line end the file uses, for the lines added.
        let end = lines.first { $0.hasSuffix("\r\n") } != nil ? "\r\n" : "\n"
        guard let header = lines.firstIndex(where: { tableName($0) == "sync" }) else {
            var result = text
            // By scalars: "\r\n" is one Character, which hasSuffix("\n") does not see.
            if !result.isEmpty && result.unicodeScalars.last != "\n" { result += end }
            if !result.isEmpty { result += end }
            return result + "[sync]" + end + written.map { $0 + end }.joined()
        }
        var index = header + 1
        while index < lines.count && tableName(lines[index]) == nil {
            if let key = keyName(lines[index]), values.contains(where: { $0.0 == key }) || key == "calendars" {
                lines.remove(at: index)
            } else {
                index += 1
            }
        }
        if lines[header].unicodeScalars.last != "\n" { lines[header] += end }
        lines.insert(contentsOf: written.map { $0 + end }, at: header + 1)
        return lines.joined()
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    public static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Lines with their line ends ("\r\n" is one Character in Swift, so this splits on "\n").
    private static func splitKeepingEnds(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character == "\n" || character == "\r\n" {
                lines.append(current)
                current = ""
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `[name]` (spaces and a comment allowed) → name; nil for any other line.
    private static func tableName(_ line: String) -> String? {
        let trimmed = line.trimmingBlanksAndNewlines()
        guard trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") else { return nil }
        let rest = trimmed[trimmed.index(after: close)...].trimmingBlanks()
        guard rest.isEmpty || rest.hasPrefix("#") else { return nil }
        let name = trimmed[trimmed.index(after: trimmed.startIndex)..<close].trimmingBlanks()
        return name.hasPrefix("\"") || name.hasPrefix("'") ? String(name.dropFirst().dropLast()) : name
    }

    /// The bare or quoted key a `key = value` line sets.
    private static func keyName(_ line: String) -> String? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        let key = line[..<equals].trimmingBlanks()
        guard !key.isEmpty, !key.hasPrefix("#") else { return nil }
        return key.hasPrefix("\"") || key.hasPrefix("'") ? String(key.dropFirst().dropLast()) : key
    }
}
