import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// A suite that runs the built `hottask` on a store in a temporary folder of its own, as a
/// script would (the command-line suites).
protocol StoreFolderSuite {
    var folder: TemporaryFolder { get }
}

extension StoreFolderSuite {
    var store: String { folder.storePath }

    /// Runs `hottask --file <store> args...`.
    func hottask(
        _ args: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(["--file", store] + args, stdin: stdin, sourceLocation: sourceLocation)
    }

    /// Writes `list` as the store file.
    func seed(_ list: TaskList = Fixtures.sampleList()) {
        folder.write(StoreDocument.encode(list), to: "tasks.json")
    }

    /// What the store holds: the snapshot and the journal of recent adds.
    func stored() throws -> TaskList {
        try TaskStore(path: store).load()
    }

    func captions(_ section: Section) throws -> [String] {
        try stored().tasks(in: section).map(\.caption)
    }
}
