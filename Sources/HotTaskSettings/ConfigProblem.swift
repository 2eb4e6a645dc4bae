/// The first problem in a config file, as one line naming the file and line. Every program
/// that reads the file (the UI, the command line, `--sync-setup`) says it the same way.
public struct ConfigProblem: Error, Equatable, Sendable, CustomStringConvertible {
    let file: String
    public let line: Int?
    public let reason: String
    /// What HotTask does about it: "using the defaults" (the whole file is set aside),
    /// "skipped" (only this line), or what else it leaves out.
    let consequence: String

    public init(file: String, line: Int?, reason: String, consequence: String = "using the defaults") {
        self.file = file
        self.line = line
        self.reason = reason
        self.consequence = consequence
    }

    /// With the full path: for the command line's stderr.
    public var description: String {
        "config \(file)\(line.map { " line \($0)" } ?? ""): \(reason); \(consequence)"
    }

    /// With the file's name only: for the UI's one-line footer, where a long path would
    /// push the line number and the reason off the screen.
    public var shortDescription: String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return "\(name)\(line.map { " line \($0)" } ?? ""): \(reason); \(consequence)"
    }
}
