import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 52 items 4 and 9 with the real peers: a repeating task's iCalendar body has UNTIL of
/// its start's value type (a UTC time for a timed series) and starts on one of its rule's days,
/// so that `ical`, `icalendar` and `vobject` all read it, dateutil counts it as HotTask does,
/// and todoman completes it.
@Suite("Repeating tasks' iCalendar bodies, strictly, with Taskwarrior and todoman")
struct RepeatBodiesStrictTests {
    let folder = TemporaryFolder()
    private var calendar: String { folder.path("calendars/tasks") }
    private let environment = ["TZ": "Europe/Berlin"]

    private func hottask(_ args: String...) -> HotTaskRun {
        HotTaskRun(runHotTask(["--file", folder.storePath] + args, environment: environment))
    }

    @discardableResult
    private func task(_ args: String...) -> (status: Int32, stdout: String, stderr: String) {
        let rc = folder.write(
            "data.location=\(folder.path("taskdata"))\nconfirmation=off\nverbose=nothing\nnews.version=2.6.0\n", to: "taskrc")
        let run = runProcess(
            ["task", "rc:\(rc)"] + args, environment: environment.merging(["TASKRC": rc, "TASKDATA": folder.path("taskdata")]) { $1 })
        #expect(run.status == 0, "task \(args): \(run.stdout) \(run.stderr)")
        return run
    }

    @discardableResult
    private func todo(_ args: String...) -> (status: Int32, stdout: String, stderr: String) {
        let run = runTodoman(in: folder, args, environment: environment)
        #expect(run.status == 0 && !run.stderr.contains("Traceback"), "todo \(args): \(run.stdout) \(run.stderr)")
        return run
    }

    private func expectStrict(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let run = runProcess(["python3", CalDAVTestServer.scripts + "/ics_strict.py"] + paths, timeout: 120)
        #expect(run.status == 0 && run.stdout.hasPrefix("ok: "), "\(run.stdout)\(run.stderr)", sourceLocation: sourceLocation)
    }

    private func id(_ caption: String) throws -> String {
        let task = try #require(try TaskStore(path: folder.storePath).load().all.first { $0.caption == caption })
        return String(task.id.uuidString.lowercased().prefix(8))
    }

    /// The RRULE, DTSTART and DUE lines of each exported file, by SUMMARY.
    private func seriesLines() -> [String: [String]] {
        var found: [String: [String]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: calendar)) ?? [] {
            let text = String(decoding: fileBytes(calendar + "/" + name) ?? [], as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
            let all = text.components(separatedBy: "\r\n")
            guard let begin = all.firstIndex(of: "BEGIN:VTODO"), let end = all.firstIndex(of: "END:VTODO") else { continue }
            let lines = all[begin..<end]
            guard let summary = lines.first(where: { $0.hasPrefix("SUMMARY:") })?.dropFirst(8) else { continue }
            found[String(summary)] = lines.filter { $0.hasPrefix("RRULE") || $0.hasPrefix("DTSTART") || $0.hasPrefix("DUE") }.sorted()
        }
        return found
    }

