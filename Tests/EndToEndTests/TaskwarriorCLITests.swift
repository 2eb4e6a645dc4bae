import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// HotTask beside the real Taskwarrior (`task` 2.6), as a switcher who keeps using it (issue
/// 28): `task export | hottask --import -`, a caption edited here, then
/// `hottask --export - --export-format taskwarrior | task import -` keeps every field
/// Taskwarrior had, although HotTask models only a few of them.
@Suite("Taskwarrior with the real task")
struct TaskwarriorCLITests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }

    private func hottask(_ args: String..., stdin: String? = nil) -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(["--file", store] + args, stdin: stdin)
    }

    /// Runs `task` on this test's own data folder and taskrc (a numeric and a string UDA).
    @discardableResult
    private func task(_ args: String..., stdin: String? = nil) -> (status: Int32, stdout: String, stderr: String) {
        let rc = folder.write(
            """
            data.location=\(folder.path("taskdata"))
            confirmation=off
            verbose=nothing
            news.version=2.6.0
            uda.estimate.type=numeric
            uda.estimate.label=Estimate
            uda.client.type=string
            uda.client.label=Client

            """, to: "taskrc")
        let run = runProcess(
            ["task", "rc:\(rc)"] + args, stdin: stdin, environment: ["TASKRC": rc, "TASKDATA": folder.path("taskdata")])
        #expect(run.status == 0, "task \(args): \(run.stdout) \(run.stderr)")
        return run
    }

    /// `task export`, by uuid: each task's fields as JSON values, without those Taskwarrior
    /// computes on export (`id`, `urgency`).
    private func exported() throws -> [String: [String: JSONValue]] {
        let text = task("export").stdout
        guard case .array(let items) = try JSONParser.parse(Array(text.utf8)) else { throw Failure("task export gave no array: \(text)") }
        var tasks: [String: [String: JSONValue]] = [:]
        for case .object(var fields) in items {
            guard case .string(let uuid)? = fields["uuid"] else { continue }
            fields["id"] = nil
            fields["urgency"] = nil
            tasks[uuid] = fields
        }
        return tasks
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A store of every kind of field: annotations, tags, project, due, each priority, UDAs, a
    /// waiting task and a completed one.
    private func fillTaskwarrior() throws {
        try requireTool("task", from: "taskwarrior")
        task("add", "Write the report", "project:work.q4", "+office", "+writing", "priority:M", "due:2026-12-01", "estimate:3", "client:ACME")
        task("add", "Call Bob", "priority:H", "+phone")
        task("add", "Tidy the desk", "priority:L")
        task("add", "Renew passport", "priority:H", "wait:2030-01-01")
        task("add", "Book flights", "project:travel")
        task("1", "annotate", "see the draft in ~/docs")
        task("1", "annotate", "and the numbers")
        task("5", "done")
    }

    @Test func aRoundTripThroughHotTaskKeepsEveryFieldTaskwarriorHad() throws {
        try fillTaskwarrior()
        let before = try exported()
        #expect(before.count == 5)
        let imported = hottask("--import", "-", stdin: task("export").stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("added 5"), "\(imported.stdout)")
        // Said once, with counts: kept aside, not lost. Annotations, tags and the project are the
        // tasks' own (the note, the tags, the tag project:NAME).
        #expect(
            imported.stderr.contains(
                "note: kept aside for an export back to Taskwarrior, as HotTask has no such field: client (1 task), estimate (1 task)\n"),
            "\(imported.stderr)")
        let report = try #require(try TaskStore(path: store).load().all.first { $0.caption == "Write the report" })
        #expect(report.note == "see the draft in ~/docs\nand the numbers")
        #expect(report.tags == ["project:work.q4", "office", "writing"])
        #expect(hottask("--edit", String(report.id.uuidString.lowercased().prefix(8)), "Write the Q4 report").status == 0)

        let export = hottask("--export", "-", "--export-format", "taskwarrior")
        #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
        task("import", "-", stdin: export.stdout)
        let after = try exported()
        #expect(Set(after.keys) == Set(before.keys))
        for (uuid, fields) in before {
            let back = try #require(after[uuid])
            var expected = fields
            if uuid == report.id.uuidString.lowercased() {
                expected["description"] = .string("Write the Q4 report")
                // Moved on to the edit's time (the same second, in a fast run).
                expected["modified"] = back["modified"]
            }
            #expect(back == expected, "\(uuid): \(fields) came back as \(back)")
        }
        // Another format cannot hold these fields: said, with counts.
        let ics = hottask("--export", folder.path("out.ics"), "--export-format", "ics")
        #expect(ics.status == 0)
        #expect(ics.stderr.contains("note: left out, as this format cannot hold them: Taskwarrior fields of 3 tasks"), "\(ics.stderr)")
    }

    @Test func aNoteAndTagsEditedHereReachTaskwarriorAndAnUnchangedLineKeepsItsTime() throws {
        try fillTaskwarrior()
        #expect(hottask("--import", "-", stdin: task("export").stdout).status == 0)
        let report = try #require(try TaskStore(path: store).load().all.first { $0.caption == "Write the report" })
        let uuid = report.id.uuidString.lowercased()
        let before = try #require(try exported()[uuid])
        guard case .array(let annotations)? = before["annotations"], case .object(let first)? = annotations.first else {
            throw Failure("no annotations: \(before)")
        }
        let edit = hottask(
            "--edit", String(uuid.prefix(8)), "--note", "see the draft in ~/docs\nand the final numbers\nask Ann", "--untag", "writing",
            "--tag", "urgent")
        #expect(edit.status == 0, "\(edit.stderr)")
        task("import", "-", stdin: hottask("--export", "-", "--export-format", "taskwarrior").stdout)
        let after = try #require(try exported()[uuid])
        guard case .array(let back)? = after["annotations"] else { throw Failure("no annotations: \(after)") }
        let descriptions = back.compactMap { item -> String? in
            if case .object(let object) = item, case .string(let text)? = object["description"] { return text }
            return nil
        }
        let entries = back.compactMap { item -> String? in
            if case .object(let object) = item, case .string(let text)? = object["entry"] { return text }
            return nil
        }
        #expect(descriptions == ["see the draft in ~/docs", "and the final numbers", "ask Ann"])
        #expect(entries.first.map { JSONValue.string($0) } == first["entry"], "the unchanged line keeps its entry time")
        #expect(Set(entries).count == 3, "each annotation a second of its own")
        #expect(after["tags"] == .array([.string("office"), .string("urgent")]))
        #expect(after["project"] == .string("work.q4"))
        // And back: the same note and tags, nothing changed.
        let again = hottask("--import", "-", stdin: task("export").stdout)
        #expect(again.status == 0, "\(again.stderr)")
        let reread = try #require(try TaskStore(path: store).load().all.first { $0.id == report.id })
        #expect(reread.note == "see the draft in ~/docs\nand the final numbers\nask Ann")
        #expect(reread.tags == ["project:work.q4", "office", "urgent"])
    }

    /// Issue 41's promise, with the real `task`: descriptions of 1,000 characters and more,
    /// line breaks, tabs, annotations and a UDA go through HotTask and back, and `task export`
    /// gives the same tasks, field for field, but for the one edited here. No `modified` moves
    /// on a task nobody edited.
    @Test func longTextLineBreaksTabsAnnotationsAndAUDAComeBackAsTheyWere() throws {
        try fillTaskwarrior()
        let long = (1...70).map { "sentence \($0) of a long description;" }.joined(separator: " ")
        #expect(long.count > 1_300)
        let uuids = (1...4).map { "c0ffee00-0000-4000-8000-00000000000\($0)" }
        let texts = [long, "Line one\nLine two\n\nLine four", "Tabbed\ttext\tin columns", "  Spaces at both ends  "]
        let added = zip(uuids, texts).map { uuid, text in
            let description = String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: []), as: UTF8.self).dropFirst().dropLast()
            return
                #"{"uuid":"\#(uuid)","description":\#(description),"status":"pending","entry":"20261101T100000Z","modified":"20261101T100000Z","estimate":2,"annotations":[{"entry":"20261102T100000Z","description":"see\tthe\nnotes"}]}"#
        }
        task("import", "-", stdin: "[" + added.joined(separator: ",\n") + "]\n")
        // Taskwarrior's own round trip moves `modified` on a task whose numeric UDA came from its
        // command line (estimate:3 is stored as "3", and comes back from JSON as 3.0) and on no
        // other: after it, a round trip through Taskwarrior alone changes nothing.
        let imported0 = task("import", "-", stdin: task("export").stdout).stdout
        #expect(
            imported0.components(separatedBy: "\n mod ").count == 2 && imported0.contains(" mod  ") && imported0.contains("Write the report"),
            "\(imported0)")
        #expect(!task("import", "-", stdin: task("export").stdout).stdout.contains(" mod "))
        let before = try exported()
        #expect(before.count == 9)
        #expect(before[uuids[0]]?["description"] == .string(long), "Taskwarrior keeps it whole")
        #expect(before[uuids[1]]?["description"] == .string(texts[1]))
        #expect(hottask("--import", "-", stdin: task("export").stdout).status == 0)
        // Shown on one line here (✎: the annotation is the note); kept whole.
        let listed = hottask("--list").stdout
        #expect(listed.contains("[ ] Line one Line two  Line four ✎\n") && listed.contains("[ ] Tabbed text in columns ✎\n"), "\(listed)")
        #expect(hottask("--edit", "c0ffee00-0000-4000-8000-000000000003", "Tabbed text, edited").status == 0)
        // Later than every stamp above: an unchanged task's `modified` would move to now.
        Thread.sleep(forTimeInterval: 1.1)
        let export = hottask("--export", "-", "--export-format", "taskwarrior")
        #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
        let imported = task("import", "-", stdin: export.stdout).stdout
        let after = try exported()
        #expect(Set(after.keys) == Set(before.keys))
        for (uuid, fields) in before {
            var expected = fields
            if uuid == uuids[2] {
                expected["description"] = .string("Tabbed text, edited")
                expected["modified"] = after[uuid]?["modified"]
            }
            #expect(after[uuid] == expected, "\(uuid): \(fields) came back as \(after[uuid].map { "\($0)" } ?? "nothing")")
        }
        // Taskwarrior itself saw one change.
        #expect(imported.components(separatedBy: "\n mod ").count == 2, "\(imported)")
    }

    /// A task deleted here goes to Taskwarrior as deleted (ended when it was deleted here); a
    /// re-import before that export says it is still there; once Taskwarrior says it is
    /// deleted, it is not written again.
    @Test func aTaskDeletedHereIsDeletedInTaskwarrior() throws {
        try fillTaskwarrior()
        #expect(hottask("--import", "-", stdin: task("export").stdout).status == 0)
        let tidy = try #require(try TaskStore(path: store).load().all.first { $0.caption == "Tidy the desk" })
        let id = tidy.id.uuidString.lowercased()
        expectRun(["--file", store, "--delete", String(id.prefix(8))], stdout: "Deleted: Tidy the desk\n")
        expectRun(
            ["--file", store, "--import", "-"], stdin: task("export").stdout,
            stdout: "Imported from Taskwarrior standard input: added 0, updated 0, unchanged 4, skipped 1\n",
            stderr: """
                hottask: note: kept aside for an export back to Taskwarrior, as HotTask has no such field: client (1 task), estimate (1 task)
                hottask: note: 1 task waiting to be shown later went to Bonus
                hottask: note: skipped 1 task deleted here that Taskwarrior still has; an export to Taskwarrior deletes it there

                """)
        task("import", "-", stdin: hottask("--export", "-", "--export-format", "taskwarrior").stdout)
        let gone = try #require(try exported()[id])
        #expect(gone["status"] == .string("deleted"))
        guard case .string(let end)? = gone["end"], let ended = Timestamp.parseTaskwarrior(end) else { throw Failure("no end: \(gone)") }
        #expect(abs(ended.timeIntervalSinceNow) < 60)
        // Taskwarrior says it is deleted: skipped, and no longer written.
        expectRun(
            ["--file", store, "--import", "-"], stdin: task("export").stdout,
            stdout: "Imported from Taskwarrior standard input: added 0, updated 0, unchanged 4, skipped 1\n",
            stderr: """
                hottask: note: kept aside for an export back to Taskwarrior, as HotTask has no such field: client (1 task), estimate (1 task)
                hottask: note: 1 task waiting to be shown later went to Bonus
                hottask: note: skipped 1 deleted task

                """)
        #expect(!hottask("--export", "-", "--export-format", "taskwarrior").stdout.contains(id))
        #expect(task("rc.verbose=nothing", "status:pending", "count").stdout == "2\n")
    }

    @Test func anEditInTaskwarriorInTheSameSecondAsOneHereIsNotOlder() throws {
        try fillTaskwarrior()
        #expect(hottask("--import", "-", stdin: task("export").stdout).status == 0)
        let bob = try #require(try TaskStore(path: store).load().all.first { $0.caption == "Call Bob" })
        let handle = String(bob.id.uuidString.lowercased().prefix(8))
        #expect(hottask("--edit", handle, "Call Bob about the roof").status == 0)
        task("import", "-", stdin: hottask("--export", "-", "--export-format", "taskwarrior").stdout)
        task(bob.id.uuidString.lowercased(), "modify", "Call Bob and Ann about the roof")
        // Taskwarrior's change stamped in the same second as HotTask's (its times are whole
        // seconds; HotTask's have milliseconds).
        let edited = try #require(try TaskStore(path: store).load().all.first { $0.id == bob.id })
        let second = Timestamp.formatCompact(Date(timeIntervalSince1970: edited.modifiedAt.timeIntervalSince1970.rounded(.down)))
        let text = try Self.settingModified(of: bob.id.uuidString.lowercased(), to: second, in: task("export").stdout)
        let run = hottask("--import", "-", stdin: text)
        #expect(run.status == 0, "\(run.stderr)")
        let after = try #require(try TaskStore(path: store).load().all.first { $0.id == bob.id })
        #expect(after.caption == "Call Bob and Ann about the roof")
    }

    /// The export with one task's `modified` replaced.
    private static func settingModified(of uuid: String, to stamp: String, in export: String) throws -> String {
        guard case .array(let items) = try JSONParser.parse(Array(export.utf8)) else { throw Failure("not an array") }
        var lines: [String] = []
        for case .object(var fields) in items {
            if case .string(uuid)? = fields["uuid"] { fields["modified"] = .string(stamp) }
            let data = try JSONSerialization.data(withJSONObject: fields.mapValues(Self.foundation), options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    private static func foundation(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): flag
        case .number(let number): number
        case .string(let text): text
        case .array(let items): items.map(foundation)
        case .object(let object): object.mapValues(foundation)
        }
    }

    @Test func hotTasksOwnExportGoesThroughWithNothingCarried() throws {
        #expect(hottask("--add", "Call mom", "--add", "Buy milk").status == 0)
        let export = hottask("--export", "-", "--export-format", "taskwarrior").stdout
        let other = runHotTask(["--file", folder.path("other.json"), "--import", "-"], stdin: export)
        #expect(other.status == 0 && other.stderr.isEmpty, "\(other.stderr)")
        // Nothing to carry: the side file only says that Taskwarrior has these tasks (so that a
        // delete here reaches it).
        let ids = try TaskStore(path: folder.path("other.json")).load().all.map { $0.id.uuidString.lowercased() }
        #expect(Set((fileText(folder.path("other.json.carried")) ?? "").split(separator: "\n").map(String.init)) == Set(ids.map { $0 + " t" }))
    }

    /// Taskwarrior keeps a due time as its instant in UTC. A round trip through `task` that
    /// changes nothing changes nothing here: a time in a named zone keeps its zone, a floating
    /// time stays floating, a day stays a day, and the import says so ("unchanged"), steps
    /// 1.1 s apart as a person goes.
    @Test func aDueTimeInAZoneComesBackFromTaskwarriorAsItWas() throws {
        let berlin = ["TZ": "Europe/Berlin"]
        for caption in ["Call Mum due:2026-12-04 09:30 +home", "Dinner due:2026-12-05 18:00", "Pay rent due:2026-12-15"] {
            #expect(runHotTask(["--file", store, "--add", caption], environment: berlin).status == 0)
        }
        let floating =
            #"{"version": 2, "tasks": [{"id": "0e6b2a52-5d1a-4d57-9a61-6c1b1d4f0a01", "caption": "Call the plumber", "#
            + #""section": "priority", "completed": false, "createdAt": "2026-11-20T08:00:00Z", "completedAt": null, "#
            + #""modifiedAt": "2026-11-20T08:00:00Z", "due": "2026-12-07T08:15:00"}]}"#
        #expect(runHotTask(["--file", store, "--import", "-"], stdin: floating, environment: berlin).status == 0)
        func dues() throws -> [String] {
            try TaskStore(path: store).load().all.map { "\($0.caption): \(DueDate.baseKey($0.due))" }.sorted()
        }
        let before = try dues()
        #expect(
            before == [
                "Call Mum: 2026-12-04T09:30:00+01:00 Europe/Berlin", "Call the plumber: 2026-12-07T08:15:00",
                "Dinner: 2026-12-05T18:00:00+01:00 Europe/Berlin", "Pay rent: 2026-12-15",
            ])
        Thread.sleep(forTimeInterval: 1.1)
        let export = runHotTask(["--file", store, "--export", "-", "--export-format", "taskwarrior"], environment: berlin).stdout
        task("import", "-", stdin: export)
        Thread.sleep(forTimeInterval: 1.1)
        let imported = runHotTask(["--file", store, "--import", "-"], stdin: task("export").stdout, environment: berlin)
        #expect(imported.stdout == "Imported from Taskwarrior standard input: added 0, updated 0, unchanged 4, skipped 0\n", "\(imported.stderr)")
        #expect(try dues() == before)
        // A due time moved there is moved here, and takes Taskwarrior's instant.
        Thread.sleep(forTimeInterval: 1.1)
        let uuid = try #require(try TaskStore(path: store).load().all.first { $0.caption == "Dinner" }).id.uuidString.lowercased()
        task(uuid, "modify", "due:2026-12-05T19:00:00Z")
        Thread.sleep(forTimeInterval: 1.1)
        let moved = runHotTask(["--file", store, "--import", "-"], stdin: task("export").stdout, environment: berlin)
        #expect(moved.stdout == "Imported from Taskwarrior standard input: added 0, updated 1, unchanged 3, skipped 0\n", "\(moved.stderr)")
        #expect(try dues().contains("Dinner: 2026-12-05T19:00:00Z"))
    }

    // MARK: recur (issue 40)

    /// The tasks HotTask has, as `--list --json` gives them: caption, due and rule each.
    private func repeating() throws -> [String] {
        let text = hottask("--list", "--json").stdout
        guard case .object(let root) = try JSONParser.parse(Array(text.utf8)), case .array(let tasks)? = root["tasks"] else {
            throw Failure("no tasks in \(text)")
        }
        return tasks.compactMap { item in
            guard case .object(let task) = item, case .string(let caption)? = task["caption"] else { return nil }
            let due: String = if case .string(let due)? = task["due"] { due } else { "-" }
            let rule: String = if case .string(let rule)? = task["repeat"] { rule } else { "-" }
            return "\(caption) \(due) \(rule)"
        }
    }

    private static func day(_ offset: Int) -> String {
        DueDate.day(DueDisplay(now: Date(), local: .current).today + offset)!.dayText
    }

    private func statuses(_ tasks: [String: [String: JSONValue]]) -> [String] {
        tasks.values.compactMap { fields -> String? in
            guard case .string(let status)? = fields["status"] else { return nil }
            let due: String = if case .string(let due)? = fields["due"] { String(due.prefix(8)) } else { "-" }
            return status + " " + due
        }.sorted()
    }

    /// Must show: a `recur:weekly` task comes in as one repeating task (no template, no
    /// duplicates) and goes back without losing the recurrence; an untouched round trip leaves
    /// `task export` as it was; done here, that occurrence is done there and the next pending.
    @Test func aWeeklyRecurrenceImportsAsOneRepeatingTaskAndGoesBack() throws {
        try requireTool("task", from: "taskwarrior")
        let start = Self.day(-14)
        task("add", "Water plants", "due:\(start)", "recur:weekly")
        let before = try exported()
        // The template and an occurrence for each week up to the first one after today.
        #expect(before.count >= 4, "\(before)")
        let imported = hottask("--import", "-", stdin: task("export").stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported from Taskwarrior standard input: added 1, updated 0, unchanged 0, skipped \(before.count - 1)"))
        #expect(imported.stderr.contains("1 recurring task became a repeating task"), "\(imported.stderr)")
        #expect(try repeating() == ["Water plants \(start) FREQ=WEEKLY"])

        // Untouched, there and back: Taskwarrior's tasks are exactly as they were.
        task("import", "-", stdin: hottask("--export", "-", "--export-format", "taskwarrior").stdout)
        #expect(try exported() == before)
        #expect(hottask("--import", "-", stdin: task("export").stdout).stdout.contains("added 0, updated 0, unchanged 1"))
        #expect(try repeating() == ["Water plants \(start) FREQ=WEEKLY"])

        // Done here: that occurrence is done there, the next one pending, the series the same.
        #expect(hottask("--done", "1").status == 0)
        task("import", "-", stdin: hottask("--export", "-", "--export-format", "taskwarrior").stdout)
        let after = try exported()
        #expect(after.count == before.count, "no occurrence made twice")
        let compact = start.replacingOccurrences(of: "-", with: "")
        #expect(statuses(after).filter { $0.hasPrefix("completed") } == ["completed \(compact)"])
        #expect(statuses(after).filter { $0.hasPrefix("recurring") } == ["recurring \(compact)"])
        #expect(task("+PENDING", "count").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(before.count - 2))
        #expect(hottask("--import", "-", stdin: task("export").stdout).status == 0)
        #expect(try repeating() == ["Water plants \(Self.day(-7)) FREQ=WEEKLY"])
    }

    /// A task made repeating here becomes a template with its one pending occurrence there,
    /// and comes back as the same one task; a rule Taskwarrior has no recur for stays a plain
    /// task there and keeps its rule here.
    @Test func aRepeatingTaskMadeHereIsATemplateThereWithOneOccurrence() throws {
        try requireTool("task", from: "taskwarrior")
        // A day the 1st to the 28th: a monthly on the 29th to 31st has no recur (Taskwarrior moves it).
        let due = (10..<20).map(Self.day).first { Int($0.suffix(2))! <= 28 }!
        #expect(hottask("--add", "Pay rent", "--due", due, "--repeat", "monthly").status == 0)
        // Due on a Monday or Thursday: a series starts on one of its days (issue 52).
        let gymDue = (10..<20).map { DueDisplay(now: Date(), local: .current).today + $0 }.first { [1, 4].contains(DateWords.weekday(ofDay: $0)) }
            .flatMap(DueDate.day)!.dayText
        #expect(hottask("--add", "Gym", "--due", gymDue, "--repeat", "every mon,thu").status == 0)
        task("import", "-", stdin: hottask("--export", "-", "--export-format", "taskwarrior").stdout)
        let compact = due.replacingOccurrences(of: "-", with: "")
        let gymCompact = gymDue.replacingOccurrences(of: "-", with: "")
        #expect(statuses(try exported()) == ["pending \(compact)", "pending \(gymCompact)", "recurring \(compact)"].sorted())
        #expect(task("+PENDING", "count").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        let back = hottask("--import", "-", stdin: task("export").stdout)
        #expect(back.stdout.contains("added 0, updated 0, unchanged 2"), "\(back.stdout) \(back.stderr)")
        #expect(Set(try repeating()) == ["Pay rent \(due) FREQ=MONTHLY", "Gym \(gymDue) FREQ=WEEKLY;BYDAY=MO,TH"])
        // Again: nothing new there.
        let again = try exported()
        task("import", "-", stdin: hottask("--export", "-", "--export-format", "taskwarrior").stdout)
        #expect(try exported() == again)
    }
}
