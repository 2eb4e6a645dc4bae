import Foundation
@_spi(Fixtures) import HotTaskCore

// `make bench`: deterministic stores of 1k, 10k and 100k tasks; the release `hottask` timed per
// operation from outside (median, min, max, peak memory), and the UI's per-key work in-process.
// Benchmarks are not tests: nothing here fails on a time; the table says "over" instead.
//
// Usage: hottask-bench [--sizes 1000,10000,100000] [--runs 5] [--out FILE] [--peers | --heavy-keys [--families] | --tag-filter | --list-switch | --views]
// --peers compares with Taskwarrior and todo.txt-cli instead (`make bench-peers`).

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let sizes = (option("--sizes") ?? "1000,10000,100000").split(separator: ",").compactMap { Int($0) }
let runs = Int(option("--runs") ?? "5") ?? 5
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hottask").path
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hottask-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

// `--make-stores FOLDER`: only write the generated stores (store-100k.json) and the same tasks
// as a Taskwarrior export (tw-100k.json) there, for `make profile`.
if let target = option("--make-stores") {
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for count in sizes {
        let name = count >= 1000 ? "\(count / 1000)k" : "\(count)"
        // `--families`: the same tasks as families of five (store-100k-families.json).
        let families = arguments.contains("--families")
        let list = families ? StoreGenerator.families(StoreGenerator.list(count: count)) : StoreGenerator.list(count: count)
        let store = target + "/store-\(name)\(families ? "-families" : "").json"
        removeStore(store)
        try TaskStore(path: store).replaceWhole(with: list)
        try Data(PeerBenchmarks.taskwarriorExport(list).utf8).write(to: URL(fileURLWithPath: target + "/tw-\(name).json"))
        print(store)
    }
    try? FileManager.default.removeItem(atPath: folder)
    exit(0)
}

// `--heavy-keys`: only the UI's keys, in-process (quick to run while working on them): the
// whole-list keys, and the keys pressed most (j, Space, a filter keystroke) to their frame.
if arguments.contains("--heavy-keys") {
    var rows: [Measurement] = []
    // `--families`: the same tasks as families of five (issue 54's 20,000 at 100,000 tasks).
    let families = arguments.contains("--families")
    for count in sizes {
        let list = families ? StoreGenerator.families(StoreGenerator.list(count: count)) : StoreGenerator.list(count: count)
        let name = label(count) + (families ? " (\(count / 5) families)" : "")
        rows += HeavyKeyBenchmarks.run(list, label: name, rounds: runs)
        rows += try DailyKeyBenchmarks.run(list, label: name, rounds: runs, folder: folder)
        // And every other key `make bench` times (issue 54: every key within its budget with
        // families too): typing, scrolling and filtering, and each key that changes a task.
        rows += UIBenchmarks.keystrokes(list, label: name)
        let store = folder + "/keys-\(label(count)).json"
        try TaskStore(path: store).replaceWhole(with: list)
        rows += try UIBenchmarks.changingKeys(store: TaskStore(path: store), label: name, runs: max(runs, 5))
    }
    print(Measurement.header + "\n" + rows.map(\.row).joined(separator: "\n"))
    exit(0)
}

// `--list-switch`: only issue 53's `>` through 50 lists, in-process, each key's time.
if arguments.contains("--list-switch") {
    for count in sizes {
        let list = ListBenchmarks.spread(StoreGenerator.list(count: count), over: 50)
        for _ in 0..<max(1, runs) {
            let result = ListBenchmarks.switching(list, label: label(count))
            print(result.row)
            print("  per key (ms): " + result.milliseconds.map { String(format: "%.2f", $0) }.joined(separator: " "))
        }
    }
    exit(0)
}

// `--views`: only issue 55's history view (H) and calendar (W), in-process, each key's time.
if arguments.contains("--views") {
    for count in sizes {
        let list = StoreGenerator.list(count: count)
        for _ in 0..<max(1, runs) {
            let result = ViewBenchmarks.opening(list, label: label(count))
            print(result.row)
            let keys = zip(ViewBenchmarks.keyNames, result.milliseconds).map { "\($0) \(String(format: "%.2f", $1))" }
            print("  per key (ms): " + keys.joined(separator: ", "))
        }
    }
    exit(0)
}

// `--tag-filter`: only issue 39's `/` with `+work due:week`, in-process, each key's time.
if arguments.contains("--tag-filter") {
    for count in sizes {
        let list = StoreGenerator.tagged(StoreGenerator.list(count: count))
        for _ in 0..<max(1, runs) {
            let result = UIBenchmarks.tagFilter(list, label: label(count))
            print(result.row)
            print("  per key (ms): " + result.milliseconds.map { String(format: "%.2f", $0) }.joined(separator: " "))
        }
    }
    exit(0)
}

