import HotTaskSettings
import TestSupport
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Long random streams of keys, text (controls, marks, emoji, wide and bidi characters) and
/// resizes from 1×1 to 300×100, fed to `update` and `render`. Whatever arrives, the screen
/// keeps its promises.
@Suite("Hostile keys and sizes")
struct HostileInputTests {
    static let namedKeys: [Key] =
        [
            .enter, .tab, .backTab, .backspace, .delete, .escape, .up, .down, .left, .right, .home, .end,
            .pageUp, .pageDown, .function(1), .function(2), .function(12),
        ] + "abdefgkluwzr".map { Key.control($0) } + " xmdjkgGqi/[]?".map { Key.character($0) }

    /// Scalars from the ranges most likely to break a terminal UI.
    static func randomScalar(_ generator: inout SeededGenerator) -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x20...0x7E, 0x7F...0x9F, 0xA0...0x2FF, 0x300...0x36F, 0x200B...0x200F, 0x2028...0x202E,
            0x2066...0x2069, 0x3000...0x30FF, 0x4E00...0x9FFF, 0xFE00...0xFE0F, 0x1F1E6...0x1F1FF, 0x1F300...0x1F9FF,
            0xE0000...0xE007F, 0x10FFF0...0x10FFFF,
        ]
        let range = ranges.randomElement(using: &generator)!
        return Unicode.Scalar(UInt32.random(in: range, using: &generator)) ?? "?"
    }

    static func randomEvent(_ generator: inout SeededGenerator) -> Event {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<45: return .keyPressed(.character(Character(randomScalar(&generator))))
        case 45..<85: return .keyPressed(namedKeys.randomElement(using: &generator)!)
        case 85..<93:
            let size =
                Int.random(in: 0..<4, using: &generator) == 0
                ? Size(width: Int.random(in: 1...300, using: &generator), height: Int.random(in: 1...100, using: &generator))
                : Size(width: Int.random(in: 1...60, using: &generator), height: Int.random(in: 1...20, using: &generator))
            return .resized(size)
        case 93..<97: return .wheelScrolled(lines: Int.random(in: -30...30, using: &generator))
        default: return .saveFailed(reason: "disk full \u{1B}[2J")
        }
    }

    @Test(arguments: 1...8)
    func randomEventsNeverBreakTheScreen(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var state = makeState(makeList(priority: numberedTasks(40), bonus: numberedTasks(5), completed: ["Task 3"]))
        for step in 0..<1_500 {
            _ = AppUpdate.update(&state, Self.randomEvent(&generator), now: testNow)
            let grid = AppRender.render(state, size: state.size)
            let where_ = "seed \(seed), step \(step), size \(state.size.width)×\(state.size.height)"
            #expect(state.tasks.isEmpty || state.selection < state.tasks.count, "\(where_)")
            #expect(state.selectionIsVisible, "\(where_)")
            #expect(
                grid.cells.allSatisfy { cell in
                    cell.character.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
                }, "nothing raw reaches the terminal: \(where_)")
            guard !state.screen.isTooSmall else {
                #expect(grid.cursor == nil, "\(where_)")
                continue
            }
            // A view (history, calendar) takes the screen below the title until Esc or q.
            if state.focus != .history && state.focus != .calendar {
                #expect(grid.line(1).hasPrefix("+"), "the input row is visible: \(where_)")
            }
            if state.focus == .input && state.help == nil {
                let cursor = grid.cursor
                #expect(cursor?.y == 1, "\(where_)")
                #expect((2..<(state.size.width - 6)).contains(cursor?.x ?? -1), "the cursor is inside the input field: \(where_)")
            }
        }
    }

    @Test func theCaptionRuleCleansAnyText() throws {
        var generator = SeededGenerator(seed: 77)
        for _ in 0..<3_000 {
            var raw = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...40, using: &generator) { raw.append(Self.randomScalar(&generator)) }
            guard let caption = try? CaptionRule.clean(String(raw)) else { continue }
            #expect(!caption.isEmpty && caption.count <= CaptionRule.maximumLength)
            #expect(caption.first?.isWhitespace == false && caption.last?.isWhitespace == false)
            let removed: [ClosedRange<UInt32>] = [0...0x1F, 0x7F...0x9F, 0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069, 0x61C...0x61C]
            #expect(!caption.unicodeScalars.contains { scalar in removed.contains { $0.contains(scalar.value) } }, "\(caption.debugDescription)")
            #expect(try CaptionRule.clean(caption) == caption, "cleaning is idempotent")
        }
    }
}
