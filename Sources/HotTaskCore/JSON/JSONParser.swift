/// A strict JSON parser (RFC 8259) that reports the line, column and byte of any error.
///
/// Foundation's parsers on Linux report no position ("The given data was not valid JSON"),
/// and a person fixing a hand-edited store needs one. Nesting is limited so that a hostile
/// file cannot exhaust the stack.
struct JSONParser {
    static let maximumDepth = 64

    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONSyntaxError) {
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                if parser.index < buffer.count {
                    throw parser.error("unexpected text after the end of the JSON value")
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses each non-blank line as its own JSON value (JSON Lines), with its 1-based line
    /// number; errors name the line.
    static func parseLines(_ bytes: [UInt8]) throws(JSONSyntaxError) -> [(line: Int, value: JSONValue)] {
        var values: [(line: Int, value: JSONValue)] = []
        var start = 0
        var lineNumber = 1
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = Array(bytes[start..<end])
            if line.contains(where: { !isWhitespace($0) }) {
                do {
                    values.append((lineNumber, try parse(line)))
                } catch {
                    throw JSONSyntaxError(
                        message: error.message, offset: start + error.offset,
                        line: lineNumber, column: error.column)
                }
            }
            start = end + 1
            lineNumber += 1
        }
        return values
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Where `bytes` come from when they are a window on a file rather than the whole text
    /// (the store's fast reader only), and the file offset of their first byte.
    let window: FileWindow?
    let origin: Int
    /// The store's fast reader: the last parent read (a family's subtasks name the same one).
    var lastParent = RepeatedUUID()

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        window = nil
        origin = 0
    }

    init(_ window: FileWindow) {
        bytes = window.bytes
        self.window = window
        origin = window.origin
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<offset where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return JSONSyntaxError(
            message: message, offset: offset, line: line, column: offset - lineStart + 1)
    }

    private func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the text" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of the text: the JSON is cut short") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a JSON value, found \(describeByte(at: index))")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        for byte in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == byte else {
                throw error("expected '\(literal)'", at: start)
            }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("the JSON is nested more than \(Self.maximumDepth) levels deep") }
        index += 1  // {
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of the text inside an object: the JSON is cut short") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a quoted key, found \(describeByte(at: index))")
            }
            let keyStart = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\", found \(describeByte(at: index))")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if object.updateValue(value, forKey: key) != nil {
                throw error("the key \"\(key)\" appears twice in one object", at: keyStart)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of the text inside an object: the JSON is cut short") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            } else {
                throw error("expected ',' or '}' in an object, found \(describeByte(at: index))")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("the JSON is nested more than \(Self.maximumDepth) levels deep") }
        index += 1  // [
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of the text inside an array: the JSON is cut short") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(array)
            } else {
                throw error("expected ',' or ']' in an array, found \(describeByte(at: index))")
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        guard index > digitsStart else { throw error("a number needs digits", at: start) }
        if bytes[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 {
            throw error("a number may not start with 0", at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > fractionStart else { throw error("a number needs digits after '.'", at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponentStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > exponentStart else { throw error("a number needs digits in its exponent", at: start) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("the number \(text) is out of range", at: start) }
        return value
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let openingQuote = index
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8", at: firstInvalidUTF8(from: start, to: index))
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character (\(describeByte(at: index))) must be escaped inside a string") }
            index += 1
        }
        guard index < bytes.count else {
            throw error("a string is not closed: the JSON is cut short", at: openingQuote)
        }
        return try parseEscapedString(from: start, openingQuote: openingQuote)
    }

    private mutating func parseEscapedString(from start: Int, openingQuote: Int) throws(JSONSyntaxError) -> String {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8", at: firstInvalidUTF8(from: start, to: index))
                }
                index += 1
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: index - 2)
                }
            default:
                if byte < 0x20 { throw error("a control character (\(describeByte(at: index))) must be escaped inside a string") }
                utf8.append(byte)
                index += 1
            }
        }
        throw error("a string is not closed: the JSON is cut short", at: openingQuote)
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("a \\u escape needs four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let start = index - 2
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("a \\u escape holds half of a surrogate pair", at: start)
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second),
                let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else { throw error("a \\u escape holds an invalid surrogate pair", at: start) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw error("a \\u escape holds half of a surrogate pair", at: start)
        }
        return scalar
    }

    /// The offset of the first byte that breaks UTF-8 in `start..<end`, for the message.
    private func firstInvalidUTF8(from start: Int, to end: Int) -> Int {
        var offset = start
        while offset < end {
            let byte = bytes[offset]
            let length =
                byte < 0x80 ? 1 : byte >= 0xF0 && byte < 0xF5 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
            guard length > 0, offset + length <= end,
                String(validating: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self) != nil
            else { return offset }
            offset += length
        }
        return start
    }
}
