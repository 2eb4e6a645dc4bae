import Foundation
import TestSupport
import Testing

/// `--undo` is a stack: it takes back the newest change it still can, and when that one cannot
/// be taken back it says so and changes nothing. It never skips to an older change.
@Suite struct UndoStackTests {
    /// An import of 4,000 tasks (1.4 MB) is too large to keep for undo: compaction folds it into the
    /// snapshot as it commits. One change after it is taken back; the next `--undo` must refuse
    /// (the import is the newest change left), never take back the add before the import.
    @Test func afterAFoldedImportAndOneChangeTheSecondUndoRefusesAndNeverTakesAnOlderChange() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "a1"]).status == 0)
        #expect(runHotTask(["--file", folder.storePath, "--add", "a2"]).status == 0)
        let lines = (1...4000).map { "Imported task number \($0), long enough that 4,000 of them make a record too large for the log" }
        let file = folder.write(lines.joined(separator: "\n") + "\n", to: "many.txt")
        expectRun(
            ["--file", folder.storePath, "--import", file],
            stdout: "Imported from todo.txt \(folder.path)/many.txt: added 4000, updated 0, unchanged 0, skipped 0\n")
        #expect(runHotTask(["--file", folder.storePath, "--add", "a3"]).status == 0)
        expectRun(["--file", folder.storePath, "--undo"], stdout: "Undone: Added to Top Priority: a3\n")
        let files = { folder.contents().filter { !$0.hasSuffix(".lock") }.sorted().map { fileBytes(folder.path($0)) } }
        let before = files()
        expectRun(
            ["--file", folder.storePath, "--undo"],
            stderr:
                "hottask: cannot undo 'Added to Top Priority: a2': changes made up to [..] were folded into the snapshot without being kept for undo (too large, or past the last 100), and one of them is newer, so undoing this would skip it. Nothing was changed\n",
            status: 1)
        // Compared as a yes or no: a failure must not print megabytes of bytes.
        let unchanged = files() == before
        #expect(unchanged, "nothing was changed")
        let kept = storedCaptions(folder)
        #expect(kept.count == 4002 && kept.contains("a1") && kept.contains("a2") && !kept.contains("a3"))
    }
}

/// The captions of every task in the store, sorted, read from `--list --json`.
func storedCaptions(_ folder: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    let run = runHotTask(["--file", folder.storePath, "--list", "--json"])
    #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    return ((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any])
        .flatMap { $0["tasks"] as? [[String: Any]] }?.compactMap { $0["caption"] as? String }.sorted() ?? []
}

/// What a person types is read by one rule, in `--add`, `--edit` and the app's input row.
@Suite struct TypedTextTests {
    @Test func aTypedDueWordGivesTheDateDueGivesAndTheCaptionLosesIt() throws {
        let folder = TemporaryFolder()
        let environment = ["TZ": "Europe/Berlin"]
        let typed = runHotTask(["--file", folder.storePath, "--add", "Call the plumber due:fri", "--json"], environment: environment)
        let flag = runHotTask(["--file", folder.storePath, "--add", "Call the plumber", "--due", "fri", "--json"], environment: environment)
        #expect(typed.status == 0 && flag.status == 0)
        let added = { (run: (status: Int32, stdout: String, stderr: String)) -> [String?] in
            let tasks = ((try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any])?["tasks"] as? [[String: Any]]
            return [tasks?.first?["caption"] as? String, tasks?.first?["due"] as? String]
        }
        #expect(added(typed) == added(flag))
        #expect(added(typed).first == "Call the plumber")
        #expect(added(typed).last??.isEmpty == false, "\(typed.stdout)")
    }

    @Test func aTypedContextIsATagTheFilterFindsAndAMinusTagFilterIsAValue() throws {
        let folder = TemporaryFolder()
        expectRun(
            ["--file", folder.storePath, "--add", "Call mum @phone"], stdout: "Added to Top Priority: Call mum @phone\n")
        expectRun(["--file", folder.storePath, "--add", "Write report +work"], stdout: "Added to Top Priority: Write report +work\n")
        expectRun(["--file", folder.storePath, "--add", "Mail bob@example.com"], stdout: "Added to Top Priority: Mail bob@example.com\n")
        expectRun(
            ["--file", folder.storePath, "--list", "--filter", "@phone"],
            stdout: "Get started - 3 to go!\n\nTop Priority (1 of 3)\n  3. [ ] Call mum @phone\nBonus (0)\n  (none)\n")
        expectRun(
            ["--file", folder.storePath, "--list", "--filter", "-work"],
            stdout: "Get started - 3 to go!\n\nTop Priority (2 of 3)\n  1. [ ] Mail bob@example.com\n  3. [ ] Call mum @phone\nBonus (0)\n  (none)\n")
    }
}
