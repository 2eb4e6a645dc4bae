import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// HotTask beside the real todo.sh at a person's pace (issue 52): every step in a later second
/// than the one before, as someone typing, and some on later days. libfaketime puts each step
/// at its own time without waiting: several of these defects showed only when two commands
/// fell in different seconds.
@Suite("todo.txt with the real todo.sh, a step a second")
struct TodoTxtPersonPaceTests {
    let folder = TemporaryFolder()
    /// The steps' clock: each one 2 seconds after the last, from 2026-11-29 10:00:00 UTC.
    let clock = StepClock()

    init() throws {
        try requireTool("todo-txt", from: "todotxt-cli")
        try requireTool("faketime", from: "faketime")
    }

    private var store: String { folder.storePath }
    private var todoFile: String { folder.path("todo.txt") }
    private var doneFile: String { folder.path("done.txt") }
    private var imported: String { "Imported from todo.txt \(todoFile) and its archive \(doneFile): " }

    /// hottask at the next step's time, its whole output stated.
    @discardableResult
    private func hottask(
        _ args: String..., stdout: String = "", stderr: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) -> HotTaskRun {
        expectRun(
            ["--file", store] + args, environment: ["TZ": "UTC"], prefix: ["faketime", clock.next()], stdout: stdout, stderr: stderr,
            sourceLocation: sourceLocation)
    }

    /// todo.sh on this test's todo.txt at the next step's time, auto-archive on or off.
    @discardableResult
    private func todo(_ args: String..., autoArchive: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let config = folder.write(
            """
            export TODO_DIR=\(folder.path)
            export TODO_FILE=\(todoFile)
            export DONE_FILE=\(doneFile)
            export REPORT_FILE=\(folder.path("report.txt"))
            export TODOTXT_AUTO_ARCHIVE=\(autoArchive ? 1 : 0)

            """, to: "todo.cfg")
        let run = runProcess(
            ["faketime", clock.next(), "todo-txt", "-d", config, "-f", "-p"] + args, environment: ["TZ": "UTC"],
            sourceLocation: sourceLocation)
        #expect(run.status == 0, "todo.sh \(args): \(run.stdout) \(run.stderr)", sourceLocation: sourceLocation)
        return run.stdout
    }

    private func task(_ caption: String) throws -> TaskItem {
        try #require(try TaskStore(path: store).load().all.first { $0.caption == caption })
    }

    private func shortID(_ caption: String) throws -> String { String(try task(caption).id.uuidString.lowercased().prefix(8)) }

    // MARK: Item 1: a note made here

    /// A note made here survives exporting to todo.txt and importing it back, whether todo.sh
    /// changed the line in between (`append`, `do`) or not: the file never had the note, so its
    /// import never deletes it.
    @Test(arguments: [nil, "append", "do"])
    func aNoteMadeHereSurvivesTheFilesImport(todoSh: String?) throws {
        hottask("--add", "Call mom", "--bonus", stdout: "Added to Bonus: Call mom\n")
        let mom = try shortID("Call mom")
        hottask("--edit", mom, "--note", "Her new number: 555-0100", stdout: "Note added: Call mom\n")
        let leftOut = "hottask: note: left out, as this format cannot hold them: notes of 1 task\n"
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 1 tasks to \(todoFile)\n", stderr: leftOut)
        #expect(fileText(todoFile) == "2026-11-29 Call mom id:\(mom)\n")
        switch todoSh {
        case "append"?: todo("append", "1", "tonight")
        case "do"?: todo("do", "1")
        default: break
        }
        let caption = todoSh == "append" ? "Call mom tonight" : "Call mom"
        // todo.sh makes done.txt, which the import then reads too.
        let source = todoSh == nil ? "Imported from todo.txt \(todoFile): " : imported
        hottask("--import", todoFile, stdout: source + "added 0, updated \(todoSh == nil ? 0 : 1), unchanged \(todoSh == nil ? 1 : 0), skipped 0\n")
        #expect(try task(caption).note == "Her new number: 555-0100")
        #expect(try task(caption).completed == (todoSh == "do"))
        // Another round trip, and the file imported once more: still there.
        let archived = todoSh == "do" ? " (1 done one left in its archive done.txt)" : ""
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 1 tasks to \(todoFile)\(archived)\n", stderr: leftOut)
        hottask("--import", todoFile, stdout: source + "added 0, updated 0, unchanged 1, skipped 0\n")
        #expect(try task(caption).note == "Her new number: 555-0100")
    }