if arguments.contains("--peers") {
    let table = try PeerBenchmarks.run(sizes: sizes, runs: runs, binary: binary, folder: folder)
    print(table)
    if let out = option("--out") { try table.write(toFile: out, atomically: true, encoding: .utf8) }
    try? FileManager.default.removeItem(atPath: folder)
    exit(0)
}

/// The issue's targets in milliseconds, by operation and size label.
let targets: [String: [String: Double]] = [
    "hottask --add X": ["10k": 15, "100k": 20],
    "hottask --list > /dev/null": ["10k": 60, "100k": 400],
    "hottask --export -": ["10k": 60, "100k": 400],
    "hottask --import (empty store)": ["10k": 100, "100k": 800],
    "UI: start → first full frame": ["10k": 60, "100k": 150],
]
/// Issue 14: peak memory of any command or the UI at 100,000 tasks, in MiB.
let memoryTarget100k = 80.0

func label(_ count: Int) -> String { count >= 1000 ? "\(count / 1000)k" : "\(count)" }

var measurements: [Measurement] = []
for count in sizes {
    let name = label(count)
    let source = folder + "/source-\(name).json"
    let generated = StoreGenerator.list(count: count)
    try TaskStore(path: source).replaceWhole(with: generated)
    let taskwarriorSource = folder + "/source-\(name).tw.json"
    try Data(PeerBenchmarks.taskwarriorExport(generated).utf8).write(to: URL(fileURLWithPath: taskwarriorSource))
    let store = folder + "/store-\(name).json"
    let empty = folder + "/empty-\(name).json"
    copyStore(source, to: store)
    let repeats = count >= 100_000 ? max(3, runs / 2) : runs

    func external(_ operation: String, target: Double? = nil, before: () -> Void = {}, _ command: @autoclosure () -> [String]) throws {
        try external(operation, target: target, before: before, { command() })
    }

    func external(_ operation: String, target: Double? = nil, before: () -> Void = {}, _ command: () -> [String]) throws {
        var result = Measurement(operation: operation, size: name, target: target ?? targets[operation]?[name])
        result.memoryTarget = count >= 100_000 ? memoryTarget100k : nil
        for _ in 0..<repeats {
            before()
            let arguments = command()
            let run = try ProcessTimer.run(arguments)
            guard run.status == 0 else { throw BenchError("\(arguments) exited \(run.status)") }
            result.milliseconds.append(run.milliseconds)
        }
        // One more run, untimed, for its peak memory (see ProcessTimer.peakMemory).
        before()
        result.peakKiB = try ProcessTimer.peakMemory(command())
        measurements.append(result)
        FileHandle.standardError.write(Data("  \(result.row)\n".utf8))
    }

    FileHandle.standardError.write(Data("\(name) tasks:\n".utf8))
    try external("hottask --add X", [binary, "--file", store, "--add", "Benchmark task"])
    // Changes by id, right after the run of adds above (their records are still in the log).
    // Each within 1.5× of an add is the target.
    let ids = try TaskStore(path: source).load().all.map { $0.id.uuidString.lowercased() }
    let addMedian = measurements.last?.median ?? 0
    // Each run names another task, so that every run changes something: --done completes open
    // tasks, --undone reopens those, --delete takes tasks from the end.
    let open = try TaskStore(path: source).load().all.filter { !$0.completed }.map { $0.id.uuidString.lowercased() }
    func byID(_ operation: String, _ commands: [[String]]) throws {
        var run = -1
        try external(operation, target: addMedian * 1.5, before: { run += 1 }, { [binary, "--file", store] + commands[run] })
    }
    let everyRun = 0...repeats  // the timed runs and the one for memory
    try byID("hottask --done ID", everyRun.map { ["--done", open[$0]] })
    try byID("hottask --undone ID", everyRun.map { ["--undone", open[$0]] })
    try byID("hottask --move ID", everyRun.map { ["--move", open[100 + $0]] })
    try byID("hottask --edit ID TEXT", everyRun.map { ["--edit", open[200 + $0], "Edited by the benchmark \($0)"] })
    try byID("hottask --delete ID", everyRun.map { ["--delete", ids[ids.count - 1 - $0]] })
    try external("hottask --list > /dev/null", [binary, "--file", store, "--list"])
    // Issue 29: sorting by due date and finding overdue tasks, each within 1.5× of --list.
    let listMedian = measurements.last?.median ?? 0
    try external("hottask --list --sort due > /dev/null", target: listMedian * 1.5, [binary, "--file", store, "--list", "--sort", "due"])
    try external("hottask --list --overdue > /dev/null", target: listMedian * 1.5, [binary, "--file", store, "--list", "--overdue"])
    // Issue 39: on the same tasks with tags, `--list --filter +work` within 1.2× of `--list`.
    let tagged = folder + "/tagged-\(name).json"
    let taggedList = StoreGenerator.tagged(generated)
    try TaskStore(path: tagged).replaceWhole(with: taggedList)
    try external("hottask --list > /dev/null (tagged)", [binary, "--file", tagged, "--list"])
    let taggedListMedian = measurements.last?.median ?? 0
    try external(
        "hottask --list --filter +work > /dev/null", target: taggedListMedian * 1.2, [binary, "--file", tagged, "--list", "--filter", "+work"])
    try external("hottask --export -", [binary, "--file", store, "--export", "-"])
    try external(
        "hottask --import (empty store)",
        before: { removeStore(empty) },
        [binary, "--file", empty, "--import", source])
    try external(
        "hottask --import of a Taskwarrior export (empty store)",
        before: { removeStore(empty) },
        [binary, "--file", empty, "--import", taskwarriorSource])

    // The store `empty` now holds the export: importing it again changes nothing, but every
    // task is matched against the store's.
    try external("hottask --import of a Taskwarrior export (store holding it)", [binary, "--file", empty, "--import", taskwarriorSource])
    // Every export format to a file (memory: none may hold the whole document), and the
    // iCalendar one read back; then a whole store replaced by a HotTask export.
    let exported = folder + "/exported-\(name)"
    for format in ["hottask", "taskwarrior", "todotxt", "ics"] {
        try external(
            "hottask --export FILE --export-format \(format)",
            [binary, "--file", store, "--export", exported + "." + format, "--export-format", format])
    }
    // todo.txt read back: every line found by its id: tag, then once more into the store
    // holding it (issue 28's identity rules run on every line).
    try external(
        "hottask --import of a todo.txt export (empty store)",
        before: { removeStore(empty) },
        [binary, "--file", empty, "--import", exported + ".todotxt", "--import-format", "todotxt"])
    try external(
        "hottask --import of a todo.txt export (store holding it)",
        [binary, "--file", empty, "--import", exported + ".todotxt", "--import-format", "todotxt"])
    try external(
        "hottask --import of an iCalendar export (empty store)",
        before: { removeStore(empty) },
        [binary, "--file", empty, "--import", exported + ".ics"])
    let replaced = folder + "/replaced-\(name).json"
    try external(
        "hottask --import --replace (HotTask export)",
        before: {
            removeStore(replaced)
            copyStore(source, to: replaced)
        },
        [binary, "--file", replaced, "--import", exported + ".hottask", "--replace"])

    var start = Measurement(operation: "UI: start → first full frame", size: name, target: targets["UI: start → first full frame"]?[name])
    start.memoryTarget = count >= 100_000 ? memoryTarget100k : nil
    for _ in 0..<repeats {
        let run = try ProcessTimer.firstFrame([binary, "--file", store], marker: "quit")
        start.milliseconds.append(run.milliseconds)
        start.peakKiB = max(start.peakKiB ?? 0, run.peakKiB)
    }
    measurements.append(start)
    FileHandle.standardError.write(Data("  \(start.row)\n".utf8))

    measurements.append(try UIBenchmarks.start(store: TaskStore(path: store), label: name, runs: repeats))
    measurements += UIBenchmarks.keystrokes(try TaskStore(path: store).load(), label: name)
    measurements.append(UIBenchmarks.tagFilter(taggedList, label: name))
    measurements.append(ListBenchmarks.switching(ListBenchmarks.spread(generated, over: 50), label: name))
    measurements += try UIBenchmarks.changingKeys(store: TaskStore(path: store), label: name, runs: repeats)
    measurements += HeavyKeyBenchmarks.run(generated, label: name, rounds: max(1, repeats / 2))
}

var report = "HotTask benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores, "
report += "\(String(format: "%.0f", Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824)) GiB, "
report += "\(ISO8601DateFormatter().string(from: Date()))\n\n\(Measurement.header)\n"
report += measurements.map(\.row).joined(separator: "\n") + "\n"
print(report)
if let out = option("--out") { try report.write(toFile: out, atomically: true, encoding: .utf8) }
