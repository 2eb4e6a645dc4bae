import Foundation

/// Runs the real binary and measures it from outside: wall time, and peak memory from `wait4`.
enum ProcessTimer {
    struct Run {
        let milliseconds: Double
        let peakKiB: Int
        let status: Int32
    }

    /// Runs `command` with stdout to `stdoutPath` and waits for it.
    static func run(_ command: [String], stdoutPath: String = "/dev/null") throws -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let start = DispatchTime.now()
        let pid = try spawn(command, actions: &actions)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        return Run(milliseconds: elapsed, peakKiB: usage.ru_maxrss, status: (status >> 8) & 0xFF)
    }

    /// The peak resident memory of one run of `command`, in KiB, through GNU time (nil when
    /// /usr/bin/time is missing). Not from this process's `wait4`: a child started by
    /// posix_spawn (vfork) takes the spawning process's high-water mark with it across exec, so
    /// every child would look as large as the benchmark holding its lists.
    static func peakMemory(_ command: [String]) throws -> Int? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("hottask-bench-rss-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let run = try run(["/usr/bin/time", "-f", "%M", "-o", report] + command)
        guard run.status == 0, let text = try? String(contentsOfFile: report, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "")
    }

    /// Starts the UI in a pseudo-terminal (through `script`) and measures the time until its
    /// first full frame has been written (`marker` is the last text of the frame), and the
    /// UI process's peak memory then. The UI is then ended with SIGTERM.
    static func firstFrame(_ command: [String], marker: String) throws -> Run {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw BenchError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let shellCommand = command.map { "'\($0)'" }.joined(separator: " ")
        let start = DispatchTime.now()
        let scriptPID = try spawn(
            ["script", "-qfec", shellCommand, "/dev/null"], actions: &actions,
            environment: ["TERM": "xterm-256color", "LINES": "24", "COLUMNS": "80", "LC_ALL": "C.UTF-8"])
        close(pipeEnds[1])
        var seen: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let needle = Array(marker.utf8)
        var descriptor = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
        while !seen.suffix(8_192).contains(needle) {
            // A marker that never comes (the footer changed) must not hang the benchmark.
            guard poll(&descriptor, 1, 10_000) > 0 else { throw BenchError("no '\(marker)' on the first frame within 10 s") }
            let count = read(pipeEnds[0], &chunk, chunk.count)
            guard count > 0 else { break }
            seen += chunk[0..<count]
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        let appPID = childPID(of: scriptPID)
        let peak = appPID.map(peakKiB) ?? 0
        if let appPID { kill(appPID, SIGTERM) }
        var status: Int32 = 0
        var drain = [UInt8](repeating: 0, count: 4096)
        while read(pipeEnds[0], &drain, drain.count) > 0 {}
        close(pipeEnds[0])
        while waitpid(scriptPID, &status, 0) < 0 && errno == EINTR {}
        return Run(milliseconds: elapsed, peakKiB: peak, status: 0)
    }

    private static func childPID(of pid: pid_t) -> pid_t? {
        let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
        return text?.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// VmHWM (peak resident set) of a running process, in KiB.
    private static func peakKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    }

    private static func spawn(
        _ command: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String] = [:]
    ) throws -> pid_t {
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], &actions, nil, argv, envp)
        guard result == 0 else { throw BenchError("cannot run \(command[0]): \(String(cString: strerror(result)))") }
        return pid
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Array where Element == UInt8 {
    fileprivate func contains(_ needle: [UInt8]) -> Bool { firstRange(of: needle) != nil }
}

extension ArraySlice where Element == UInt8 {
    fileprivate func contains(_ needle: [UInt8]) -> Bool { firstRange(of: needle) != nil }
}
