import Foundation
import HotTaskCore

/// `make bench-peers`: the same generated tasks in Taskwarrior and todo.txt-cli, each operation
/// timed the same way as HotTask's, and the ratio HotTask / peer (below 1 is faster).
enum PeerBenchmarks {
    struct Row {
        let operation: String
        let size: String
        var hottask: Double
        var taskwarrior: Double?
        var todotxt: Double?
        /// Issue 14's target for HotTask / Taskwarrior, where it sets one.
        var target: Double? = nil
    }

    static func run(sizes: [Int], runs: Int, binary: String, folder: String) throws -> String {
        var rows: [Row] = []
        for count in sizes {
            let name = count >= 1000 ? "\(count / 1000)k" : "\(count)"
            let list = StoreGenerator.list(count: count)
            let repeats = count >= 100_000 ? max(2, runs / 2) : runs
            FileHandle.standardError.write(Data("\(name) tasks (peers)...\n".utf8))

            // HotTask
            let source = folder + "/peer-source-\(name).json"
            try TaskStore(path: source).save(list)
            let store = folder + "/peer-store-\(name).json"
            let empty = folder + "/peer-empty-\(name).json"
            func fresh(_ path: String) {
                removeStore(path)
            }
            fresh(empty)
            let hottaskImport = try median(repeats, before: { fresh(empty) }) { [binary, "--file", empty, "--import", source] }
            fresh(store)
            _ = try ProcessTimer.run([binary, "--file", store, "--import", source])
            let hottaskAdd = try median(repeats) { [binary, "--file", store, "--add", "Benchmark task"] }
            let hottaskList = try median(repeats) { [binary, "--file", store, "--list"] }
            let hottaskExport = try median(repeats) { [binary, "--file", store, "--export", "-"] }
            // A change to one task named by its id, on a different task each run.
            let open = list.all.filter { !$0.completed }.map { $0.id.uuidString.lowercased() }
            var run = 0
            let hottaskModify = try median(repeats, before: { run += 1 }) { [binary, "--file", store, "--move", open[run]] }

            // The UI, from start to its first full frame in a pseudo-terminal.
            var frames: [Double] = []
            for _ in 0..<repeats { frames.append(try ProcessTimer.firstFrame([binary, "--file", store], marker: "quit").milliseconds) }
            let hottaskFirstFrame = frames.sorted()[frames.count / 2]

            // Taskwarrior
            let taskwarriorFile = folder + "/peer-\(name).tw.json"
            try Data(taskwarriorExport(list).utf8).write(to: URL(fileURLWithPath: taskwarriorFile))
            // HotTask importing the very file `task import` reads.
            let hottaskTaskwarriorImport = try median(repeats, before: { fresh(empty) }) { [binary, "--file", empty, "--import", taskwarriorFile] }
            let data = folder + "/tw-\(name)"
            let rc = folder + "/taskrc-\(name)"
            try "data.location=\(data)\nconfirmation=no\nverbose=nothing\nhooks=off\n".write(toFile: rc, atomically: true, encoding: .utf8)
            setenv("TASKRC", rc, 1)
            let taskwarriorImport = try median(min(repeats, 2), before: { try? FileManager.default.removeItem(atPath: data) }) {
                ["task", "import", taskwarriorFile]
            }
            let taskwarriorAdd = try median(repeats) { ["task", "add", "Benchmark task"] }
            let taskwarriorList = try median(repeats) { ["task", "list"] }
            let taskwarriorExport = try median(repeats) { ["task", "export"] }
            run = 0
            let taskwarriorModify = try median(repeats, before: { run += 1 }) { ["task", open[run], "modify", "priority:L"] }

            // todo.txt-cli
            let todoFolder = folder + "/todo-\(name)"
            try FileManager.default.createDirectory(atPath: todoFolder, withIntermediateDirectories: true)
            try todoTxt(list).write(toFile: todoFolder + "/todo.txt", atomically: true, encoding: .utf8)
            let config = todoFolder + "/config"
            try
                "export TODO_DIR=\(todoFolder)\nexport TODO_FILE=\(todoFolder)/todo.txt\nexport DONE_FILE=\(todoFolder)/done.txt\nexport REPORT_FILE=\(todoFolder)/report.txt\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            let todoAdd = try median(repeats) { ["todo-txt", "-d", config, "-f", "add", "Benchmark task"] }
            let todoList = try median(repeats) { ["todo-txt", "-d", config, "-p", "ls"] }

            rows += [
                Row(operation: "add one task", size: name, hottask: hottaskAdd, taskwarrior: taskwarriorAdd, todotxt: todoAdd),
                Row(
                    operation: "change one task by id (`--move ID`, `task ID modify`)", size: name, hottask: hottaskModify,
                    taskwarrior: taskwarriorModify),
                Row(operation: "list", size: name, hottask: hottaskList, taskwarrior: taskwarriorList, todotxt: todoList, target: 0.12),
                Row(operation: "export", size: name, hottask: hottaskExport, taskwarrior: taskwarriorExport, target: 0.25),
                Row(
                    operation: "import into an empty list (HotTask its own format)", size: name, hottask: hottaskImport,
                    taskwarrior: taskwarriorImport),
                Row(
                    operation: "import a Taskwarrior export into an empty list", size: name, hottask: hottaskTaskwarriorImport,
                    taskwarrior: taskwarriorImport, target: 0.12),
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

    /// The median wall time of `runs` runs of a command (stdout discarded).
    private static func median(_ runs: Int, before: () -> Void = {}, _ command: () -> [String]) throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            before()
            let run = try ProcessTimer.run(command())
            guard run.status == 0 else { throw BenchError("\(command()) exited \(run.status)") }
            times.append(run.milliseconds)
        }
        return times.sorted()[times.count / 2]
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