    @Test(
        "a timed series with an end day (from Taskwarrior, --repeat, a time given to a dated one) ends in a UTC UNTIL; all parse, todoman completes")
    func timedSeriesEndInUTC() throws {
        try requireTool("task", from: "taskwarrior")
        try #require(isOnPath("todo"), "todoman is needed: pip install todoman (make test-deps installs it)")
        try FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
        task("add", "Water", "due:2030-03-04T09:30", "recur:daily", "until:2030-03-10")
        let exported = folder.write(task("export").stdout, to: "task.json")
        let imported = hottask("--import", exported)
        #expect(imported.status == 0 && imported.stdout.contains(": added 1, updated 0, unchanged 0, skipped 1"), "\(imported.stdout)")
        #expect(hottask("--add", "Standup", "--due", "2030-03-04T09:30", "--repeat", "FREQ=DAILY;UNTIL=20300310").status == 0)
        #expect(hottask("--add", "Gym", "--due", "2030-03-04", "--repeat", "FREQ=WEEKLY;UNTIL=20300401").status == 0)
        expectOutput(
            hottask("--edit", try id("Gym"), "--due", "2030-03-04T18:00"), stdout: "Due 2030-03-04 18:00: Gym\n", command: "hottask --edit --due")
        #expect(hottask("--export", calendar, "--export-format", "vdir").status == 0)
        let file = folder.path("all.ics")
        #expect(hottask("--export", file, "--export-format", "ics").status == 0)
        #expect(
            seriesLines() == [
                // Taskwarrior's due is an instant: the series is in UTC, and ends with that day there.
                "Water": ["DTSTART:20300304T083000Z", "DUE:20300304T083000Z", "RRULE:FREQ=DAILY;UNTIL=20300310T235959Z"],
                "Standup": [
                    "DTSTART;TZID=Europe/Berlin:20300304T093000", "DUE;TZID=Europe/Berlin:20300304T093000",
                    "RRULE:FREQ=DAILY;UNTIL=20300310T225959Z",
                ],
                "Gym": [
                    "DTSTART;TZID=Europe/Berlin:20300304T180000", "DUE;TZID=Europe/Berlin:20300304T180000",
                    "RRULE:FREQ=WEEKLY;UNTIL=20300401T215959Z",
                ],
            ])
        expectStrict([calendar, file])
        // Read back, each is the rule it was: the same end day, said the same.
        let again = hottask("--import", calendar)
        #expect(again.stdout.contains("added 0, updated 0, unchanged 3"), "\(again.stdout)")
        let listed = hottask("--list").stdout
        for words in ["daily until 2030-03-10", "weekly until 2030-04-01"] { #expect(listed.contains(words), "\(listed)") }
        // todoman completes each (it read UNTIL with dateutil), and HotTask reads what it wrote.
        let ids = todo("--porcelain", "list", "--status", "ANY").stdout
        guard case .array(let items) = try JSONParser.parse(Array(ids.utf8)) else { throw CocoaError(.fileReadCorruptFile) }
        #expect(items.count == 3)
        for case .object(let item) in items { if case .number(let number)? = item["id"] { todo("done", String(Int(number))) } }
        let afterTodoman = hottask("--import", calendar)
        #expect(afterTodoman.status == 0, "\(afterTodoman.stderr)")
        expectStrict([calendar])
    }

    @Test("every mon,thu given a Tuesday starts on the Thursday: dateutil counts COUNT to the day HotTask does")
    func aSeriesStartsOnOneOfItsDays() throws {
        try FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
        expectOutput(
            hottask("--add", "Swim", "--due", "2030-03-05", "--repeat", "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=3"),
            stdout: "Added to Top Priority: Swim (due 2030-03-07, every Mon, Thu, this and 2 more)\n", command: "hottask --add --repeat")
        #expect(hottask("--add", "Run", "--due", "2030-03-01").status == 0)
        expectOutput(
            hottask("--edit", try id("Run"), "--repeat", "every mon,thu"),
            stdout: "Repeats every Mon, Thu: Run (due 2030-03-04)\n", command: "hottask --edit --repeat")
        expectOutput(
            hottask("--edit", try id("Run"), "--due", "2030-03-12"), stdout: "Due 2030-03-14 (the first of its days from 2030-03-12): Run\n",
            command: "hottask --edit --due")
        #expect(hottask("--export", calendar, "--export-format", "vdir").status == 0)
        expectStrict([calendar])
        // HotTask's last occurrence is dateutil's.
        let swim = try id("Swim")
        var dues: [String] = []
        for _ in 0..<3 {
            dues.append(hottask("--done", swim).stdout)
        }
        #expect(
            dues == [
                "Completed: Swim (repeats every Mon, Thu, this and 2 more; next: Mon 11 Mar 2030)\n",
                "Completed: Swim (repeats every Mon, Thu, this and 1 more; next: Thu 14 Mar 2030)\n", "Completed: Swim\n",
            ])
        let last = runProcess([
            "python3", "-c",
            "from dateutil.rrule import rrulestr; import datetime; print(list(rrulestr('FREQ=WEEKLY;BYDAY=MO,TH;COUNT=3', dtstart=datetime.datetime(2030,3,7)))[-1].date())",
        ])
        #expect(last.stdout == "2030-03-14\n")
    }
}
