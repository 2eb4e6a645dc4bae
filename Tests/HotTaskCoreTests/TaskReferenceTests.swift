import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Task handles")
struct TaskReferenceTests {
    /// Three tasks whose ids share their first 8 characters two by two.
    let list = TaskList([
        TaskItem(id: UUID(uuidString: "abcdef01-1111-4000-8000-000000000001")!, caption: "One", createdAt: Fixtures.baseDate),
        TaskItem(id: UUID(uuidString: "abcdef01-2222-4000-8000-000000000002")!, caption: "Two", createdAt: Fixtures.baseDate),
        TaskItem(
            id: UUID(uuidString: "fedcba98-3333-4000-8000-000000000003")!, caption: "Three", section: .bonus,
            createdAt: Fixtures.baseDate),
    ])

    private func refusal(_ handle: String, in list: TaskList? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        -> ReferenceError?
    {
        do {
            let position = try (list ?? self.list).position(ofHandle: handle)
            Issue.record("expected an error, got position \(position)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test("numbers run from 1 across both sections", arguments: [("1", 0), ("2", 1), ("3", 2), (" 3 ", 2), ("03", 2)])
    func numbers(handle: String, position: Int) throws {
        #expect(try list.position(ofHandle: handle) == position)
    }

    @Test("numbers out of range say which numbers exist", arguments: ["0", "4", "99", "9999999"])
    func outOfRange(handle: String) throws {
        let error = try #require(refusal(handle))
        #expect(error.description.contains("there is no task"))
        #expect(error.description.contains("from 1 to 3"))
    }

    @Test("a number in an empty list says the list is empty")
    func emptyList() throws {
        let error = try #require(refusal("1", in: TaskList()))
        #expect(error.description.contains("the list is empty"))
    }

    @Test(
        "an id prefix of 8 or more characters names one task",
        arguments: [
            ("fedcba98", 2), ("FEDCBA98", 2), ("fedcba98-3333", 2), ("abcdef01-1", 0), ("abcdef01-2222-4000-8000-000000000002", 1),
        ])
    func idPrefix(handle: String, position: Int) throws {
        #expect(try list.position(ofHandle: handle) == position)
    }

    @Test("an ambiguous prefix is refused naming the tasks it matches")
    func ambiguous() throws {
        let error = try #require(refusal("abcdef01"))
        #expect(error.description.contains("2 tasks"))
        #expect(error.description.contains("abcdef01-1 'One'"))
        #expect(error.description.contains("abcdef01-2 'Two'"))
        #expect(error.description.contains("give more of the id"))
    }

    @Test("8 or more digits are an id prefix, never a list number", arguments: ["00000001", "000000003", "99999999999999999999999"])
    func longNumbersAreIDPrefixes(handle: String) throws {
        let error = try #require(refusal(handle))
        #expect(error.description.contains("no task has an id starting with"))
    }

    @Test("short ids are 8 hex digits, longer only where two ids share a start")
    func shortIDs() {
        let ids = list.shortIDs()
        #expect(ids[2] == "fedcba98")
        #expect(ids[0] == "abcdef01-1" && ids[1] == "abcdef01-2")
        for (position, id) in ids.enumerated() { #expect((try? list.position(ofHandle: id)) == position) }
    }

    @Test("a prefix no id has is reported")
    func unknownPrefix() throws {
        let error = try #require(refusal("deadbeef"))
        #expect(error.description == "no task has an id starting with deadbeef")
    }

    @Test("prefixes shorter than 8 characters and other text are refused", arguments: ["fedcba9", "abc", "", "-1", "1.5", "milk", "fedcba98!"])
    func tooShort(handle: String) throws {
        let error = try #require(refusal(handle))
        #expect(error.description.contains("at least 8 hex digits"))
    }

    @Test("an id prefix made only of digits still names its task")
    func numericPrefix() throws {
        let list = TaskList([
            TaskItem(id: UUID(uuidString: "12345678-aaaa-4000-8000-000000000001")!, caption: "Digits", createdAt: Fixtures.baseDate)
        ])
        #expect(try list.position(ofHandle: "12345678-a") == 0)
        let position = try list.position(ofHandle: "12345678")
        #expect(position == 0)
    }
}
