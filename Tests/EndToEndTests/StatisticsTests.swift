import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 55: the history `--stats` draws is kept for good. Every step runs at its own time
/// (libfaketime, in UTC), so the days are real days to HotTask.
@Suite("--stats: a lasting history, day by day")
struct StatisticsTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }

    init() throws {
        try requireTool("faketime", from: "faketime")
    }

    /// `hottask` at `time` (`2026-11-23 10:00:00`, UTC), which must succeed.
    @discardableResult
    private func hottask(
        at time: String, _ args: [String], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) -> HotTaskRun {
        let run = HotTaskRun(
            runHotTask(
                ["--file", store] + args, environment: ["TZ": "UTC", "LANG": "C.UTF-8", "NO_COLOR": ""].merging(environment) { $1 },
                prefix: ["faketime", time], timeout: 60, sourceLocation: sourceLocation))
        #expect(run.status == 0, "hottask \(args): \(run.stderr)", sourceLocation: sourceLocation)
        return run
    }

    private func id(_ caption: String) throws -> String {
        try #require(try TaskStore(path: store).load().all.first { $0.caption == caption }).id.uuidString.lowercased()
    }

    /// `--stats --json`'s days as `date: added/completed`, the days with neither left out.
    private func days(at time: String, _ narrowed: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let json = hottask(at: time, ["--stats", "--json"] + narrowed, sourceLocation: sourceLocation).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        let days = try #require(object["days"] as? [[String: Any]], sourceLocation: sourceLocation)
        // Consecutive, oldest first, to today.
        let dates = days.compactMap { $0["date"] as? String }
        #expect(dates.last == String(time.prefix(10)), sourceLocation: sourceLocation)
        let numbers = dates.compactMap { DueDate(text: $0)?.days }
        #expect(numbers == Array((numbers.first ?? 0)..<((numbers.first ?? 0) + numbers.count)), sourceLocation: sourceLocation)
        return days.compactMap { day in
            guard let date = day["date"] as? String, let added = day["added"] as? Int, let completed = day["completed"] as? Int else { return nil }
            return added == 0 && completed == 0 ? nil : "\(date): \(added)/\(completed)"
        }
    }

    @Test("six days of adds and completions appear day by day, and stay after the done tasks are deleted and a 1.3 MB import folds the log")
    func sixDays() throws {
        var expected: [String] = []
        for day in 0..<6 {
            let date = "2026-11-\(23 + day)"
            let captions = (0...day).map { "Day \(day) task \($0)" }
            hottask(at: "\(date) 09:00:00", captions.flatMap { ["--add", $0] })
            if day > 0 { hottask(at: "\(date) 17:00:00", try captions.prefix(day).flatMap { ["--done", try id($0)] }) }
            if day == 2 {
                // Completed and undone: no count is left of it.
                hottask(at: "\(date) 18:00:00", ["--done", try id(captions[day])])
                hottask(at: "\(date) 18:00:05", ["--undo"])
            }
            expected.append("\(date): \(day + 1)/\(day)")
            #expect(try days(at: "\(date) 20:00:00") == expected, "day \(day)")
        }
        // Every done task deleted: the history stays.
        let done = try TaskStore(path: store).load().all.filter(\.completed).map { $0.id.uuidString.lowercased() }
        #expect(done.count == 15)
        hottask(at: "2026-11-29 09:00:00", done.flatMap { ["--delete", $0] })
        #expect(try TaskStore(path: store).load().all.filter(\.completed).isEmpty)
        #expect(try days(at: "2026-11-29 09:00:05") == expected)
        // A 1.3 MB import, folded into the snapshot at once; its tasks were made on 1 November.
        let made = Date(timeIntervalSince1970: 1_793_527_200)  // 2026-11-01T10:00:00Z
        let padding = String(repeating: "x", count: 200)
        let imported = (0..<4_000).map { TaskItem(caption: "Imported \($0) \(padding)", createdAt: made) }
        let file = folder.path("big.json")
        FileManager.default.createFile(atPath: file, contents: Data(StoreDocument.encode(TaskList(imported))))
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0 >= 1_300_000)
        hottask(at: "2026-11-29 10:00:00", ["--import", file])
        let state = try TaskStore(path: store).read()
        #expect(state.replayed == 0, "the import was folded into the snapshot")
        #expect(try days(at: "2026-11-29 10:00:05") == ["2026-11-01: 4000/0"] + expected)
    }

    @Test("local days across the end of summer time and a month change (Europe/Berlin)")
    func summerTimeAndMonthChange() throws {
        let berlin = ["TZ": "Europe/Berlin"]
        // 25 October 2026 has 25 hours there; 23:30 is after the clocks went back.
        for (time, caption) in [
            ("2026-10-24 23:30:00", "Late Saturday"), ("2026-10-25 01:30:00", "Before the change"), ("2026-10-25 23:30:00", "Late Sunday"),
            ("2026-10-31 23:59:00", "Last of October"), ("2026-11-01 00:01:00", "First of November"),
        ] {
            hottask(at: time, ["--add", caption], environment: berlin)
            hottask(at: String(time.prefix(17)) + "30", ["--done", try id(caption)], environment: berlin)
        }
        let json = hottask(at: "2026-11-01 09:00:00", ["--stats", "--json"], environment: berlin).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let days = try #require(object["days"] as? [[String: Any]]).filter { ($0["added"] as? Int ?? 0) > 0 }
        #expect(
            days.map { "\($0["date"] ?? ""): \($0["added"] ?? "")/\($0["completed"] ?? "")" } == [
                "2026-10-24: 1/1", "2026-10-25: 2/2", "2026-10-31: 1/1", "2026-11-01: 1/1",
            ])
        #expect(object["completedThisMonth"] as? Int == 1 && object["completedToday"] as? Int == 1)
    }

    @Test("a daily task done three days running counts three completions")
    func repeatingThreeDays() throws {
        hottask(at: "2026-11-23 08:00:00", ["--add", "Water plants", "--due", "2026-11-23", "--repeat", "every day"])
        for day in 23...25 { hottask(at: "2026-11-\(day) 19:00:00", ["--done", try id("Water plants")]) }
        #expect(try days(at: "2026-11-25 20:00:00") == ["2026-11-23: 1/1", "2026-11-24: 0/1", "2026-11-25: 0/1"])
        // Narrowed, it counts the same: the history keeps each repeating task's occurrences.
        let narrowed = hottask(at: "2026-11-25 20:00:01", ["--stats", "--filter", "water"]).stdout.split(separator: "\n")
        #expect(
            narrowed.prefix(4) == [
                "Completed: 1 today, 3 this week, 3 this month", "Last 14 days: 1 added, 3 completed", "Open: 1, 0 overdue",
                "Oldest open: Water plants (added 2026-11-23, 2 days ago)",
            ])
        hottask(at: "2026-11-25 20:00:05", ["--undo"])
        #expect(try days(at: "2026-11-25 20:00:10") == ["2026-11-23: 1/1", "2026-11-24: 0/1"])
        #expect(try days(at: "2026-11-25 20:00:10", ["--filter", "water"]) == ["2026-11-23: 1/1", "2026-11-24: 0/1"])
    }

    @Test("narrowed to a list or a tag, each completion counts on its day, a repeating task's too, after its deletion and a fold")
    func narrowedByListAndTag() throws {
        hottask(at: "2026-11-23 08:00:00", ["--new-list", "Home"])
        hottask(at: "2026-11-23 08:00:01", ["--add", "Water plants +garden", "--in", "Home", "--due", "2026-11-23", "--repeat", "every day"])
        hottask(at: "2026-11-23 08:00:02", ["--add", "Mow the lawn +garden", "--in", "Home"])
        hottask(at: "2026-11-23 08:00:03", ["--add", "File taxes"])
        // Added by mistake and taken back: no task was added, narrowed or not.
        hottask(at: "2026-11-23 08:00:04", ["--add", "Wtaer plnats +garden", "--in", "Home"])
        hottask(at: "2026-11-23 08:00:05", ["--undo"])
        for day in 23...25 { hottask(at: "2026-11-\(day) 19:00:00", ["--done", try id("Water plants")]) }
        hottask(at: "2026-11-24 12:00:00", ["--done", try id("File taxes")])
        hottask(at: "2026-11-25 12:00:00", ["--done", try id("Mow the lawn")])
        let home = ["2026-11-23: 2/1", "2026-11-24: 0/1", "2026-11-25: 0/2"]
        #expect(try days(at: "2026-11-25 20:00:00", ["--in", "Home"]) == home)
        #expect(try days(at: "2026-11-25 20:00:00", ["--filter", "+garden"]) == home)
        #expect(try days(at: "2026-11-25 20:00:00", ["--in", "Tasks"]) == ["2026-11-23: 1/0", "2026-11-24: 0/1"])
        #expect(try days(at: "2026-11-25 20:00:00") == ["2026-11-23: 3/1", "2026-11-24: 0/2", "2026-11-25: 0/2"])
        // Deleted, then the log folded into a new snapshot: the counts stay with the tasks' tombstones.
        hottask(at: "2026-11-26 09:00:00", ["--delete", try id("Water plants"), "--delete", try id("Mow the lawn")])
        try TaskStore(path: store).compact()
        #expect(try TaskStore(path: store).read().replayed == 0)
        #expect(try days(at: "2026-11-26 09:00:05", ["--in", "Home"]) == home)
        #expect(try days(at: "2026-11-26 09:00:05", ["--filter", "+garden"]) == home)
    }

    @Test("a phone's completion counts on its COMPLETED day; Taskwarrior's on its end, todo.txt's on its x date")
    func completionDatesOfOtherTools() throws {
        let ics = folder.write(
            """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Phone//EN\r
            BEGIN:VTODO\r
            UID:phone-1\r
            DTSTAMP:20261121T080000Z\r
            CREATED:20261105T090000Z\r
            SUMMARY:Renew passport\r
            STATUS:COMPLETED\r
            COMPLETED:20261120T230000Z\r
            END:VTODO\r
            END:VCALENDAR\r

            """, to: "phone.ics")
        let taskwarrior = folder.write(
            #"[{"uuid":"5d3c2a10-4a4b-4c4d-8e8f-000000000001","description":"Fix bike","status":"completed","entry":"20261104T080000Z","end":"20261118T080000Z","modified":"20261118T080000Z"}]"#,
            to: "tw.json")
        let todo = folder.write("x 2026-11-19 2026-11-10 Pay bills\n", to: "todo.txt")
        hottask(at: "2026-11-29 10:00:00", ["--import", ics])
        hottask(at: "2026-11-29 10:00:02", ["--import", taskwarrior, "--import-format", "taskwarrior"])
        hottask(at: "2026-11-29 10:00:04", ["--import", todo])
        #expect(
            try days(at: "2026-11-29 10:00:06") == [
                "2026-11-04: 1/0", "2026-11-05: 1/0", "2026-11-10: 1/0", "2026-11-18: 0/1", "2026-11-19: 0/1", "2026-11-20: 0/1",
            ])
    }

    @Test("--stats fits 80 columns and draws the last 14 days, in blocks or in ASCII (LANG=C, NO_COLOR)")
    func wholeText() throws {
        // Two weeks of Taskwarrior history, an overdue task and an old open one.
        var entries: [String] = []
        for day in 0..<16 {
            for done in 0..<(day * 7 % 11) {
                entries.append(
                    #"{"uuid":"5d3c2a10-4a4b-4c4d-8e8f-\#(String(format: "%012d", day * 100 + done))","description":"Done \#(day).\#(done)","status":"completed","entry":"20261101T080000Z","end":"202611\#(String(format: "%02d", 13 + day))T120000Z"}"#
                )
            }
        }
        entries.append(
            #"{"uuid":"5d3c2a10-4a4b-4c4d-8e8f-999999999991","description":"Sort out the attic, the garage and the shed before the winter comes in earnest","status":"pending","entry":"20260301T080000Z"}"#
        )
        entries.append(
            #"{"uuid":"5d3c2a10-4a4b-4c4d-8e8f-999999999992","description":"Send the invoice","status":"pending","entry":"20261120T080000Z","due":"20261125T000000Z"}"#
        )
        let file = folder.write("[" + entries.joined(separator: ",\n") + "]\n", to: "tw.json")
        hottask(at: "2026-11-28 09:00:00", ["--import", file, "--import-format", "taskwarrior"])
        let blocks = hottask(at: "2026-11-28 21:00:00", ["--stats"]).stdout
        let ascii = hottask(at: "2026-11-28 21:00:00", ["--stats"], environment: ["LANG": "C"]).stdout
        let plain = hottask(at: "2026-11-28 21:00:00", ["--stats"], environment: ["NO_COLOR": "1"]).stdout
        expectSnapshot(blocks, named: "stats.txt")
        expectSnapshot(ascii, named: "stats-ascii.txt")
        #expect(plain == ascii)
        for line in (blocks + ascii).split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        #expect(blocks.split(separator: "\n").filter { $0.contains(" 2026-11-") }.count == 14)
    }
}