    // MARK: Item 7: words where they stood

    /// Lines with `+project`, `@context`, `due:` and `rec:` mid-sentence come back as they came
    /// (with HotTask's `id:` tag at the end), however often they go round; a line edited here is
    /// written as HotTask writes it.
    @Test func anUntouchedLineComesBackWithItsWordsWhereTheyStood() throws {
        let written = [
            "Plan +garden party @home with +family", "Call +mum @phone about the trip", "due:2030-12-01 Pay +home rent rec:+1m",
            "(B) Fix +bike @garage", "Read a book",
        ]
        for line in written { todo("add", line) }
        hottask("--import", todoFile, stdout: imported + "added 5, updated 0, unchanged 0, skipped 0\n")
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 5 tasks to \(todoFile)\n")
        let first = fileText(todoFile) ?? ""
        let expected = written.map { $0 + " id:[..]\n" }.joined()
        #expect(OutputPattern.difference(expected, first).isEmpty, "\(first)")
        for _ in 0..<2 {
            hottask("--import", todoFile, stdout: imported + "added 0, updated 0, unchanged 5, skipped 0\n")
            hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 5 tasks to \(todoFile)\n")
            #expect(fileText(todoFile) == first, "byte for byte")
        }
        #expect(try task("Plan party with").tags == ["garden", "@home", "family"])
        // Edited here, the line is written as HotTask writes one: caption, then tags.
        hottask("--edit", try shortID("Plan party with"), "Plan a party with", stdout: "Edited: Plan party with → Plan a party with\n")
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 5 tasks to \(todoFile)\n")
        #expect((fileText(todoFile) ?? "").hasPrefix("Plan a party with +garden @home +family id:"), "\(fileText(todoFile) ?? "")")
        #expect(todo("list", "+garden").contains("Plan a party with +garden @home +family"))
    }

    // MARK: Item 10: a rec: line without due:

