import Foundation
import Testing

/// Runs `hottask args…` and compares everything it did with what is stated: the whole of
/// standard output, the whole of standard error and the exit status, as swift-argument-parser's
/// `AssertExecuteCommand` does. Output not stated is expected to be empty, so a stray line
/// beside the right one fails. `[..]` and `...` (see `OutputPattern`) stand for what a test
/// cannot know, such as a random id. Returns the run, for checks on what it left behind.
@discardableResult
public func expectRun(
    _ args: [String], stdin: String? = nil, environment: [String: String]? = nil, prefix: [String] = [],
    stdout: String = "", stderr: String = "", status: Int32 = 0, timeout: TimeInterval = 20,
    sourceLocation: SourceLocation = #_sourceLocation
) -> HotTaskRun {
    let run = runHotTask(args, stdin: stdin, environment: environment, prefix: prefix, timeout: timeout, sourceLocation: sourceLocation)
    let result = HotTaskRun(status: run.status, stdout: run.stdout, stderr: run.stderr)
    expectOutput(
        result, stdout: stdout, stderr: stderr, status: status, command: "hottask " + args.joined(separator: " "), sourceLocation: sourceLocation)
    return result
}

/// Compares a finished run with the whole output stated, as `expectRun` does; for runs that
/// are not `hottask` alone (another tool, a shell pipeline).
public func expectOutput(
    _ run: HotTaskRun, stdout: String = "", stderr: String = "", status: Int32 = 0, command: String = "the command",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var problems: [String] = []
    if run.status != status { problems.append("exit status \(run.status), expected \(status)") }
    let out = OutputPattern.difference(stdout, run.stdout)
    if !out.isEmpty { problems.append("standard output differs:\n\(out)") }
    let err = OutputPattern.difference(stderr, run.stderr)
    if !err.isEmpty { problems.append("standard error differs:\n\(err)") }
    if !problems.isEmpty {
        Issue.record(Comment(rawValue: command + ":\n" + problems.joined(separator: "\n")), sourceLocation: sourceLocation)
        if ProcessInfo.processInfo.environment["HOTTASK_PRINT_ACTUAL"] != nil {
            // For writing a new expectation: what came, as the arguments to state.
            print("ACTUAL \(sourceLocation.fileName):\(sourceLocation.line) \(swiftLiteral(run.stdout)) \(swiftLiteral(run.stderr)) \(run.status)")
        }
    }
}

/// `text` as a Swift string literal.
func swiftLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\t": literal += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F: literal += "\\u{\(String(scalar.value, radix: 16))}"
        default: literal.unicodeScalars.append(scalar)
        }
    }
    return literal + "\""
}

extension HotTaskRun {
    /// A run of any command, as `runProcess` returns it.
    public init(_ run: (status: Int32, stdout: String, stderr: String)) {
        self.init(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }
}
