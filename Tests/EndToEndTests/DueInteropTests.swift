import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// A due date survives every way out of HotTask and back: the real Taskwarrior, todo.txt, a
/// .ics file, and a CalDAV server with Python's caldav as the phone (issue 29).
@Suite("Due dates through other tools", .serialized)
struct DueInteropTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }
    private let environment = ["TZ": "Europe/Berlin"]

    @discardableResult
    private func hottask(_ args: String..., file: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let run = runHotTask(["--file", file ?? store] + args, environment: environment, timeout: 90, sourceLocation: sourceLocation)
        #expect(run.status == 0, "\(args): \(run.stderr)", sourceLocation: sourceLocation)
        return run
    }

    /// Caption → due, as the store has them.
    private func dues(_ path: String) throws -> [String: String] {
        let list = try TaskStore(path: path).load()
        return Dictionary(uniqueKeysWithValues: list.all.map { ($0.caption, $0.due.map { DueDate.baseKey($0) } ?? "none") })
    }

    private func seedThree() {
        hottask("--add", "Pay rent", "--due", "2999-12-01")
        hottask("--add", "Dentist", "--due", "2999-07-01T09:30")
        hottask("--add", "Someday")
    }

    @Test func taskwarriorKeepsTheDueDateBothWays() throws {
        try requireTool("task", from: "taskwarrior")
        seedThree()
        let data = folder.path("taskdata")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let rc = folder.write("data.location=\(data)\nconfirmation=off\nverbose=nothing\n", to: "taskrc")
        var taskEnvironment = environment
        taskEnvironment["TASKRC"] = rc
        taskEnvironment["TASKDATA"] = data
        let binary = HotTaskBinary.url.path
        let imported = runProcess(
            ["sh", "-c", "'\(binary)' --file '\(store)' --export - --export-format taskwarrior | task import -"], environment: taskEnvironment)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Taskwarrior reads them as the same moments: a day is its local midnight.
        let shown = runProcess(
            ["task", "rc.dateformat=Y-M-D H:N", "rc.report.all.columns=description,due", "rc.report.all.labels=D,Due", "all"],
            environment: taskEnvironment)
        #expect(shown.stdout.contains("2999-12-01 00:00"), "\(shown.stdout)")
        #expect(shown.stdout.contains("2999-07-01 09:30"), "\(shown.stdout)")
        #expect(runProcess(["task", "add", "Made in task", "due:2999-03-04"], environment: taskEnvironment).status == 0)
        let other = folder.path("back.json")
        let back = runProcess(["sh", "-c", "task export | '\(binary)' --file '\(other)' --import -"], environment: taskEnvironment)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(!back.stderr.contains("due"), "due is no longer a field HotTask drops: \(back.stderr)")
        let returned = try dues(other)
        #expect(returned["Pay rent"] == "2999-12-01")
        #expect(returned["Made in task"] == "2999-03-04")
        // Taskwarrior keeps instants: the time comes back as that moment, in UTC.
        #expect(returned["Dentist"] == "2999-07-01T07:30:00Z")
        #expect(returned["Someday"] == "none")
        #expect(runHotTask(["--file", other, "--list"], environment: environment).stdout.contains("Dentist  (due 2999-07-01 09:30)"))
    }

    @Test func todoTxtCarriesTheDueTagOutsideTheCaption() throws {
        seedThree()
        let file = folder.path("todo.txt")
        hottask("--export", file, "--export-format", "todotxt")
        let lines = (fileText(file) ?? "").split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(" Pay rent due:2999-12-01 id:") })
        #expect(lines.contains { $0.contains(" Dentist due:2999-07-01 id:") })
        #expect(lines.contains { $0.contains(" Someday id:") })
        // Another app adds a line with a due tag, and moves one.
        let edited =
            (fileText(file) ?? "").replacingOccurrences(of: "due:2999-12-01", with: "due:2999-12-05")
            + "2026-11-20 Water the plants due:2999-01-10 +home\n"
        folder.write(edited, to: "todo.txt")
        hottask("--import", file)
        let after = try dues(store)
        #expect(after["Pay rent"] == "2999-12-05")
        #expect(after["Water the plants"] == "2999-01-10", "+home is its tag")
        // The day of a time is all todo.txt can say: re-importing the unchanged export keeps the time.
        #expect(after["Dentist"] == "2999-07-01T09:30:00+02:00 Europe/Berlin")
    }

    @Test func aDueTagAddedWithTheRealTodoShArrivesAndGoesBack() throws {
        try requireTool("todo-txt", from: "todotxt-cli")
        hottask("--add", "Pay rent", "--due", "2999-12-01")
        let file = folder.path("todo.txt")
        hottask("--export", file, "--export-format", "todotxt")
        let config = folder.write(
            "export TODO_DIR=\(folder.path)\nexport TODO_FILE=\(file)\nexport DONE_FILE=\(folder.path("done.txt"))\n"
                + "export REPORT_FILE=\(folder.path("report.txt"))\n", to: "todo.cfg")
        let added = runProcess(["todo-txt", "-d", config, "-f", "-p", "add", "Water the plants due:2999-01-10 +home"])
        #expect(added.status == 0, "\(added.stderr)")
        // todo.sh lists HotTask's line with its tag, as any todo.txt tool shows it.
        let listed = runProcess(["todo-txt", "-d", config, "-p", "ls"]).stdout
        #expect(listed.contains("Pay rent due:2999-12-01"))
        hottask("--import", file)
        let after = try dues(store)
        #expect(after["Water the plants"] == "2999-01-10", "+home is its tag")
        #expect(after["Pay rent"] == "2999-12-01")
        hottask("--export", file, "--export-format", "todotxt")
        // Untouched, the line goes back with its words where they stood (issue 52).
        #expect(fileText(file)?.contains("\nWater the plants due:2999-01-10 +home id:") == true, "\(fileText(file) ?? "")")
    }

    @Test func anICalendarFileKeepsDatesTimesAndTheirZones() throws {
        seedThree()
        let file = folder.path("tasks.ics")
        hottask("--export", file, "--export-format", "ics")
        let text = fileText(file) ?? ""
        #expect(text.contains("DUE;VALUE=DATE:29991201\r\n"))
        #expect(text.contains("DUE;TZID=Europe/Berlin:29990701T093000\r\n"))
        let other = folder.path("other.json")
        hottask("--import", file, file: other)
        #expect(try dues(other) == dues(store))
        // A zone this system does not know (Outlook's) is kept as given, and goes out the same.
        let outlook = folder.write(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//x//EN\r\nBEGIN:VTODO\r\nUID:outlook-1\r\nSUMMARY:Review\r\n"
                + "DUE;TZID=\"W. Europe Standard Time\":29990301T080000\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:utc-1\r\nSUMMARY:Call\r\n"
                + "DUE:29990302T070000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", to: "outlook.ics")
        hottask("--import", outlook, file: other)
        // (The key these tests compare writes an unknown zone's offset as UTC's.)
        #expect(try dues(other)["Review"] == "2999-03-01T08:00:00+00:00 W. Europe Standard Time")
        #expect(try dues(other)["Call"] == "2999-03-02T07:00:00Z")
        let again = folder.path("again.ics")
        hottask("--export", again, "--export-format", "ics", file: other)
        // Carried as the file had it (the task unchanged since): the TZID quoted as given.
        #expect(fileText(again)?.contains("DUE;TZID=\"W. Europe Standard Time\":29990301T080000\r\n") == true)
        #expect(fileText(again)?.contains("DUE:29990302T070000Z\r\n") == true)
    }

    @Test func aPhonesDueArrivesOneSetHereReachesItAndEachFieldMerges() throws {
        try requireTool("radicale", from: "radicale")
        let server = try CalDAVTestServer(.radicale)
        try server.phone(nil, "add", "Dentist", "--due", "29991201")
        try server.phone(nil, "add", "Call Anna", "--due", "29991203T093000", "--tzid", "America/New_York")
        let config = folder.write(
            "[sync]\nurl = \"\(server.url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n", to: "laptop.toml")
        @discardableResult
        func laptop(_ args: String...) -> (status: Int32, stdout: String, stderr: String) {
            let run = runHotTask(["--file", store, "--config", config] + args, environment: environment, timeout: 90)
            #expect(run.status == 0, "\(args): \(run.stderr)")
            return run
        }
        func number(_ caption: String) throws -> String {
            let line = try #require(laptop("--list").stdout.split(separator: "\n").first { $0.contains("] \(caption)") })
            return line.split(separator: ".")[0].trimmingCharacters(in: .whitespaces)
        }
        laptop("--sync")
        // The phone's DUE arrives: a date, and a time in New York kept as such (15:30 here).
        var here = try dues(store)
        #expect(here["Dentist"] == "2999-12-01")
        #expect(here["Call Anna"] == "2999-12-03T09:30:00-05:00 America/New_York")
        #expect(laptop("--list").stdout.contains("Call Anna  (due 2999-12-03 15:30)"))

        // A due set and cleared here reaches the phone.
        laptop("--add", "Pay rent", "--due", "2999-11-30")
        laptop("--edit", try number("Dentist"), "--due", "2999-12-24T10:00")
        laptop("--edit", try number("Call Anna"), "--due", "none")
        laptop("--sync")
        var phone = try server.phoneTasks()
        #expect(phone["Pay rent"]?["due"] as? String == "29991130")
        #expect(phone["Dentist"]?["due"] as? String == "29991224T100000")
        #expect(phone["Dentist"]?["due_tzid"] as? String == "Europe/Berlin")
        #expect(phone["Call Anna"]?["due"] is NSNull)

        // Changed on each side: the caption here and the due date there both hold; the same
        // field changed on both, the later change wins (the phone's, a second later).
        laptop("--edit", try number("Dentist"), "Dentist at 3")
        laptop("--edit", try number("Pay rent"), "--due", "2999-11-28")
        Thread.sleep(forTimeInterval: 1.1)  // the phone's LAST-MODIFIED is in whole seconds
        try server.phone(nil, "edit", "Dentist", "--due", "29991227")
        try server.phone(nil, "edit", "Pay rent", "--due", "29991129")
        laptop("--sync")
        here = try dues(store)
        #expect(here["Dentist at 3"] == "2999-12-27")
        #expect(here["Pay rent"] == "2999-11-29")
        phone = try server.phoneTasks()
        #expect(phone["Dentist at 3"]?["due"] as? String == "29991227")
        #expect(phone["Pay rent"]?["due"] as? String == "29991129")
        // Nothing left to do: a second sync moves nothing.
        #expect(laptop("--sync").stdout.contains("pulled 0, pushed 0"))
    }
}
