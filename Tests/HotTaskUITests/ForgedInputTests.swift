import Foundation
import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Issue 50, finding 12: whatever bytes arrive on the terminal's input (a forged mouse report,
/// a pasted dump, line noise), the decoder and the app take them without a trap.
@Suite("Forged terminal input")
struct ForgedInputTests {
    @Test func aMouseReportWithNumbersOutOfRangeIsClampedNeverATrap() {
        // The report that trapped (exit 132): a column of Int.min.
        #expect(decode("\u{1B}[<0;-9223372036854775808;1M") == [], "column 0 after clamping: off the screen, dropped")
        #expect(decode("\u{1B}[<0;5;-9223372036854775808M") == [])
        #expect(decode("\u{1B}[<-9223372036854775808;5;5Mx") == [.keyPressed(.character("x"))], "no button is below 0")
        #expect(
            decode("\u{1B}[<0;99999999;99999999Mx") == [.clicked(column: 65535, row: 65535), .keyPressed(.character("x"))],
            "far beyond the screen: clamped, and what follows still works")
        #expect(decode("\u{1B}[<0;99999999999999999999999;1M") == [], "a number too long for Int is no report")
        // A click far beyond the screen selects nothing and changes nothing.
        var state = makeState(makeList(priority: ["Buy milk"]))
        let before = state.tasks
        _ = AppUpdate.update(&state, .clicked(column: 65535, row: 65535), now: testNow)
        #expect(state.tasks == before)
    }

    /// Bytes most likely to start, cut or overflow a sequence, among any others.
    private static func randomByte(_ generator: inout SeededGenerator) -> UInt8 {
        let pieces: [[UInt8]] = [[0x1B], Array("[".utf8), Array("<".utf8), Array(";".utf8), Array("-".utf8), Array("M".utf8), Array("m".utf8)]
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<3: return pieces.randomElement(using: &generator)![0]
        case 3..<6: return UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &generator)
        default: return UInt8.random(in: 0...255, using: &generator)
        }
    }

    /// Random bytes, decoded as the app decodes its input (UTF-8, then sequences, then the
    /// timeout of a lone Esc) and given to `update` and `render`: no trap, and every click is
    /// within the clamped range. A bounded run here; `HOTTASK_FUZZ_ROUNDS` runs more seeds.
    @Test(arguments: 1...6)
    func randomBytesNeverCrashTheDecoderOrTheApp(seed: UInt64) {
        let rounds = UInt64(ProcessInfo.processInfo.environment["HOTTASK_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 1)
        for round in 0..<max(1, rounds) {
            var generator = SeededGenerator(seed: seed &+ round &* 1_000_003)
            var bytes = UTF8Bytes()
            var decoder = InputDecoder()
            var state = makeState(makeList(priority: numberedTasks(30), bonus: numberedTasks(5)))
            for step in 0..<20_000 {
                var events = bytes.feed(Self.randomByte(&generator)).flatMap { decoder.feed($0) }
                if decoder.pendingTimeout != nil, Int.random(in: 0..<50, using: &generator) == 0 { events += decoder.timedOut() }
                _ = decoder.takeReports()
                for event in events {
                    if case .clicked(let column, let row) = event {
                        #expect((0...InputDecoder.largestCoordinate).contains(column) && (0...InputDecoder.largestCoordinate).contains(row))
                    }
                    // Quitting or running a command would end the run; only the keys' effects on state matter.
                    _ = AppUpdate.update(&state, event, now: testNow)
                }
                if step % 500 == 0 { _ = AppRender.render(state, size: state.size) }
            }
        }
    }
}
