import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Notes and tags through every format, both ways, and what stores made before them keep.
@Suite("Notes and tags in the formats")
struct NotesAndTagsFormatTests {
    let folder = TemporaryFolder()
    var store: TaskStore { TaskStore(path: folder.storePath) }

    /// The export in `format` as text, and what it said.
    func export(_ format: ExportFormat) throws -> (text: String, said: [CommandMessage]) {
        var bytes: [UInt8] = []
        var said: [CommandMessage] = []
        try store.export(try store.load(), as: format, to: "-", standardOutput: { bytes += $0 }, say: { said.append($0) })
        return (String(decoding: bytes, as: UTF8.self), said)
    }

    func task(_ caption: String) throws -> TaskItem {
        try #require(try store.load().all.first { $0.caption == caption })
    }

    func set(_ caption: String, _ fields: TaskFields) throws {
        let task = try task(caption)
        try store.commit([.set(task.id, fields, was: fields.values(in: task))], what: "edit", now: Date(timeIntervalSince1970: 1_800_000_000))
    }

    static let vtodo = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Phone//EN\r
        BEGIN:VTODO\r
        UID:phone-1\r
        SUMMARY:Dentist\r
        DESCRIPTION;LANGUAGE=en:Bring the card\\nAsk about\\, the bill\r
        CATEGORIES:health,errands\r
        CATEGORIES:with\\,comma\r
        X-PHONE-COLOUR:blue\r
        LAST-MODIFIED:20261120T100000Z\r
        STATUS:NEEDS-ACTION\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    @Test(
        "iCalendar: DESCRIPTION is the note, CATEGORIES the tags; an unchanged VTODO goes back as it came, an edited one keeps their place and parameters"
    )
    func iCalendar() throws {
        let file = folder.write(Self.vtodo, to: "phone.ics")
        let said = try store.importTasks(from: file, as: .ics, replacing: false, dates: .runningNow)
        #expect(said.contains(.note("kept aside for an export back to iCalendar, as HotTask has no such field: X-PHONE-COLOUR (1 task)")))
        let dentist = try task("Dentist")
        #expect(dentist.note == "Bring the card\nAsk about, the bill")
        #expect(dentist.tags == ["health", "errands", "with,comma"])
        // Not carried twice: the record holds their place, not their values.
        let carried = try String(contentsOfFile: CarriedFields.path(besides: store), encoding: .utf8)
        #expect(!carried.contains("Bring the card") && !carried.contains("health"))

        let unchanged = try export(.ics).text
        #expect(unchanged.contains("DESCRIPTION;LANGUAGE=en:Bring the card\\nAsk about\\, the bill\r\nCATEGORIES:health,errands,with\\,comma\r\n"))

        try set("Dentist", TaskFields(note: "Bring the card", tags: ["health"]))
        let edited = try export(.ics).text
        #expect(edited.contains("DESCRIPTION;LANGUAGE=en:Bring the card\r\nCATEGORIES:health\r\nX-PHONE-COLOUR:blue\r\n"))
        try set("Dentist", TaskFields(note: "", tags: []))
        let cleared = try export(.ics).text
        #expect(!cleared.contains("DESCRIPTION") && !cleared.contains("CATEGORIES") && cleared.contains("X-PHONE-COLOUR:blue"))
    }