    /// A repeating line without `due:` gains none on export, that day or the next; done here,
    /// its next due date is written.
    @Test func aRepeatingLineWithoutDueGainsNone() throws {
        todo("add", "Stretch rec:1d")
        todo("add", "Water plants +home rec:+1w")
        hottask("--import", todoFile, stdout: imported + "added 2, updated 0, unchanged 0, skipped 0\n")
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 2 tasks to \(todoFile)\n")
        let first = fileText(todoFile) ?? ""
        #expect(OutputPattern.difference("Stretch rec:1d id:[..]\nWater plants +home rec:+1w id:[..]\n", first).isEmpty, "\(first)")
        // The next day: imported and exported again, nothing changes.
        clock.skip(days: 1)
        hottask("--import", todoFile, stdout: imported + "added 0, updated 0, unchanged 2, skipped 0\n")
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 2 tasks to \(todoFile)\n")
        #expect(fileText(todoFile) == first, "an untouched line changed")
        #expect(try task("Stretch").due == DueDate(text: "2026-11-29"))
        // Done here on the 30th: due the day after, and the line says so.
        hottask("--done", try shortID("Stretch"), stdout: "Completed: Stretch (repeats daily after done; next: [..])\n")
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 2 tasks to \(todoFile)\n")
        // The occurrence done here leaves its done line (the day it was due), as todo.sh's do does.
        let stretch = try shortID("Stretch")
        #expect(
            (fileText(todoFile) ?? "").hasPrefix(
                "x 2026-11-30 Stretch due:2026-11-29 rec:1d id:\(stretch)\nStretch due:2026-12-01 rec:1d id:\(stretch)\n"),
            "\(fileText(todoFile) ?? "")")
    }

    // MARK: Items 3 and 8: todo.sh's do on a rec: line, again and again

    /// Completions alternate: todo.sh's `do` twice in a row, then here, then a stale line done
    /// in todo.sh after HotTask completed that occurrence. Each `do` moves the task on by one
    /// occurrence (never back, never twice for one occurrence), and every `do` leaves its done
    /// line: in done.txt, or without auto-archive in todo.txt until `todo.sh archive`.
    @Test(arguments: [true, false])
    func eachDoOfARepeatingLineCountsOnce(autoArchive: Bool) throws {
        todo("add", "Pay rent due:2030-12-01 rec:+1m", autoArchive: autoArchive)
        hottask("--import", todoFile, stdout: imported + "added 1, updated 0, unchanged 0, skipped 0\n")
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 1 tasks to \(todoFile)\n")
        let rent = try shortID("Pay rent")
        var doneLines: [String] = []
        for (round, due) in ["2030-12-01", "2031-01-01"].enumerated() {
            todo("do", autoArchive ? "1" : String(round + 1), autoArchive: autoArchive)
            doneLines.append("x 2026-11-29 Pay rent due:\(due) rec:+1m id:\(rent)")
            hottask("--import", todoFile, stdout: imported + "added 0, updated 1, unchanged 0, skipped 0\n")
            hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 1 tasks to \(todoFile)\n")
        }
        #expect(try task("Pay rent").due == DueDate(text: "2031-02-01"))
        let open = "Pay rent due:2031-02-01 rec:+1m id:\(rent)"
        #expect(fileText(todoFile) == (autoArchive ? [open] : doneLines + [open]).map { $0 + "\n" }.joined())
        #expect((fileText(doneFile) ?? "") == (autoArchive ? doneLines.map { $0 + "\n" }.joined() : ""))
        // Done here, then todo.sh's do on the line it still shows (the same occurrence): once.
        hottask("--done", rent, stdout: "Completed: Pay rent (repeats monthly; next: Sat 1 Mar 2031)\n")
        todo("do", autoArchive ? "1" : "3", autoArchive: autoArchive)
        hottask("--import", todoFile, stdout: imported + "added 0, updated 0, unchanged 1, skipped 0\n")
        #expect(try task("Pay rent").due == DueDate(text: "2031-03-01"), "not back to February, nor on to April")
        hottask("--export", todoFile, "--export-format", "todotxt", stdout: "Exported 1 tasks to \(todoFile)\n")
        todo("archive", autoArchive: autoArchive)
        #expect(fileText(todoFile) == "Pay rent due:2031-03-01 rec:+1m id:\(rent)\n")
        #expect(todo("listall", autoArchive: autoArchive).hasSuffix("TODO: 1 of 1 tasks shown\nDONE: 3 of 3 tasks shown\ntotal 4 of 4 tasks shown\n"))
        hottask("--import", todoFile, stdout: imported + "added 0, updated 0, unchanged 1, skipped 0\n")
    }
}

/// The steps' times for `faketime`: each 2 seconds after the last, so that no two steps share
/// a second, and a later day when a test moves on.
final class StepClock: @unchecked Sendable {
    private var seconds = 0
    private let start = Date(timeIntervalSince1970: 1_795_946_400)  // 2026-11-29T10:00:00Z

    /// The next step's time, as faketime reads it (`2026-11-29 10:00:02`, in UTC).
    func next() -> String {
        seconds += 2
        return String(Timestamp.format(start.addingTimeInterval(TimeInterval(seconds))).prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    func skip(days: Int) { seconds += days * 86_400 }
}
