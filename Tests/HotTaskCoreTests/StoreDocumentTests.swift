import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Store document")
struct StoreDocumentTests {
    /// A task object as JSON text, with `fields` replacing (or, when nil, removing) fields.
    static func taskJSON(_ number: Int, _ fields: [String: String?] = [:]) -> String {
        var values: [(String, String)] = [
            ("id", "\"\(Fixtures.id(number).uuidString.lowercased())\""),
            ("caption", "\"Task \(number)\""),
            ("section", "\"priority\""),
            ("completed", "false"),
            ("createdAt", "\"2026-11-21T10:00:00Z\""),
            ("completedAt", "null"),
            ("modifiedAt", "\"2026-11-21T10:00:00Z\""),
        ]
        for (key, value) in fields {
            if let index = values.firstIndex(where: { $0.0 == key }) {
                if let value { values[index].1 = value } else { values.remove(at: index) }
            } else if let value {
                values.append((key, value))
            }
        }
        return "{" + values.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A version 1 document holding `tasks` (JSON texts).
    static func document(_ tasks: [String], version: String = "1") -> [UInt8] {
        Array("{\"version\": \(version), \"tasks\": [\(tasks.joined(separator: ",\n"))]}".utf8)
    }

    private func decodeError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> DocumentError? {
        do {
            let list = try StoreDocument.decode(bytes).list
            Issue.record("expected an error, decoded \(list.count) tasks", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Round trip and layout

    @Test("encoding then decoding gives the same list")
    func roundTrip() throws {
        var list = Fixtures.sampleList()
        list.append(Fixtures.task("Quote \" backslash \\ and 😀 中文", id: 4, section: .bonus, completed: true, hours: 5, modifiedHours: 7))
        list.append(Fixtures.task("Before 1970", id: 5, hours: -500_000))
        // A snapshot keeps everything, order keys and stamps included.
        let header = SnapshotHeader(generation: .random(), clock: Clock(milliseconds: 5, counter: 0), list: list)
        let snapshot = try StoreDocument.decode(StoreDocument.encode(list, header: header))
        #expect(snapshot.list.shown == list.shown)
        #expect(snapshot.header == header)
        // An export keeps what a person sees, in the same order, without the store's own keys.
        #expect(try StoreDocument.decode(StoreDocument.encode(list)).list.shown.map(\.withoutOrder) == list.shown.map(\.withoutOrder))
    }

    @Test("an empty list round-trips")
    func emptyRoundTrip() throws {
        let bytes = StoreDocument.encode(TaskList())
        #expect(try StoreDocument.decode(bytes).list == TaskList())
        #expect(String(decoding: bytes, as: UTF8.self) == "{\n  \"version\": 2,\n  \"tasks\": []\n}\n")
    }

    @Test("an export has the documented layout, key order and lowercase ids, and no store keys")
    func layout() {
        let list = TaskList([
            Fixtures.task("Buy milk", id: 0xabc),
            Fixtures.task("Call mum", id: 2, section: .bonus, completed: true, hours: 1, modifiedHours: 2),
        ])
        let text = String(decoding: StoreDocument.encode(list), as: UTF8.self)
        #expect(
            text == """
                {
                  "version": 2,
                  "tasks": [
                    {
                      "id": "f0000abc-0000-4000-8000-000000000abc",
                      "caption": "Buy milk",
                      "section": "priority",
                      "completed": false,
                      "createdAt": "2026-11-21T10:00:00Z",
                      "completedAt": null,
                      "modifiedAt": "2026-11-21T10:00:00Z"
                    },
                    {
                      "id": "f0000002-0000-4000-8000-000000000002",
                      "caption": "Call mum",
                      "section": "bonus",
                      "completed": true,
                      "createdAt": "2026-11-21T11:00:00Z",
                      "completedAt": "2026-11-21T12:00:00Z",
                      "modifiedAt": "2026-11-21T12:00:00Z"
                    }
                  ]
                }

                """)
    }

    @Test("tasks are written Top Priority first, whatever order they were added in")
    func sectionOrder() throws {
        let list = TaskList([
            Fixtures.task("B1", id: 1, section: .bonus), Fixtures.task("P1", id: 2), Fixtures.task("B2", id: 3, section: .bonus),
        ])
        let decoded = try StoreDocument.decode(StoreDocument.encode(list)).list
        #expect(decoded.all.map(\.caption) == ["P1", "B1", "B2"])
    }

    @Test("decoding reads every field")
    func decodesFields() throws {
        let list = try StoreDocument.decode(
            Self.document([
                Self.taskJSON(1, ["caption": "\"  Spaced\\tout\\u001B[31m  \"", "id": "\"F00000AB-0000-4000-8000-0000000000AB\""]),
                Self.taskJSON(
                    2,
                    [
                        "section": "\"bonus\"", "completed": "true", "completedAt": "\"2026-11-21T11:00:00Z\"",
                        "modifiedAt": "\"2026-11-21T12:00:00+01:00\"",
                    ]),
            ])
        ).list
        #expect(list.count == 2)
        #expect(list[0].id == Fixtures.id(0xab))
        // Kept as it came (a file's or a server's text), but for what would act on a terminal.
        #expect(list[0].caption == "  Spaced\tout  ")
        #expect(list[1].section == .bonus)
        #expect(list[1].completed)
        #expect(list[1].completedAt == Fixtures.date(hours: 1))
        #expect(list[1].modifiedAt == Fixtures.date(hours: 1))
        #expect(list.completedCount == 1)
    }

    @Test("missing modifiedAt falls back to createdAt; unknown fields are ignored")
    func optionalFields() throws {
        let list = try StoreDocument.decode(
            Self.document([Self.taskJSON(1, ["modifiedAt": nil, "completedAt": nil, "colour": "\"red\""])])
        ).list
        #expect(list[0].modifiedAt == Fixtures.baseDate)
        #expect(list[0].completedAt == nil)
    }

    // MARK: Errors

    /// A broken task (always the second one) and words its error must contain.
    static let badTasks: [(fields: [String: String?], words: [String])] = [
        (["id": nil], ["task 2", "\"id\"", "missing"]),
        (["id": "\"not-a-uuid\""], ["task 2", "\"id\"", "not-a-uuid"]),
        (["id": "7"], ["task 2", "\"id\"", "a number"]),
        (["caption": nil], ["task 2", "\"caption\"", "missing"]),
        (["caption": "42"], ["task 2", "\"caption\"", "a number"]),
        (["section": "\"later\""], ["task 2", "\"section\"", "later"]),
        (["section": "true"], ["task 2", "\"section\"", "a boolean"]),
        (["completed": "\"yes\""], ["task 2", "\"completed\"", "a string"]),
        (["completed": "null"], ["task 2", "\"completed\""]),
        (["completed": nil], ["task 2", "\"completed\"", "missing"]),
        (["createdAt": nil], ["task 2", "\"createdAt\"", "missing"]),
        (["createdAt": "\"2026-02-30T10:00:00Z\""], ["task 2", "\"createdAt\"", "2026-02-30T10:00:00Z"]),
        (["createdAt": "1795255200"], ["task 2", "\"createdAt\"", "a number"]),
        (["completedAt": "\"yesterday\""], ["task 2", "\"completedAt\"", "yesterday"]),
        (["modifiedAt": "[]"], ["task 2", "\"modifiedAt\"", "an array"]),
    ]

    @Test("a wrong or missing field names the task and the field", arguments: badTasks)
    func badTask(fields: [String: String?], words: [String]) throws {
        let error = try #require(decodeError(Self.document([Self.taskJSON(1), Self.taskJSON(2, fields), Self.taskJSON(3)])))
        guard case .invalid = error else {
            Issue.record("expected .invalid, got \(error)")
            return
        }
        for word in words {
            #expect(error.description.contains(word), "\(error.description)")
        }
    }

    @Test("a task that is not an object names the task")
    func taskNotObject() throws {
        let error = try #require(decodeError(Self.document([Self.taskJSON(1), "\"just text\""])))
        #expect(error.description.contains("task 2"))
        #expect(error.description.contains("a string"))
    }

    @Test("duplicate ids are refused, naming the later task and the id")
    func duplicateIDs() throws {
        let error = try #require(decodeError(Self.document([Self.taskJSON(1), Self.taskJSON(2), Self.taskJSON(1)])))
        #expect(error.description.contains("task 3"))
        #expect(error.description.contains(Fixtures.id(1).uuidString.lowercased()))
    }

    @Test("the same id in upper and lower case is a duplicate")
    func duplicateIDsAcrossCase() throws {
        let upper = "\"\(Fixtures.id(0xabc).uuidString.uppercased())\""
        let error = try #require(decodeError(Self.document([Self.taskJSON(0xabc), Self.taskJSON(2, ["id": upper])])))
        #expect(error.description.contains("task 2"))
    }

    @Test("versions other than 1 and 2 are unsupported", arguments: ["3", "0", "1.5"])
    func unsupportedVersion(version: String) throws {
        let error = try #require(decodeError(Self.document([Self.taskJSON(1)], version: version)))
        #expect(error == .unsupportedVersion(version))
        #expect(error.description.contains("version \(version)"))
    }

    @Test("a version that is not a number is refused")
    func versionWrongType() throws {
        let error = try #require(decodeError(Self.document([], version: "\"1\"")))
        guard case .unsupportedVersion = error else {
            Issue.record("expected .unsupportedVersion, got \(error)")
            return
        }
    }

    @Test(
        "documents of the wrong shape are refused",
        arguments: [
            ("[]", "an array"), ("{\"tasks\": []}", "\"version\""), ("{\"version\": 1}", "\"tasks\""),
            ("{\"version\": 1, \"tasks\": {}}", "\"tasks\""), ("null", "null"),
        ])
    func wrongShape(text: String, word: String) throws {
        let error = try #require(decodeError(Array(text.utf8)))
        #expect(error.description.contains(word), "\(error.description)")
    }

    @Test("syntax errors keep their position")
    func syntaxError() throws {
        let error = try #require(decodeError(Array("{\"version\": 1,\n \"tasks\": [\n".utf8)))
        guard case .syntax(let syntax) = error else {
            Issue.record("expected .syntax, got \(error)")
            return
        }
        #expect(syntax.line == 3)
        #expect(error.description.contains("line 3"))
    }
}
