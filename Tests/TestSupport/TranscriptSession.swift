import Foundation
import Testing

/// Runs transcripts (`Transcript`) as a person would type them, in bash, in a fresh home folder
/// of their own: `hottask` (the built one) first on PATH, the store in its default place under
/// that home, no config, UTC, a C.UTF-8 locale and 80 columns. Nothing of the test process's
/// environment is passed on, so the outputs are the same on every machine.
public final class TranscriptSession {
    /// The home folder (and working folder) the commands run in.
    public let home = TemporaryFolder()
    private let work = TemporaryFolder()
    public private(set) var environment: [String: String]
    /// Text in the outputs shown as something steadier before comparing: the home folder as
    /// `~`, and what a test adds (a server's address, which changes with its port, as the
    /// variable that names it).
    public var shownAs: [(text: String, shown: String)]

    /// `tools`: small scripts put on PATH under the given names (a stand-in for `pass`, say).
    /// `environment`: variables set on top of the fixed ones.
    public init(tools: [String: String] = [:], environment extra: [String: String] = [:]) {
        let bin = work.path("bin")
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let built = HotTaskBinary.url.deletingLastPathComponent()
        for program in ["hottask", "hottask-sync"] {
            try? FileManager.default.createSymbolicLink(
                atPath: bin + "/" + program, withDestinationPath: built.appendingPathComponent(program).path)
        }
        for (name, script) in tools {
            let path = work.write(script, to: "bin/" + name)
            chmod(path, 0o755)
        }
        environment = [
            "HOME": home.path, "PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "TZ": "UTC", "COLUMNS": "80", "TERM": "dumb", "USER": "me", "TMPDIR": home.path,
        ]
        environment.merge(extra) { _, new in new }
        shownAs = [(home.path, "~")]
    }

    /// Runs every command of `transcript` in one shell, in order (so a variable one sets is
    /// there for the next), and gives back the transcript it really makes: each command with
    /// what it printed and its status.
    public func run(_ transcript: Transcript, timeout: TimeInterval = 120, sourceLocation: SourceLocation = #_sourceLocation) -> Transcript {
        let outputs = work.path("out")
        try? FileManager.default.removeItem(atPath: outputs)
        try? FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        var script = "cd \"$HOME\" || exit 99\n"
        for (index, step) in transcript.steps.enumerated() {
            // Braces, not a subshell: an assignment stays for the commands after it.
            script += "{\n\(step.command)\n} >'\(outputs)/\(index)' 2>&1 </dev/null; echo $? >'\(outputs)/\(index).status'\n"
        }
        let path = work.write(script, to: "transcript.sh")
        // `env -i`: the shell gets these variables and no others.
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let shell = runProcess(
            ["env", "-i"] + variables + ["bash", "--noprofile", "--norc", path], timeout: timeout, sourceLocation: sourceLocation)
        if shell.status != 0 { Issue.record("the transcript's shell exited \(shell.status): \(shell.stderr)", sourceLocation: sourceLocation) }
        return Transcript(
            steps: transcript.steps.enumerated().map { index, step in
                let printed = shownAs.reduce(fileText("\(outputs)/\(index)") ?? "") { $0.replacingOccurrences(of: $1.text, with: $1.shown) }
                let status = (fileText("\(outputs)/\(index).status")?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { Int32($0) } ?? -1
                return Transcript.Step(command: step.command, output: Transcript.outputLines(printed: printed, status: status), line: step.line)
            })
    }

    /// Runs `transcript` and checks every command's whole output against the one written;
    /// `place` names where it was written (a file and line). Returns the transcript to record:
    /// the written one, with the outputs that did not match replaced by what really came.
    @discardableResult
    public func expect(_ transcript: Transcript, place: String, sourceLocation: SourceLocation = #_sourceLocation) -> Transcript {
        let actual = run(transcript, sourceLocation: sourceLocation)
        var recorded = transcript
        for (index, (wanted, got)) in zip(transcript.steps, actual.steps).enumerated() {
            guard !OutputPattern.matches(lines: wanted.output, got.output) else { continue }
            recorded.steps[index].output = got.output
            let expected = wanted.output.map { $0 + "\n" }.joined()
            let printed = got.output.map { $0 + "\n" }.joined()
            Issue.record(
                "\(place) line \(wanted.line): $ \(wanted.command)\n\(OutputPattern.difference(expected, printed))",
                sourceLocation: sourceLocation)
        }
        return recorded
    }
}