    @Test("a task an older HotTask imported keeps the DESCRIPTION and CATEGORIES its record carried until it is given a note or tags")
    func olderCarriedRecordsKeepTheirValues() throws {
        let file = folder.write(Self.vtodo, to: "phone.ics")
        _ = try store.importTasks(from: file, as: .ics, replacing: false, dates: .runningNow)
        // As an older HotTask left it: no note, no tags, and the record holding the values.
        let dentist = try task("Dentist")
        var old = dentist
        old.note = ""
        old.tags = []
        try store.save(TaskList([old]))
        var record = try #require(try CarriedFields.load(besides: store)[dentist.id, .iCalendar])
        record = record.replacingOccurrences(of: "DESCRIPTION;LANGUAGE=en:", with: "DESCRIPTION;LANGUAGE=en:Bring the card")
            .replacingOccurrences(of: "CATEGORIES:\r\nCATEGORIES:", with: "CATEGORIES:health\r\nCATEGORIES:with\\,comma")
        var carried = CarriedFields()
        carried.record(.iCalendar, tasks: [old], records: [0: record])
        try carried.save(besides: store)
        let text = try export(.ics).text
        #expect(text.contains("DESCRIPTION;LANGUAGE=en:Bring the card\r\nCATEGORIES:health\r\nCATEGORIES:with\\,comma\r\n"))
    }

    static let taskwarrior = """
        [{"uuid":"a0000001-0000-4000-8000-000000000001","description":"Plant roses","status":"pending","entry":"20261101T100000Z",\
        "modified":"20261102T100000Z","project":"Home.Garden","tags":["weekend","outside"],"estimate":3,\
        "annotations":[{"entry":"20261103T090000Z","description":"second"},{"entry":"20261102T090000Z","description":"first\\nof two lines"}]}]
        """

    @Test("Taskwarrior: annotations are the note's lines (entry times kept), tags and project (project:NAME) the tags, and they go back as they came")
    func taskwarrior() throws {
        let file = folder.write(Self.taskwarrior, to: "tw.json")
        let said = try store.importTasks(from: file, as: .taskwarrior, replacing: false, dates: .runningNow)
        #expect(said.contains(.note("kept aside for an export back to Taskwarrior, as HotTask has no such field: estimate (1 task)")))
        let roses = try task("Plant roses")
        #expect(roses.note == "first of two lines\nsecond")
        #expect(roses.tags == ["project:Home.Garden", "weekend", "outside"])
        let carried = try String(contentsOfFile: CarriedFields.path(besides: store), encoding: .utf8)
        #expect(!carried.contains("second") && !carried.contains("weekend") && carried.contains("20261103T090000Z"))

        // An annotation's line break shows as a space; unedited, it goes back as it came.
        let back = try export(.taskwarrior).text
        #expect(
            back.contains(
                #""project":"Home.Garden","tags":["weekend","outside"],"annotations":[{"description":"first\nof two lines","entry":"20261102T090000Z"},{"description":"second","entry":"20261103T090000Z"}],"estimate":3"#
            ), "\(back)")

