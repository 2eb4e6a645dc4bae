import Testing

@testable import HotTaskCore

@Suite("JSON parser")
struct JSONParserTests {
    private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    /// The error `text` gives; records an issue when it parses.
    private func syntaxError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
        syntaxError(Array(text.utf8), sourceLocation: sourceLocation)
    }

    private func syntaxError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
        do {
            let value = try JSONParser.parse(bytes)
            Issue.record("expected a syntax error, parsed \(value)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Values

    @Test("reads every kind of value")
    func values() throws {
        let value = try parse(#" { "a": [1, -2.5, 3e2, 0, true, false, null], "b": {"c": "d"}, "e": [] , "f": {} } "#)
        #expect(
            value
                == .object([
                    "a": .array([.number(1), .number(-2.5), .number(300), .number(0), .bool(true), .bool(false), .null]),
                    "b": .object(["c": .string("d")]),
                    "e": .array([]),
                    "f": .object([:]),
                ]))
    }

    @Test(
        "reads numbers",
        arguments: [
            ("0", 0.0), ("-0", -0.0), ("42", 42), ("-17", -17), ("3.25", 3.25), ("1e3", 1000), ("1E+3", 1000),
            ("25e-2", 0.25), ("-1.5E1", -15), ("123456789012", 123_456_789_012),
        ])
    func numbers(text: String, expected: Double) throws {
        #expect(try parse(text) == .number(expected))
    }

    @Test("rejects malformed numbers", arguments: ["01", "-", "1.", ".5", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "--1"])
    func badNumbers(text: String) {
        _ = syntaxError(text)
    }

    @Test("a number too large for a Double is an error")
    func numberOutOfRange() throws {
        let error = try #require(syntaxError("[1e999]"))
        #expect(error.offset == 1)
        #expect(error.message.contains("out of range"))
    }

    @Test(
        "decodes escapes",
        arguments: [
            (#""a\"b""#, "a\"b"), (#""a\\b""#, "a\\b"), (#""a\/b""#, "a/b"), (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
            (#""\u0041\u00e9\u4E2D""#, "Aé中"), (#""\ud83d\ude00""#, "😀"), (#""x\uD83C\uDDF3\uD83C\uDDFFy""#, "x🇳🇿y"),
            (#""\u0000""#, "\u{0}"), (#""plain é 中 😀""#, "plain é 中 😀"),
        ])
    func escapes(text: String, expected: String) throws {
        #expect(try parse(text) == .string(expected))
    }

    @Test(
        "rejects broken escapes",
        arguments: [#""\x""#, #""\u12""#, #""\u12G4""#, #""\ud83d""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\ude00""#])
    func badEscapes(text: String) {
        _ = syntaxError(text)
    }

    // MARK: Errors and their positions

    @Test("a truncated document reports the end of the text")
    func truncated() throws {
        let text = "{\n  \"tasks\": [\n    1,\n    2"
        let error = try #require(syntaxError(text))
        #expect(error.offset == text.utf8.count)
        #expect(error.line == 4)
        #expect(error.column == 6)
        #expect(error.message.contains("cut short"))
        #expect(error.description.contains("line 4, column 6"))
    }

    @Test("an unclosed string points at its opening quote")
    func unclosedString() throws {
        let error = try #require(syntaxError("[\"ok\",\n \"never closed"))
        #expect((error.line, error.column, error.offset) == (2, 2, 8))
        #expect(error.message.contains("not closed"))
    }

    @Test("a missing comma on line 3 is reported on line 3")
    func missingComma() throws {
        let text = "{\n  \"a\": 1\n  \"b\": 2\n}\n"
        let error = try #require(syntaxError(text))
        #expect(error.line == 3)
        #expect(error.column == 3)
        #expect(error.offset == 13)
        #expect(error.message.contains("','"))
    }

    @Test("text after the value is an error")
    func trailingText() throws {
        let error = try #require(syntaxError("{}\n{}"))
        #expect((error.line, error.column, error.offset) == (2, 1, 3))
    }

    @Test("rejects what is not JSON", arguments: ["", "   ", "tru", "nul", "[1,]", "{\"a\":1,}", "{a:1}", "'x'", "[1 2]", "{\"a\" 1}"])
    func notJSON(text: String) {
        _ = syntaxError(text)
    }

    @Test("a raw control character in a string is an error")
    func controlCharacter() throws {
        let error = try #require(syntaxError("[\"a\tb\"]"))
        #expect(error.offset == 3)
    }

    @Test("duplicate keys are rejected at the second key")
    func duplicateKeys() throws {
        let error = try #require(syntaxError("{\"id\": 1,\n \"id\": 2}"))
        #expect(error.message.contains("\"id\""))
        #expect((error.line, error.column, error.offset) == (2, 2, 11))
    }

    @Test("the same key in different objects is fine")
    func sameKeyInSiblings() throws {
        #expect(try parse(#"[{"id": 1}, {"id": 2}]"#) == .array([.object(["id": .number(1)]), .object(["id": .number(2)])]))
    }

    @Test("invalid UTF-8 in a string is rejected at the bad byte")
    func invalidUTF8() throws {
        let bytes: [UInt8] = Array("[\"ab".utf8) + [0xFF] + Array("\"]".utf8)
        let error = try #require(syntaxError(bytes))
        #expect(error.offset == 4)
        #expect(error.message.contains("UTF-8"))
    }

    @Test(
        "rejects invalid UTF-8 sequences",
        arguments: [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF8, 0x88, 0x80, 0x80], [0x80]] as [[UInt8]])
    func invalidUTF8Sequences(sequence: [UInt8]) {
        _ = syntaxError([0x22] + sequence + [0x22])
        _ = syntaxError(Array(#""\n"#.utf8) + sequence + [0x22])
    }

    // MARK: Depth

    @Test("nesting up to the limit is fine")
    func depthAtLimit() throws {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try parse(text) }
    }

    @Test("deeper nesting is an error, not a crash", arguments: [JSONParser.maximumDepth + 1, 100_000])
    func tooDeep(depth: Int) throws {
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = try #require(syntaxError(text))
        #expect(error.message.contains("nested"))
        #expect(error.offset == JSONParser.maximumDepth)
    }

    @Test("deep objects are limited too")
    func tooDeepObjects() throws {
        let text = String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        let error = try #require(syntaxError(text))
        #expect(error.message.contains("nested"))
    }

    // MARK: JSON Lines

    @Test("JSON Lines: each non-blank line is a value")
    func lines() throws {
        let values = try JSONParser.parseLines(Array("{\"a\":1}\n\n  \n[2]\r\n3\n".utf8))
        #expect(values.map(\.value) == [.object(["a": .number(1)]), .array([.number(2)]), .number(3)])
        #expect(values.map(\.line) == [1, 4, 5], "blank lines still count")
    }

    @Test("JSON Lines: errors name the line")
    func linesError() throws {
        do {
            _ = try JSONParser.parseLines(Array("{\"a\":1}\n{\"a\":2}\n{\"a\" 3}\n".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 6)
            #expect(error.offset == 21)
        }
    }
}
