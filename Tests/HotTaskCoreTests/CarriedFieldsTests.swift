import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Carried fields")
struct CarriedFieldsTests {
    @Test func recordsComeBackExactlyWhateverTheyHold() throws {
        let folder = TemporaryFolder()
        let store = TaskStore(path: folder.storePath)
        let tasks = (0..<3).map { TaskItem(caption: "Task \($0)", section: .bonus, createdAt: Date(timeIntervalSince1970: 1_000)) }
        let records = [
            0: "BEGIN:VTODO\r\nDESCRIPTION:two\\nlines and a \\\\ backslash\r\nEND:VTODO\r\n",
            2: "{\"annotations\":[{\"description\":\"a\\\\b\\nc\"}]}",
        ]
        var carried = CarriedFields()
        carried.record(.iCalendar, tasks: tasks, records: records)
        carried.record(.taskwarrior, tasks: [tasks[1]], records: [0: "{\"tags\":[\"x\"]}"])
        try carried.save(besides: store)
        let loaded = try CarriedFields.load(besides: store)
        #expect(loaded[tasks[0].id, .iCalendar] == records[0])
        #expect(loaded[tasks[1].id, .iCalendar] == nil)
        #expect(loaded[tasks[2].id, .iCalendar] == records[2])
        #expect(loaded[tasks[1].id, .taskwarrior] == "{\"tags\":[\"x\"]}")
        // A file of one format leaves the other's records alone, and forgets its own it no longer says.
        var again = loaded
        again.record(.iCalendar, tasks: tasks, records: [:])
        #expect(again.changed && again[tasks[0].id, .iCalendar] == nil && again[tasks[1].id, .taskwarrior] != nil)
        #expect(again.others(than: .iCalendar, among: tasks.map(\.id)) == [.taskwarrior: 1])
    }

    @Test func noFileIsNoRecords() throws {
        let folder = TemporaryFolder()
        #expect(try CarriedFields.load(besides: TaskStore(path: folder.storePath)).isEmpty)
    }
}
