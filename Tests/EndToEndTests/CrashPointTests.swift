import Foundation
import TestSupport
import Testing

/// Crash safety proven point by point, not at random moments: each command is run once under
/// strace to list its system calls, then again once per call that can change the disk, killed
/// with SIGKILL just before that call. Every time, what a reader sees afterwards must be the
/// store as it was before the command or as the command leaves it, never a mix; and the next
/// command must work on it.
///
/// A kill before a call that only reads (read, stat, getdents) leaves the disk exactly as a kill
/// before the next changing call does, so those points are covered without being run.
@Suite("Killed before each file system call")
struct CrashPointTests {
    /// The calls a kill is placed before.
    static let changingCalls: Set<String> = [
        "openat", "open", "creat", "write", "pwrite64", "writev", "fsync", "fdatasync", "sync_file_range",
        "rename", "renameat", "renameat2", "unlink", "unlinkat", "ftruncate", "truncate", "close", "link",
        "linkat", "symlink", "symlinkat", "flock", "fcntl", "mkdir", "mkdirat", "fchmod", "fchown", "exit_group",
    ]

    struct Command: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: @Sendable (Seed) -> [String]
        var environment: [String: String] = [:]
        /// A call the clean run must make, proving the case covers what its name says.
        var mustCall: String? = nil
        var testDescription: String { name }
    }

    static let commands: [Command] = [
        Command(name: "--add", arguments: { _ in ["--add", "New task"] }),
        Command(
            name: "--done and --delete by id (the deleted task only in the log)",
            arguments: { seed in
                ["--done", seed.id("Task A"), "--delete", seed.id("Recent X")]
            }),
        Command(name: "--done and --delete by number", arguments: { _ in ["--done", "3", "--delete", "1"] }),
        Command(name: "--move by id", arguments: { seed in ["--move", seed.id("Task B")] }),
        Command(name: "--edit", arguments: { _ in ["--edit", "2", "Renamed task"] }),
        Command(name: "--undo", arguments: { _ in ["--undo"] }),
        Command(name: "--import", arguments: { seed in ["--import", seed.importPath] }),
        Command(name: "--import --replace", arguments: { seed in ["--import", seed.importPath, "--replace"] }, mustCall: "rename"),
        Command(
            name: "--done that folds the log into a new snapshot", arguments: { seed in ["--done", seed.id("Task C")] },
            environment: ["HOTTASK_LOG_LIMIT": "1"], mustCall: "rename"),
    ]

    @Test(arguments: commands)
    func everyKillLeavesTheOldOrTheNewStore(_ command: Command) throws {
        try requireTool("strace", from: "strace")
        let seed = try Seed()
        let arguments = command.arguments(seed)
        let (before, after, points) = try Self.cleanRun(command, on: seed)
        if let call = command.mustCall { #expect(points.contains { $0.call == call }, "the clean run made no \(call) call") }
        #expect(points.count >= 5, "only \(points.count) points found")

        var killedBefore: [String: Int] = [:]
        for point in points {
            let run = try seed.copy()
            let killed = runProcess(
                [
                    "strace", "-qq", "-o", "/dev/null", "-e", "trace=\(point.call)",
                    "-e", "inject=\(point.call):error=EIO:signal=SIGKILL:when=\(point.ordinal)",
                    HotTaskBinary.url.path, "--file", run.storePath,
                ] + arguments,
                environment: command.environment)
            let label = "killed before \(point.call) #\(point.ordinal)"
            guard killed.status == 128 + SIGKILL else {
                Issue.record("\(label): not killed (exit \(killed.status)); the run did not repeat the clean run's calls")
                continue
            }
            killedBefore[point.call, default: 0] += 1
            let seen = try seed.projection(of: run.storePath, label: label)
            #expect(seen == before || seen == after, "\(label): a state no command made:\n\(seen)")
            // The next command works on what the kill left, and keeps it.
            let next = runHotTask(["--file", run.storePath, "--add", "After the crash"])
            #expect(next.status == 0, "\(label): the next command failed: \(next.stderr)")
            let afterNext = try seed.projection(of: run.storePath, label: label).filter { $0.caption != "After the crash" }
            #expect(afterNext == seen, "\(label): the next command changed the recovered store")
        }
        #expect(killedBefore.values.reduce(0, +) == points.count)
    }

    /// The command run once under strace on a copy of the seed: the store before and after it,
    /// and the changing calls it made (see `killPoints`).
    static func cleanRun(_ command: Command, on seed: Seed) throws -> (before: [Shown], after: [Shown], points: [(call: String, ordinal: Int)]) {
        let clean = try seed.copy()
        let tracePath = clean.folder.path("trace")
        let traced = runProcess(
            ["strace", "-qq", "-s", "0", "-o", tracePath] + [HotTaskBinary.url.path, "--file", clean.storePath] + command.arguments(seed),
            environment: command.environment)
        try #require(traced.status == 0, "the clean run failed: \(traced.stderr)")
        let before = try seed.projection(of: seed.folder.storePath)
        let after = try seed.projection(of: clean.storePath)
        #expect(before != after, "the command changed nothing")
        return (before, after, try killPoints(in: fileText(tracePath) ?? "", after: clean.folder.path))
    }

    /// The changing calls after the command first touches the store's folder, each named by
    /// its call and its ordinal among all calls of that name (what strace's `when=` counts).
    static func killPoints(in trace: String, after folder: String) throws -> [(call: String, ordinal: Int)] {
        var ordinals: [String: Int] = [:]
        var reachedStore = false
        var points: [(call: String, ordinal: Int)] = []
        for line in trace.split(separator: "\n") {
            guard let paren = line.firstIndex(of: "("), line.first?.isLetter == true else { continue }
            let call = String(line[..<paren])
            ordinals[call, default: 0] += 1
            if !reachedStore && line.contains(folder) { reachedStore = true }
            if reachedStore && changingCalls.contains(call) { points.append((call, ordinals[call]!)) }
        }
        try #require(reachedStore, "the trace never names the store's folder")
        return points
    }

    /// A store with tasks in its snapshot and in its log, built by the real binary, and an
    /// import file; each run gets its own copy.
    struct Seed {
        let folder = TemporaryFolder()
        let importPath: String
        private var ids: [String: String] = [:]

        init() throws {
            let store = folder.storePath
            for caption in ["Task A", "Task B", "Task C"] {
                #expect(runHotTask(["--file", store, "--add", caption]).status == 0)
            }
            // A log limit of one makes this add fold everything into a snapshot.
            #expect(runHotTask(["--file", store, "--add", "Task D", "--bonus"], environment: ["HOTTASK_LOG_LIMIT": "1"]).status == 0)
            #expect(runHotTask(["--file", store, "--done", "2"]).status == 0)
            #expect(runHotTask(["--file", store, "--add", "Recent X"]).status == 0)
            let listed = try Self.tasks(in: runHotTask(["--file", store, "--list", "--json"]).stdout)
            for task in listed { ids[task["caption"] as? String ?? ""] = task["id"] as? String }
            importPath = folder.write(
                """
                {"version": 2, "tasks": [
                  {"id": "c0000001-0000-4000-8000-000000000001", "caption": "Imported one", "section": "priority",
                   "completed": false, "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z"},
                  {"id": "c0000002-0000-4000-8000-000000000002", "caption": "Imported two", "section": "bonus",
                   "completed": true, "createdAt": "2026-11-20T10:00:00Z", "completedAt": "2026-11-20T11:00:00Z",
                   "modifiedAt": "2026-11-20T11:00:00Z"}
                ]}
                """, to: "import.json")
        }

        func id(_ caption: String) -> String { ids[caption] ?? "no-such-task" }

        /// A fresh folder holding the seed store's files.
        func copy() throws -> (folder: TemporaryFolder, storePath: String) {
            let copy = TemporaryFolder()
            for name in folder.contents() where name.hasPrefix("tasks.json") {
                try FileManager.default.copyItem(atPath: folder.path(name), toPath: copy.path(name))
            }
            return (copy, copy.storePath)
        }

        /// What a user sees of a store, in order: a task's id when it was in the seed (an added
        /// task's id is new on every run), its caption, section and completion.
        func projection(of store: String, label: String = "") throws -> [Shown] {
            let listed = runHotTask(["--file", store, "--list", "--json"])
            try #require(listed.status == 0, "\(label): --list --json failed: \(listed.stderr)")
            let known = Set(ids.values)
            return try Self.tasks(in: listed.stdout).map { task in
                let id = task["id"] as? String ?? ""
                return Shown(
                    id: known.contains(id) || id.hasPrefix("c000000") ? id : "new", caption: task["caption"] as? String ?? "",
                    section: task["section"] as? String ?? "", completed: task["completed"] as? Bool ?? false)
            }
        }

        static func tasks(in json: String) throws -> [[String: Any]] {
            let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            return try #require(document?["tasks"] as? [[String: Any]], "no tasks in: \(json.prefix(200))")
        }
    }

    struct Shown: Equatable, CustomStringConvertible {
        let id: String
        let caption: String
        let section: String
        let completed: Bool
        var description: String { "\(completed ? "[x]" : "[ ]") \(caption) (\(section), \(id.prefix(8)))" }
    }
}
