import Foundation
import Testing

/// Snapshot files: whole outputs kept beside the tests (`Snapshots/` in the calling test's
/// folder), compared byte for byte. They are written again only when asked, as
/// swift-argument-parser's are: `HOTTASK_RECORD_SNAPSHOTS=1 swift test --filter …`. A recording
/// run fails on purpose, so that it can never pass for a check; the next run compares.
public enum Snapshot {
    /// The variable that asks for snapshots to be written instead of compared.
    public static let recordVariable = "HOTTASK_RECORD_SNAPSHOTS"

    public static var isRecording: Bool {
        ProcessInfo.processInfo.environment[recordVariable].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    /// The folder of snapshots for the test file at `filePath`.
    public static func folder(for filePath: String) -> String {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots").path
    }

    /// Writes `text` as the snapshot at `path` and records that it did.
    public static func record(_ text: String, at path: String, sourceLocation: SourceLocation) {
        try? FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        if FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) {
            Issue.record("recorded \(path); run again without \(recordVariable) to compare", sourceLocation: sourceLocation)
        } else {
            Issue.record("could not write the snapshot \(path)", sourceLocation: sourceLocation)
        }
    }
}

/// Compares `actual` with the snapshot file `name` (in `Snapshots/` beside the calling test),
/// byte for byte; records it instead when `HOTTASK_RECORD_SNAPSHOTS` is set.
public func expectSnapshot(
    _ actual: String, named name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
    let path = Snapshot.folder(for: filePath) + "/" + name
    if Snapshot.isRecording {
        Snapshot.record(actual, at: path, sourceLocation: sourceLocation)
        return
    }
    guard let expected = fileText(path) else {
        Issue.record("no snapshot \(path); make it with \(Snapshot.recordVariable)=1", sourceLocation: sourceLocation)
        return
    }
    guard actual != expected else { return }
    Issue.record(
        "differs from the snapshot \(name) (\(Snapshot.recordVariable)=1 records it again):\n\(OutputPattern.exactDifference(expected, actual))",
        sourceLocation: sourceLocation)
}

/// Runs the transcript snapshot file `name` (a `.console` file in `Snapshots/` beside the
/// calling test) in `session` and compares every command's whole output with the file's; with
/// `HOTTASK_RECORD_SNAPSHOTS` set, writes what really came into the file instead.
public func expectTranscript(
    named name: String, in session: TranscriptSession = TranscriptSession(), filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let path = Snapshot.folder(for: filePath) + "/" + name
    guard let text = fileText(path) else {
        Issue.record("no transcript \(path)", sourceLocation: sourceLocation)
        return
    }
    let written = Transcript(parsing: text)
    let recorded = session.expect(written, place: name, sourceLocation: sourceLocation)
    if Snapshot.isRecording && recorded != written {
        Snapshot.record(recorded.text, at: path, sourceLocation: sourceLocation)
    }
}
