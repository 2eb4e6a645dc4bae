import Foundation
import TestSupport
import Testing

/// A sync with nothing to do reads what it must, not what the first sync wrote: a first sync
/// that pulled 2,000 tasks left them, and their base, in the log, and every later sync read and
/// decoded them again (0.46 s of CPU each, 0.82 of the first sync's own). They are folded now.
extension HostileServerEndToEndTests {
    @Test("after a first sync pulls 2,000 tasks, a sync with nothing to do costs at most half its CPU")
    func nothingToDoAfterALargeFirstSync() throws {
        let server = try HostileServer(#"{"tasks": 2000}"#)
        let first = measuredSync(server.url)
        #expect(first.status == 0 && first.stdout.contains("pulled 2000,"), "\(first.stderr)")
        var again: [Double] = []
        for _ in 0..<2 {
            let run = measuredSync(server.url)
            #expect(run.status == 0 && run.stdout.contains("pulled 0, pushed 0, merged 0, deleted 0"), "\(run.stdout)\(run.stderr)")
            again.append(run.cpuSeconds)
        }
        // The least of two: other tests running beside this one only ever add CPU.
        let ratio = again.min()! / max(first.cpuSeconds, 0.001)
        #expect(ratio <= 0.5, "first: \(first.cpuSeconds) s of CPU, nothing to do: \(again) s (\(ratio)×)")
    }
}
