import Foundation
import Testing

/// The built `hottask` executable that end-to-end tests run.
public enum HotTaskBinary {
    /// `$HOTTASK_BIN` when set (`make test` sets the installed release binary, with its
    /// `hottask-sync` link); otherwise `builtBesideTheTests`.
    public static let url: URL = {
        let environment = ProcessInfo.processInfo.environment
        if let override = environment["HOTTASK_BIN"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return builtBesideTheTests
    }()

    /// The `hottask` file in the nearest folder above the running test bundle
    /// (`.build/<triple>/debug/` holds both the test runner and `hottask`): the debug build.
    public static let builtBesideTheTests: URL = {
        let running =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: running).standardizedFileURL.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("hottask")
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        fatalError("no hottask executable found above \(running); build it or set HOTTASK_BIN")
    }()

    /// The version the binary prints (`hottask --version`), which names its packages.
    public static let version: String? = {
        let line = runHotTask(["--version"]).stdout
        return line.hasPrefix("hottask ") ? line.dropFirst(8).trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }()
}

/// What one run of `hottask` did.
public struct HotTaskRun: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Variables never passed on to `hottask` from the test process, so that a test can never
/// reach the developer's real store.
private let storeVariables: Set<String> = ["HOTTASK_FILE", "XDG_DATA_HOME"]

/// Runs the `hottask` binary with `args` and waits for it (at most `timeout` seconds; then it
/// is killed and an issue is recorded).
///
/// - Parameters:
///   - stdin: text for standard input; nil gives it /dev/null.
///   - environment: variables set on top of this process's environment (from which
///     `HOTTASK_FILE` and `XDG_DATA_HOME` are always removed).
///   - prefix: a command that runs hottask (e.g. `["prlimit", "--fsize=600"]`).
public func runHotTask(
    _ args: [String], stdin: String? = nil, environment: [String: String]? = nil, prefix: [String] = [],
    timeout: TimeInterval = 20, sourceLocation: SourceLocation = #_sourceLocation
) -> (status: Int32, stdout: String, stderr: String) {
    let command = prefix + [HotTaskBinary.url.path] + args
    return runProcess(command, stdin: stdin, environment: environment, timeout: timeout, sourceLocation: sourceLocation)
}

/// Runs a command (the first element is looked up on PATH) and waits for it, as `runHotTask`
/// does. A process killed by a signal reports 128 + the signal's number.
public func runProcess(
    _ command: [String], stdin: String? = nil, environment: [String: String]? = nil,
    timeout: TimeInterval = 20, sourceLocation: SourceLocation = #_sourceLocation
) -> (status: Int32, stdout: String, stderr: String) {
    let run = runProcessMeasuringCPU(command, stdin: stdin, environment: environment, timeout: timeout, sourceLocation: sourceLocation)
    return (run.status, run.stdout, run.stderr)
}

/// `runProcess`, with the CPU seconds the command and the children it waited for used, and
/// the command's peak resident size.
public func runProcessMeasuringCPU(
    _ command: [String], stdin: String? = nil, environment: [String: String]? = nil,
    timeout: TimeInterval = 20, sourceLocation: SourceLocation = #_sourceLocation
) -> (status: Int32, stdout: String, stderr: String, cpuSeconds: Double, peakKiB: Int) {
    let folder = TemporaryFolder()
    let outPath = folder.path("stdout")
    let errPath = folder.path("stderr")
    let inPath = stdin.map { folder.write($0, to: "stdin") } ?? "/dev/null"

    var variables = ProcessInfo.processInfo.environment.filter { !storeVariables.contains($0.key) }
    // Nor the developer's own config file: a test that wants one passes XDG_CONFIG_HOME or --config.
    variables["XDG_CONFIG_HOME"] = "/nonexistent/hottask-tests-config"
    variables["XDG_STATE_HOME"] = "/nonexistent/hottask-tests-state"
    variables.merge(environment ?? [:]) { _, new in new }

    let child: ChildProcess
    do {
        // Files rather than pipes: nothing can fill up and block the child.
        child = try ChildProcess(command, environment: variables, stdinPath: inPath, stdoutPath: outPath, stderrPath: errPath)
    } catch {
        Issue.record("\(error.localizedDescription)", sourceLocation: sourceLocation)
        return (-1, "", "", 0, 0)
    }
    guard let (status, cpuSeconds, peakKiB) = child.waitMeasuringCPU(timeout: timeout) else {
        Issue.record("\(command) did not finish within \(Int(timeout)) seconds; killed", sourceLocation: sourceLocation)
        return (-1, fileText(outPath) ?? "", fileText(errPath) ?? "", 0, 0)
    }
    return (status, fileText(outPath) ?? "", fileText(errPath) ?? "", cpuSeconds, peakKiB)
}
