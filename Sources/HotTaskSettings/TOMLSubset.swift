import FoundationEssentials
import Glibc

/// A reader for the part of TOML the config file needs: comments, `[table]` headers, and
/// `key = value` where a value is a string (basic or literal), an array of strings (it may
/// span lines), an integer or a boolean. Every entry keeps its line so that any later
/// complaint (unknown key, bad value) can name it.
///
/// Hand-written instead of TOMLKit: TOMLKit reports a line only for syntax errors, not for
/// the keys it read, and its C++ core (toml++) is a 17,000-line header to compile.
public enum TOMLSubset {
    public enum Value: Equatable, Sendable {
        case string(String)
        case strings([String])
        case integer(Int)
        case boolean(Bool)

        /// How messages describe a value's type.
        public var kindName: String {
            switch self {
            case .string: "a string"
            case .strings: "an array"
            case .integer: "a number"
            case .boolean: "a boolean"
            }
        }
    }

    public struct Entry: Equatable, Sendable {
        /// The `[table]` the key is in; nil at the top of the file.
        public let table: String?
        public let key: String
        public let value: Value
        public let line: Int
    }

    /// A syntax error and its line (1-based).
    public struct SyntaxError: Error, Equatable, Sendable {
        public let line: Int
        public let reason: String
    }

    /// The entries of `text`; the first syntax error stops the reading.
    public static func parse(_ text: String) throws(SyntaxError) -> [Entry] {
        var errors: [SyntaxError] = []
        let entries = parse(text, stoppingAtFirstError: true, errors: &errors)
        if let first = errors.first { throw first }
        return entries
    }

    /// The entries of `text` that read, each line with a syntax error passed over (and said in
    /// `errors`): a bad value drops its own line, a bad table header the lines under it, a
    /// broken array its lines, so that the rest of the file is still used.
    public static func parse(_ text: String, skipping errors: inout [SyntaxError]) -> [Entry] {
        parse(text, stoppingAtFirstError: false, errors: &errors)
    }

