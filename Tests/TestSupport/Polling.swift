import Foundation
import Testing

/// Polls `condition` until it holds, at most `timeout` seconds; records an issue naming `what`
/// when it never does. Tests wait with this, never with a sleep as the assertion.
public func waitUntil(
    _ what: String, timeout: TimeInterval = 30, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) rethrows {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        guard Date() < deadline else {
            Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
            return
        }
        usleep(20_000)
    }
}
