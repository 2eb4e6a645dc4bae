import Foundation
@_spi(Fixtures) import HotTaskCore

/// `make bench-peers`: the same generated tasks in Taskwarrior and todo.txt-cli, each operation
/// timed the same way as HotTask's, and the ratio HotTask / peer (below 1 is faster).
enum PeerBenchmarks {
    struct Row {
        let operation: String
        let size: String
        var hottask: Double
        var taskwarrior: Double?
        var todotxt: Double?
        /// The target for HotTask / Taskwarrior, where an issue sets one (14; 49 for import and export).
        var target: Double? = nil
    }

    static func run(sizes: [Int], runs: Int, binary: String, folder: String) throws -> String {
        var rows: [Row] = []
        for count in sizes {
            let name = count >= 1000 ? "\(count / 1000)k" : "\(count)"
            let list = StoreGenerator.list(count: count)
            // Every size takes `runs` runs: a median of two at 100,000 was the slower of two.
            let repeats = runs
            FileHandle.standardError.write(Data("\(name) tasks (peers)...\n".utf8))

            // The same tasks in each program's own form: HotTask's snapshot, Taskwarrior's
            // export, todo.txt's lines.
            let source = folder + "/peer-source-\(name).json"
            try TaskStore(path: source).replaceWhole(with: list)
            let store = folder + "/peer-store-\(name).json"
            let empty = folder + "/peer-empty-\(name).json"
            func fresh(_ path: String) {
                removeStore(path)
            }
            let taskwarriorFile = folder + "/peer-\(name).tw.json"
            try Data(taskwarriorExport(list).utf8).write(to: URL(fileURLWithPath: taskwarriorFile))
            let data = folder + "/tw-\(name)"
            let rc = folder + "/taskrc-\(name)"
            try "data.location=\(data)\nconfirmation=no\nverbose=nothing\nhooks=off\n".write(toFile: rc, atomically: true, encoding: .utf8)
            setenv("TASKRC", rc, 1)
            let todoFolder = folder + "/todo-\(name)"
            try FileManager.default.createDirectory(atPath: todoFolder, withIntermediateDirectories: true)
            try todoTxt(list).write(toFile: todoFolder + "/todo.txt", atomically: true, encoding: .utf8)
            let config = todoFolder + "/config"
            try
                "export TODO_DIR=\(todoFolder)\nexport TODO_FILE=\(todoFolder)/todo.txt\nexport DONE_FILE=\(todoFolder)/done.txt\nexport REPORT_FILE=\(todoFolder)/report.txt\n"
                .write(toFile: config, atomically: true, encoding: .utf8)

            // Each operation's programs run in turn, one run of each at a time (interleaved), so
            // that a busy moment of the machine slows all of them, not one.
            let imports = try interleaved(
                repeats,
                [
                    Timed(before: { fresh(empty) }) { [binary, "--file", empty, "--import", source] },
                    // HotTask importing the very file `task import` reads.
                    Timed(before: { fresh(empty) }) { [binary, "--file", empty, "--import", taskwarriorFile] },
                    // The last run's data stays: the next operations work on it.
                    Timed(before: { try? FileManager.default.removeItem(atPath: data) }) { ["task", "import", taskwarriorFile] },
                ])
            let (hottaskImport, hottaskTaskwarriorImport, taskwarriorImport) = (imports[0], imports[1], imports[2])
            fresh(store)
            _ = try ProcessTimer.run([binary, "--file", store, "--import", source])
            let adds = try interleaved(
                repeats,
                [
                    Timed { [binary, "--file", store, "--add", "Benchmark task"] }, Timed { ["task", "add", "Benchmark task"] },
                    Timed { ["todo-txt", "-d", config, "-f", "add", "Benchmark task"] },
                ])
            let lists = try interleaved(
                repeats,
                [Timed { [binary, "--file", store, "--list"] }, Timed { ["task", "list"] }, Timed { ["todo-txt", "-d", config, "-p", "ls"] }])
            let exports = try interleaved(repeats, [Timed { [binary, "--file", store, "--export", "-"] }, Timed { ["task", "export"] }])
            // A change to one task named by its id, on a different task each run.
            let open = list.all.filter { !$0.completed }.map { $0.id.uuidString.lowercased() }
            var run = 0
            let modifies = try interleaved(
                repeats,
                [
                    Timed(before: { run += 1 }) { [binary, "--file", store, "--move", open[run]] },
                    Timed { ["task", open[run], "modify", "priority:L"] },
                ])
            let (hottaskAdd, taskwarriorAdd, todoAdd) = (adds[0], adds[1], adds[2])
            let (hottaskList, taskwarriorList, todoList) = (lists[0], lists[1], lists[2])
            let (hottaskExport, taskwarriorExport) = (exports[0], exports[1])
            let (hottaskModify, taskwarriorModify) = (modifies[0], modifies[1])

            // The UI, from start to its first full frame in a pseudo-terminal.
            var frames: [Double] = []
            for _ in 0..<repeats { frames.append(try ProcessTimer.firstFrame([binary, "--file", store], marker: "quit").milliseconds) }
            let hottaskFirstFrame = frames.sorted()[frames.count / 2]

            rows += [
                Row(operation: "add one task", size: name, hottask: hottaskAdd, taskwarrior: taskwarriorAdd, todotxt: todoAdd),
                Row(
                    operation: "change one task by id (`--move ID`, `task ID modify`)", size: name, hottask: hottaskModify,
                    taskwarrior: taskwarriorModify),
                Row(operation: "list", size: name, hottask: hottaskList, taskwarrior: taskwarriorList, todotxt: todoList, target: 0.12),
                Row(operation: "export", size: name, hottask: hottaskExport, taskwarrior: taskwarriorExport, target: 0.10),
                Row(
                    operation: "import into an empty list (HotTask its own format)", size: name, hottask: hottaskImport,
                    taskwarrior: taskwarriorImport, target: 0.10),
                Row(
                    operation: "import a Taskwarrior export into an empty list", size: name, hottask: hottaskTaskwarriorImport,
                    taskwarrior: taskwarriorImport, target: 0.10),
                Row(
                    operation: "UI start → first full frame (against `task list`)", size: name, hottask: hottaskFirstFrame,
                    taskwarrior: taskwarriorList, target: 0.065),
            ]
        }
        var table =
            "| operation | tasks | HotTask ms | Taskwarrior 2.6 ms | HotTask / Taskwarrior | target | | todo.txt-cli ms | HotTask / todo.txt |\n"
        table += "|---|---|---:|---:|---:|---:|---|---:|---:|\n"
        for row in rows {
            func cell(_ peer: Double?) -> (String, String) {
                guard let peer else { return ("–", "–") }
                return (String(format: "%.0f", peer), String(format: "%.3f", row.hottask / peer))
            }
            let (tw, twRatio) = cell(row.taskwarrior)
            let (todo, todoRatio) = cell(row.todotxt)
            let ratio = row.taskwarrior.map { row.hottask / $0 }
            let target = row.target.map { String(format: "≤ %.3g", $0) } ?? "–"
            let verdict = row.target.flatMap { limit in ratio.map { $0 <= limit ? "ok" : "**over**" } } ?? ""
            table +=
                "| \(row.operation) | \(row.size) | \(String(format: "%.1f", row.hottask)) | \(tw) | \(twRatio) | \(target) | \(verdict) | \(todo) | \(todoRatio) |\n"
        }
        return table
    }