        // A line edited and one added: the line kept keeps its time (and text), the others get the edit's.
        try set("Plant roses", TaskFields(note: "first of two lines\nsecond, edited\nthird", tags: ["weekend"]))
        let edited = try export(.taskwarrior).text
        let editTime = Timestamp.formatCompact(try task("Plant roses").clocks[.note].date)
        let nextSecond = Timestamp.formatCompact(try task("Plant roses").clocks[.note].date.addingTimeInterval(1))
        #expect(
            edited.contains(
                #""tags":["weekend"],"annotations":[{"description":"first\nof two lines","entry":"20261102T090000Z"},{"description":"second, edited","entry":"\#(editTime)"},{"description":"third","entry":"\#(nextSecond)"}]"#
            ), "\(edited)")
        #expect(!edited.contains("project"))
    }

    /// Issue 52: an annotation's tab is a tab in the note (it became a space), and goes back so.
    @Test("a Taskwarrior annotation's tab stays a tab in the note and in the export")
    func annotationTab() throws {
        let file = folder.write(
            #"[{"uuid":"5b7c6f2e-1d2a-4b8e-9f00-0000000000a1","description":"Pack","status":"pending","entry":"20261101T090000Z","annotations":[{"entry":"20261102T090000Z","description":"socks\t3 pairs"}]}]"#,
            to: "tab.json")
        _ = try store.importTasks(from: file, as: .taskwarrior, replacing: false, dates: .runningNow)
        #expect(try task("Pack").note == "socks\t3 pairs")
        #expect(try export(.taskwarrior).text.contains(#""description":"socks\t3 pairs""#))
    }

    @Test("a Taskwarrior record an older HotTask carried whole writes its annotations, tags and project until the task is given its own")
    func olderTaskwarriorRecords() throws {
        let file = folder.write(Self.taskwarrior, to: "tw.json")
        _ = try store.importTasks(from: file, as: .taskwarrior, replacing: false, dates: .runningNow)
        var old = try task("Plant roses")
        old.note = ""
        old.tags = []
        try store.save(TaskList([old]))
        var carried = CarriedFields()
        carried.record(
            .taskwarrior, tasks: [old],
            records: [
                0:
                    #"{"annotations":[{"description":"kept","entry":"20261102T090000Z"}],"estimate":3,"project":"Home","tags":["weekend"]}"#
            ])
        try carried.save(besides: store)
        // An annotation's line break shows as a space; unedited, it goes back as it came.
        let back = try export(.taskwarrior).text
        #expect(
            back.contains(#""project":"Home","tags":["weekend"],"annotations":[{"description":"kept","entry":"20261102T090000Z"}],"estimate":3"#),
            "\(back)")
    }

    @Test("todo.txt: +project and @context are tags and go back as they came; notes are said to be left out")
    func todoTxt() throws {
        let lines = "(A) 2026-11-01 Call mom +family @phone\n2026-11-02 Fix C++ build +work\n"
        let file = folder.write(lines, to: "todo.txt")
        _ = try store.importTasks(from: file, as: .todotxt, replacing: false, dates: .runningNow)
        #expect(try task("Call mom").tags == ["family", "@phone"])
        #expect(try task("Fix C++ build").tags == ["work"])
        try set("Call mom", TaskFields(note: "Her new number"))
        let (text, said) = try export(.todotxt)
        #expect(text.replacingOccurrences(of: #" id:[0-9a-f]+"#, with: "", options: .regularExpression) == lines)
        #expect(said == [.note("left out, as this format cannot hold them: notes of 1 task")])
        // A line an older HotTask imported with its tags in the caption is still that task.
        var old = try task("Call mom")
        old.caption = "Call mom +family @phone"
        old.tags = []
        try store.save(TaskList([old]))
        // The import base an older HotTask wrote for it (a line from before due dates).
        let hash = String(ImportBase.hash(old.caption), radix: 16)
        try (old.id.uuidString.lowercased() + " " + String(repeating: "0", count: 16 - hash.count) + hash + " p0\n")
            .write(toFile: ImportBase.path(besides: store), atomically: true, encoding: .utf8)
        _ = try store.importTasks(
            from: folder.write("(A) 2026-11-01 Call mom +family @phone\n", to: "todo2.txt"), as: .todotxt, replacing: false, dates: .runningNow)
        #expect(try store.load().all.map(\.caption) == ["Call mom"])
        #expect(try task("Call mom").tags == ["family", "@phone"])
    }

    @Test("HotTask's own format carries both; the schema's order of keys")
    func hotTaskExport() throws {
        let created = Date(timeIntervalSince1970: 1_795_255_200)
        var task = TaskItem(caption: "Pay rent", createdAt: created)
        task.note = "Landlord: 555-0100"
        task.tags = ["home", "@phone"]
        try store.save(TaskList([task]))
        let text = try export(.hottask).text
        #expect(
            text.contains(#""modifiedAt": "2026-11-21T10:00:00Z",\#n      "note": "Landlord: 555-0100",\#n      "tags": ["home", "@phone"]\#n    }"#),
            "\(text)")
        let file = folder.write(text, to: "back.json")
        let other = TaskStore(path: folder.path("other.json"))
        _ = try other.importTasks(from: file, as: .hottask, replacing: false, dates: .runningNow)
        #expect(try other.load().all.map(\.note) == ["Landlord: 555-0100"])
        #expect(try other.load().all.map(\.tags) == [["home", "@phone"]])
    }
}
