/// A shell session written out as a person would see it: the docs' ```console blocks and the
/// `.console` snapshot files.
///
///     $ hottask --add "Buy milk"
///     Added to Top Priority: Buy milk
///     $ hottask --done 7
///     hottask: there is no task 7 (the list has 1)
///     [exit 1]
///
/// A line starting with `$ ` is a command (a line ending in `\` goes on in the next one); the
/// lines after it, up to the next command, are everything it printed, standard output and
/// standard error together as a terminal shows them; `[exit N]` ends the output of a command
/// that exited N ≠ 0. `[..]` and `...` stand for what cannot be known (`OutputPattern`).
public struct Transcript: Equatable, Sendable {
    public struct Step: Equatable, Sendable {
        /// The command as written (continuation lines joined with their line breaks).
        public var command: String
        /// The expected output lines, `[exit N]` included.
        public var output: [String]
        /// The line of the `$` in the file, for messages.
        public var line: Int

        public init(command: String, output: [String], line: Int) {
            self.command = command
            self.output = output
            self.line = line
        }
    }

    public var steps: [Step]

    public init(steps: [Step]) {
        self.steps = steps
    }

    /// Reads a transcript; `firstLine` is the file line of its first line. Lines before the
    /// first command are not part of any step and are dropped.
    public init(parsing text: String, firstLine: Int = 1) {
        var steps: [Step] = []
        var continuing = false
        for (offset, line) in OutputPattern.lines(text).enumerated() {
            if continuing, var last = steps.popLast() {
                last.command += "\n" + line
                continuing = line.hasSuffix("\\")
                steps.append(last)
            } else if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), output: [], line: firstLine + offset))
                continuing = line.hasSuffix("\\")
            } else if var last = steps.popLast() {
                last.output.append(line)
                steps.append(last)
            }
        }
        self.steps = steps
    }

    /// The transcript as text, the form it is read from.
    public var text: String {
        steps.map { step in
            (["$ " + step.command] + step.output).joined(separator: "\n") + "\n"
        }.joined()
    }

    /// The output lines a run gives: what it printed, then `[exit N]` when N ≠ 0.
    public static func outputLines(printed: String, status: Int32) -> [String] {
        OutputPattern.lines(printed) + (status == 0 ? [] : ["[exit \(status)]"])
    }
}
