import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 50 item 14: re-importing a todo.txt of identical lines grows linearly with its lines
/// (20,000 took 16–29 s, each line looking past every one claimed before it). Ratios of CPU
/// time only, with room for noise: ten times the lines may cost at most 25 times the time
/// (quadratic is 100 times).
@Suite("todo.txt import scaling", .serialized)
struct ImportScalingTests {
    let folder = TemporaryFolder()

    /// The CPU seconds of re-importing `count` identical lines into a store that has them.
    private func reimportSeconds(_ count: Int) throws -> Double {
        let file = folder.write(String(repeating: "Buy milk\n", count: count), to: "todo-\(count).txt")
        let store = TaskStore(path: folder.path("tasks-\(count).json"))
        _ = try store.importTasks(from: file, as: .todotxt, replacing: false, dates: .runningNow)
        let before = clock()
        let said = try store.importTasks(from: file, as: .todotxt, replacing: false, dates: .runningNow)
        let seconds = Double(clock() - before) / Double(CLOCKS_PER_SEC)
        #expect(said.contains(CommandMessage.status("Imported from todo.txt \(file): added 0, updated 0, unchanged \(count), skipped 0")), "\(said)")
        return seconds
    }

    @Test func reimportingIdenticalLinesIsLinear() throws {
        _ = try reimportSeconds(200)  // warm
        let small = try reimportSeconds(1_000)
        let large = try reimportSeconds(10_000)
        #expect(large / max(small, 0.001) <= 25, "1,000 lines: \(small) s; 10,000: \(large) s")
    }
}
