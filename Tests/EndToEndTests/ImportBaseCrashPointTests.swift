import Foundation
import TestSupport
import Testing

/// An import killed before each of its file system calls leaves its bases agreeing with the
/// store (issue 51): the bases are committed inside the import's own commit. Bases a step
/// behind the store showed only later: a task edited here was overwritten by a re-import of a
/// file that had not changed since the import the store holds.
@Suite("An import killed before each file system call")
struct ImportBaseCrashPointTests {
    static let taskID = "c0000001-0000-4000-8000-000000000001"

    /// The file as first imported, and as changed there later (its date in the future, so that
    /// only the base can tell that it has not changed since).
    /// A store with a task of its own and one imported, and the same file changed since, whose
    /// import the tests cut short.
    static func storeWithAnImport() -> (seed: TemporaryFolder, changed: String) {
        let seed = TemporaryFolder()
        let first = seed.write(document(caption: "Imported one", modified: "2026-11-20T10:00:00Z"), to: "first.json")
        let changed = seed.write(document(caption: "Changed there", modified: "2030-01-01T10:00:00Z"), to: "changed.json")
        #expect(runHotTask(["--file", seed.storePath, "--add", "Task A"]).status == 0)
        #expect(runHotTask(["--file", seed.storePath, "--import", first]).status == 0)
        return (seed, changed)
    }

    static func document(caption: String, modified: String) -> String {
        """
        {"version": 2, "tasks": [
          {"id": "\(taskID)", "caption": "\(caption)", "section": "priority",
           "completed": false, "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "\(modified)"}
        ]}
        """
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var environment: [String: String] = [:]
        /// Killed before the call, or only failed with EIO (the command goes on, or says so).
        var killed = true
        var testDescription: String {
            (environment.isEmpty ? "appended" : "folded as committed") + (killed ? ", killed" : ", the call failing with EIO")
        }
    }

    /// The import's record appended to the log, and folded into a new snapshot as it is
    /// committed (a log limit of one); killed, or the call failing: a commit reported failed
    /// may still have committed, and its bases must then follow.
    @Test(arguments: [Case(), Case(environment: ["HOTTASK_LOG_LIMIT": "1"]), Case(killed: false)])
    func theBasesAgreeWithTheStoreAfterEveryKill(_ kind: Case) throws {
        let environment = kind.environment
        try requireTool("strace", from: "strace")
        let (seed, changed) = Self.storeWithAnImport()
        let command = ["--import", changed]

        // What a person's next steps give on the store before the import and after it.
        let expected = try [
            "Imported one": finalCaption(after: copy(of: seed), changed: changed),
            "Changed there": finalCaption(after: clean(command, on: seed, environment: environment).store, changed: changed),
        ]
        #expect(expected == ["Imported one": "Changed there", "Changed there": "Edited here"])

        let clean = try clean(command, on: seed, environment: environment)
        let points = try CrashPointTests.killPoints(in: fileText(clean.trace) ?? "", after: clean.folder.path)
        #expect(points.contains { $0.call == "rename" }, "the clean run renamed nothing")
        #expect(points.count >= 5, "only \(points.count) points found")
        var seenAfter = 0
        for point in points {
            let run = try copy(of: seed)
            let killed = runProcess(
                [
                    "strace", "-qq", "-o", "/dev/null", "-e", "trace=\(point.call)",
                    "-e", "inject=\(point.call):error=EIO\(kind.killed ? ":signal=SIGKILL" : ""):when=\(point.ordinal)",
                    HotTaskBinary.url.path, "--file", run.storePath,
                ] + command, environment: environment)
            let label = "\(kind.killed ? "killed before" : "EIO from") \(point.call) #\(point.ordinal)"
            guard !kind.killed || killed.status == 128 + SIGKILL else {
                Issue.record("\(label): not killed (exit \(killed.status))")
                continue
            }
            let seen = try caption(in: run.storePath)
            guard let final = expected[seen] else {
                Issue.record("\(label): the task reads \(seen), which no command made")
                continue
            }
            if seen == "Changed there" { seenAfter += 1 }
            #expect(try finalCaption(after: run, changed: changed) == final, "\(label): the store read \(seen)")
        }
        // Points after the commit are among them: the case the bases once lost.
        #expect(seenAfter >= 2, "only \(seenAfter) points came after the commit")
    }

    /// A person's next steps: an edit here, then the same file imported again. The caption then.
    func finalCaption(after run: (folder: TemporaryFolder, storePath: String), changed: String) throws -> String {
        #expect(runHotTask(["--file", run.storePath, "--edit", Self.taskID, "Edited here"]).status == 0)
        let again = runHotTask(["--file", run.storePath, "--import", changed])
        #expect(again.status == 0, "the import again failed: \(again.stderr)")
        return try caption(in: run.storePath)
    }

    func caption(in store: String) throws -> String {
        let listed = runHotTask(["--file", store, "--list", "--json"])
        try #require(listed.status == 0, "--list --json failed: \(listed.stderr)")
        let tasks = try CrashPointTests.Seed.tasks(in: listed.stdout).filter { $0["id"] as? String == Self.taskID }
        try #require(tasks.count == 1, "the task is there \(tasks.count) times")
        return tasks[0]["caption"] as? String ?? ""
    }

    /// The command run once under strace on a copy of the seed.
    func clean(_ command: [String], on seed: TemporaryFolder, environment: [String: String]) throws -> (
        folder: TemporaryFolder, store: (folder: TemporaryFolder, storePath: String), trace: String
    ) {
        let run = try copy(of: seed)
        let trace = run.folder.path("trace")
        let traced = runProcess(
            ["strace", "-qq", "-s", "0", "-o", trace, HotTaskBinary.url.path, "--file", run.storePath] + command, environment: environment)
        try #require(traced.status == 0, "the clean run failed: \(traced.stderr)")
        return (run.folder, run, trace)
    }

    /// A fresh folder holding the seed store's files, and a task added to it: a copied snapshot
    /// is not the one its log was started for, so the first commit on a copy folds the log, and
    /// the import would never be appended to it.
    func copy(of seed: TemporaryFolder) throws -> (folder: TemporaryFolder, storePath: String) {
        let copy = TemporaryFolder()
        for name in seed.contents() where name.hasPrefix("tasks.json") {
            try FileManager.default.copyItem(atPath: seed.path(name), toPath: copy.path(name))
        }
        #expect(runHotTask(["--file", copy.storePath, "--add", "Filler"]).status == 0)
        return (copy, copy.storePath)
    }
}