    private static func parse(_ text: String, stoppingAtFirstError: Bool, errors: inout [SyntaxError]) -> [Entry] {
        var entries: [Entry] = []
        var table: String?
        /// Lines under a table header that did not read belong to no known table: passed over.
        var inBrokenTable = false
        var seenTables = Set<String>()
        var seenKeys = Set<String>()
        // "\r\n" is one Character in Swift, so line ends are unified before splitting.
        let lines = text.replacing("\r\n", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        var number = 0
        while number < lines.count {
            var scanner = Scanner(characters: lines[number], line: number + 1)
            number += 1
            scanner.skipSpaces()
            if scanner.atEndOrComment { continue }
            if scanner.peek == "[" {
                do throws(SyntaxError) {
                    scanner.advance()
                    scanner.skipSpaces()
                    let name = try scanner.key()
                    scanner.skipSpaces()
                    guard scanner.peek == "]" else { throw scanner.error("expected ] after the table name") }
                    scanner.advance()
                    try scanner.expectEnd()
                    guard seenTables.insert(name).inserted else { throw scanner.error("the table [\(name)] appears twice") }
                    table = name
                    inBrokenTable = false
                } catch {
                    errors.append(error)
                    if stoppingAtFirstError { return entries }
                    inBrokenTable = true
                }
                continue
            }
            let startLine = scanner.line
            var inArray = false
            do throws(SyntaxError) {
                let key = try scanner.key()
                scanner.skipSpaces()
                guard scanner.peek == "=" else { throw scanner.error("expected = after \"\(key)\"") }
                scanner.advance()
                scanner.skipSpaces()
                let value: Value
                if scanner.peek == "[" {
                    // An array may go on over the next lines until its closing bracket.
                    inArray = true
                    scanner.advance()
                    var items: [String] = []
                    while true {
                        scanner.skipSpaces()
                        if scanner.atEndOrComment {
                            guard number < lines.count else { throw scanner.error("the array is not closed with ]") }
                            scanner = Scanner(characters: lines[number], line: number + 1)
                            number += 1
                            continue
                        }
                        if scanner.peek == "]" {
                            scanner.advance()
                            break
                        }
                        guard scanner.peek == "\"" || scanner.peek == "'" else {
                            throw scanner.error("arrays here hold only strings in quotes")
                        }
                        items.append(try scanner.string())
                        scanner.skipSpaces()
                        if scanner.peek == "," {
                            scanner.advance()
                        } else if scanner.peek != "]" && !scanner.atEndOrComment {
                            throw scanner.error("expected , or ] in the array")
                        }
                    }
                    inArray = false
                    value = .strings(items)
                } else if scanner.peek == "\"" || scanner.peek == "'" {
                    value = .string(try scanner.string())
                } else {
                    let word = scanner.bareWord()
                    if word == "true" || word == "false" {
                        value = .boolean(word == "true")
                    } else if let integer = Int(word.replacing("_", with: "")) {
                        value = .integer(integer)
                    } else if word.isEmpty {
                        throw scanner.error("a value is missing after =")
                    } else {
                        throw scanner.error("\(word) is not a value; strings need quotes")
                    }
                }
                try scanner.expectEnd()
                let fullKey = (table.map { $0 + "." } ?? "") + key
                guard seenKeys.insert(fullKey).inserted else {
                    throw SyntaxError(line: startLine, reason: "\"\(key)\" is set twice")
                }
                if !inBrokenTable { entries.append(Entry(table: table, key: key, value: value, line: startLine)) }
            } catch {
                if !inBrokenTable { errors.append(error) }
                if stoppingAtFirstError { return entries }
                // The rest of a broken array is passed over, to its closing bracket.
                if inArray, !scanner.characters[scanner.index...].contains("]") {
                    while number < lines.count {
                        let line = lines[number]
                        if line.contains("=") || line.first == "[" { break }
                        number += 1
                        if line.contains("]") { break }
                    }
                }
            }
        }
        return entries
    }

    /// Reads one line, character by character.
    private struct Scanner {
        let characters: [Character]
        let line: Int
        var index = 0

        init(characters: [Character], line: Int) {
            self.characters = characters
            self.line = line
        }

        var peek: Character? { index < characters.count ? characters[index] : nil }
        var atEndOrComment: Bool { peek == nil || peek == "#" }

        mutating func advance() { index += 1 }

        mutating func skipSpaces() {
            while peek == " " || peek == "\t" { advance() }
        }

        func error(_ reason: String) -> SyntaxError {
            SyntaxError(line: line, reason: reason)
        }

        mutating func expectEnd() throws(SyntaxError) {
            skipSpaces()
            guard atEndOrComment else { throw error("unexpected text after the value: \(String(characters[index...]))") }
        }

        /// A bare key (letters, digits, `_`, `-`) or a quoted one. Dotted keys are not needed.
        mutating func key() throws(SyntaxError) -> String {
            if peek == "\"" || peek == "'" { return try string() }
            let word = bareWord()
            guard !word.isEmpty else {
                throw error(peek.map { "unexpected \"\($0)\"; expected a key name" } ?? "a key name is missing")
            }
            if peek == "." { throw error("dotted keys are not supported; use a [table]") }
            return word
        }

        mutating func bareWord() -> String {
            let start = index
            while let character = peek, character.isASCII,
                character.isLetter || character.isNumber || character == "_" || character == "-" || character == "+"
            {
                advance()
            }
            return String(characters[start..<index])
        }

        /// A basic string ("…" with backslash escapes) or a literal one ('…', as written).
        mutating func string() throws(SyntaxError) -> String {
            let quote = peek
            advance()
            var result = ""
            while let character = peek {
                advance()
                if character == quote { return result }
                if character == "\\" && quote == "\"" {
                    guard let escaped = peek else { break }
                    advance()
                    switch escaped {
                    case "\"": result.append("\"")
                    case "\\": result.append("\\")
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    case "u", "U":
                        let length = escaped == "u" ? 4 : 8
                        guard index + length <= characters.count,
                            let code = UInt32(String(characters[index..<index + length]), radix: 16),
                            let scalar = Unicode.Scalar(code)
                        else { throw error("bad \\\(escaped) escape in a string") }
                        index += length
                        result.unicodeScalars.append(scalar)
                    default: throw error("unknown escape \\\(escaped) in a string")
                    }
                } else {
                    result.append(character)
                }
            }
            throw error("the string is not closed with \(quote.map(String.init) ?? "a quote")")
        }
    }
}
