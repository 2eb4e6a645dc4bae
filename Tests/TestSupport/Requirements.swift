import Foundation
import Testing

/// What the tests need from the machine. A test never skips for want of something: it fails,
/// naming what is missing and how to get it (`make test-deps` installs every tool).

/// True when `name` is an executable on PATH.
public func isOnPath(_ name: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}

/// Fails the test unless `tool` is on PATH (or, given as an absolute path, exists).
public func requireTool(_ tool: String, from package: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let present = tool.hasPrefix("/") ? FileManager.default.isExecutableFile(atPath: tool) : isOnPath(tool)
    try #require(present, "\(tool) is needed: apt-get install \(package) (make test-deps installs it)", sourceLocation: sourceLocation)
}

/// The value of a variable `make test` sets for the tests (a path to what it built); the test
/// fails when it is not set, naming the variable.
public func requireVariable(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let value = ProcessInfo.processInfo.environment[name] ?? ""
    try #require(!value.isEmpty, "\(name) is not set: run the tests through make test, which builds what it names", sourceLocation: sourceLocation)
    return value
}

/// The command prefix that runs a command as root: nothing as root, `sudo -n` otherwise.
public var asRoot: [String] { getuid() == 0 ? [] : ["sudo", "-n"] }