    /// A command to time, and what to do before each of its runs.
    private struct Timed {
        var before: () -> Void = {}
        let command: () -> [String]
    }

    /// The median wall time of each command over `runs` rounds; a round runs each once, in
    /// turn (stdout discarded).
    private static func interleaved(_ runs: Int, _ commands: [Timed]) throws -> [Double] {
        var times = Array(repeating: [Double](), count: commands.count)
        for _ in 0..<runs {
            for (index, timed) in commands.enumerated() {
                timed.before()
                let run = try ProcessTimer.run(timed.command())
                guard run.status == 0 else { throw BenchError("\(timed.command()) exited \(run.status)") }
                times[index].append(run.milliseconds)
            }
        }
        // The middle run; for an even count, the mean of the middle two.
        return times.map { runs in
            let sorted = runs.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// The tasks as `task import` reads them: priority H for Top Priority.
    static func taskwarriorExport(_ list: TaskList) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let lines = list.all.map { task -> String in
            let quoted = try! JSONSerialization.data(withJSONObject: task.caption, options: .fragmentsAllowed)
            let description = String(decoding: quoted, as: UTF8.self)
            var fields = [
                #""uuid":"\#(task.id.uuidString.lowercased())""#, #""description":\#(description)"#,
                #""status":"\#(task.completed ? "completed" : "pending")""#, #""entry":"\#(formatter.string(from: task.createdAt))""#,
            ]
            if let end = task.completedAt { fields.append(#""end":"\#(formatter.string(from: end))""#) }
            if task.section == .priority { fields.append(#""priority":"H""#) }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    /// The tasks as a todo.txt file: `(A)` for Top Priority, `x` for completed.
    private static func todoTxt(_ list: TaskList) -> String {
        list.all.map { task in
            (task.completed ? "x " : "") + (task.section == .priority && !task.completed ? "(A) " : "") + task.caption
        }.joined(separator: "\n") + "\n"
    }
}
