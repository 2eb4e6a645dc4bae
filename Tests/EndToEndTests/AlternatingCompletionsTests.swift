import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 52, Deliver 3: five rounds of completing a repeating task, here and then in the peer,
/// leave both sides on the same next date with every completion recorded: in Taskwarrior's
/// history (`task completed`), in todo.sh's done lines (auto-archive on and off), and on a
/// CalDAV phone (its COUNT, one less per occurrence done). Every step at its own time, two
/// seconds after the last (libfaketime), as a person types.
@Suite("Five alternating completions with each peer, a step at a time")
struct AlternatingCompletionsTests {
    let folder = TemporaryFolder()
    let clock = StepClock()
    private var store: String { folder.storePath }

    init() throws {
        try requireTool("faketime", from: "faketime")
    }

    @discardableResult
    private func hottask(_ args: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> HotTaskRun {
        let run = HotTaskRun(
            runHotTask(
                ["--file", store] + args, stdin: stdin, environment: ["TZ": "UTC"], prefix: ["faketime", clock.next()],
                sourceLocation: sourceLocation))
        #expect(run.status == 0, "hottask \(args): \(run.stderr)", sourceLocation: sourceLocation)
        return run
    }

    private func task(_ caption: String) throws -> TaskItem {
        try #require(try TaskStore(path: store).load().all.first { $0.caption == caption })
    }

    private func shortID(_ caption: String) throws -> String { String(try task(caption).id.uuidString.lowercased().prefix(8)) }

    /// The weekly dates from `start`, `count` of them.
    private func weeks(from start: String, _ count: Int) -> [String] {
        let first = DueDate(text: start)!.days
        return (0..<count).map { DueDate.day(first + 7 * $0)!.dayText }
    }

    // MARK: Taskwarrior

    @discardableResult
    private func taskwarrior(_ args: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let rc = folder.write("data.location=\(folder.path("taskdata"))\nconfirmation=off\nverbose=nothing\nnews.version=2.6.0\n", to: "taskrc")
        let run = runProcess(
            ["faketime", clock.next(), "task", "rc:\(rc)"] + args, stdin: stdin,
            environment: ["TASKRC": rc, "TASKDATA": folder.path("taskdata"), "TZ": "UTC"], sourceLocation: sourceLocation)
        #expect(run.status == 0, "task \(args): \(run.stdout) \(run.stderr)", sourceLocation: sourceLocation)
        return run.stdout
    }

    @Test func taskwarrior() throws {
        try requireTool("task", from: "taskwarrior")
        taskwarrior("add", "Water plants", "due:2030-12-01", "recur:weekly")
        hottask("--import", "-", stdin: taskwarrior("export"))
        let dates = weeks(from: "2030-12-01", 11)
        for round in 0..<5 {
            hottask("--done", try shortID("Water plants"))
            taskwarrior("import", "-", stdin: hottask("--export", "-", "--export-format", "taskwarrior").stdout)
            let pending = taskwarrior("+PENDING", "export")
            #expect(pending.contains("\"due\":\"\(dates[2 * round + 1].replacingOccurrences(of: "-", with: ""))T000000Z\""), "\(pending)")
            taskwarrior("+PENDING", "done")
            hottask("--import", "-", stdin: taskwarrior("export"))
            #expect(try task("Water plants").due == DueDate(text: dates[2 * round + 2]), "round \(round + 1)")
        }
        // Both sides: the same next date, and Taskwarrior's history has all ten.
        let compact = dates.map { $0.replacingOccurrences(of: "-", with: "") }
        // Taskwarrior's next: the template's mask says ten occurrences made and done, so the
        // next it makes is the eleventh, HotTask's due date.
        let template = taskwarrior("status:recurring", "export")
        #expect(template.contains("\"mask\":\"++++++++++\"") && template.contains("\"due\":\"\(compact[0])T000000Z\""), "\(template)")
        #expect(try task("Water plants").due == DueDate(text: dates[10]))
        let completed = taskwarrior("+COMPLETED", "export")
        let doneDues = compact[0..<10].map { "\"due\":\"\($0)T000000Z\"" }
        for due in doneDues { #expect(completed.contains(due), "\(due) is not in task completed") }
        #expect(taskwarrior("+COMPLETED", "count").trimmingCharacters(in: .whitespacesAndNewlines) == "10")
    }

    // MARK: todo.sh

    @discardableResult
    private func todo(_ args: String..., autoArchive: Bool, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let config = folder.write(
            """
            export TODO_DIR=\(folder.path)
            export TODO_FILE=\(folder.path("todo.txt"))
            export DONE_FILE=\(folder.path("done.txt"))
            export REPORT_FILE=\(folder.path("report.txt"))
            export TODOTXT_AUTO_ARCHIVE=\(autoArchive ? 1 : 0)

            """, to: "todo.cfg")
        let run = runProcess(
            ["faketime", clock.next(), "todo-txt", "-d", config, "-f", "-p"] + args, environment: ["TZ": "UTC"], sourceLocation: sourceLocation)
        #expect(run.status == 0, "todo.sh \(args): \(run.stdout) \(run.stderr)", sourceLocation: sourceLocation)
        return run.stdout
    }

    @Test(arguments: [true, false])
    func todoSh(autoArchive: Bool) throws {
        try requireTool("todo-txt", from: "todotxt-cli")
        let file = folder.path("todo.txt")
        todo("add", "Water plants due:2030-12-01 rec:+1w", autoArchive: autoArchive)
        hottask("--import", file)
        let dates = weeks(from: "2030-12-01", 11)
        for round in 0..<5 {
            hottask("--done", try shortID("Water plants"))
            hottask("--export", file, "--export-format", "todotxt")
            let open = (fileText(file) ?? "").split(separator: "\n").firstIndex { !$0.hasPrefix("x ") }.map { $0 + 1 } ?? 1
            todo("do", String(open), autoArchive: autoArchive)
            hottask("--import", file)
            #expect(try task("Water plants").due == DueDate(text: dates[2 * round + 2]), "round \(round + 1)")
        }
        hottask("--export", file, "--export-format", "todotxt")
        todo("archive", autoArchive: autoArchive)
        let id = try shortID("Water plants")
        #expect(fileText(file) == "Water plants due:\(dates[10]) rec:+1w id:\(id)\n")
        // Every occurrence done on either side left its done line.
        let doneLines = (fileText(folder.path("done.txt")) ?? "").split(separator: "\n")
        #expect(doneLines.count == 10, "\(doneLines)")
        for date in dates[0..<10] { #expect(doneLines.contains { $0.contains("due:\(date)") }, "no done line for \(date)") }
    }

    // MARK: A CalDAV phone

    @Test func caldavPhone() throws {
        let server = try CalDAVTestServer(.radicale)
        let config = folder.write(
            "[sync]\nurl = \"\(server.url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n", to: "config.toml")
        hottask("--config", config, "--add", "Water plants", "--due", "2030-12-01", "--repeat", "FREQ=WEEKLY;COUNT=20")
        hottask("--config", config, "--sync")
        let dates = weeks(from: "2030-12-01", 11)
        for round in 0..<5 {
            hottask("--config", config, "--done", try shortID("Water plants"))
            hottask("--config", config, "--sync")
            try server.phone(nil, "complete-occurrence", "Water plants")
            hottask("--config", config, "--sync")
            #expect(try task("Water plants").due == DueDate(text: dates[2 * round + 2]), "round \(round + 1)")
        }
        let phone = try #require(try server.phoneTasks()["Water plants"])
        #expect(phone["due"] as? String == dates[10].replacingOccurrences(of: "-", with: ""))
        #expect((phone["raw"] as? String ?? "").contains("COUNT=10"), "ten of twenty done: \(phone["raw"] ?? "")")
        #expect(try task("Water plants").repeatRule.rrule == "FREQ=WEEKLY;COUNT=10")
    }
}
