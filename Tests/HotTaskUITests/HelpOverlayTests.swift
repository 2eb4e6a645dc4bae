import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// The help overlay at any size: it wraps instead of cutting, scrolls, and lists every key.
@Suite("Help overlay at any size")
struct HelpOverlayTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 80, height: 12), Size(width: 40, height: 10), Size(width: 24, height: 6)]

    /// Opens the help of `focus` and scrolls it to the end with ↓, reading each row of the box
    /// once; returns the keys column and the actions column, each row's text joined by spaces.
    private func readWholeHelp(_ focus: Focus, size: Size) -> (keys: String, actions: String, lines: [String]) {
        var state = makeState(makeList(priority: ["Buy milk"], bonus: ["Read"]), size: size)
        switch focus {
        case .input: break
        case .list: state.press(.tab)
        case .filter: state.press(.control("f"))
        case .editing: state.press(.tab, .character("e"))
        case .due: state.press(.tab, .character("w"))
        case .repeating: state.press(.tab, .character("r"))
        case .listing:
            // The prompt opens only when there is another list to move to.
            let work = TaskItem(caption: "Plan the week", createdAt: Date(timeIntervalSince1970: 0), list: "Work")
            state = makeState(TaskList(state.tasks.all + [work]), size: size)
            state.press(.tab, .character("T"))
        case .history: state.press(.tab, .character("H"))
        case .calendar: state.press(.tab, .character("W"))
        }
        state.press(.function(1))
        guard let help = HelpLayout.of(state) else {
            Issue.record("no help open")
            return ("", "", [])
        }
        var keys: [String] = []
        var actions: [String] = []
        var lines: [String] = []
        func read(rows: Range<Int>) {
            let grid = AppRender.render(state, size: size)
            lines += grid.lines
            for row in rows {
                let line = Array(grid.line(help.top + 1 + row - state.helpScroll))
                let text = { (from: Int, to: Int) in
                    String(line[min(from, line.count)..<min(to, line.count)]).trimmingCharacters(in: .whitespaces)
                }
                // Columns hold one character each here (the help's text is narrow).
                keys.append(text(help.left + 2, help.left + 2 + help.keyColumn))
                actions.append(text(help.left + 2 + help.keyColumn + 2, help.left + help.boxWidth - 2))
            }
        }
        while true {
            let scroll = state.helpScroll
            if scroll == help.maximumScroll {
                read(rows: scroll..<(scroll + help.boxHeight - 2))
                break
            }
            read(rows: scroll..<(scroll + 1))
            state.press(.down)
            #expect(state.help != nil, "↓ scrolls, it does not close the help")
            #expect(state.helpScroll == scroll + 1)
        }
        return (keys.joined(separator: " "), actions.joined(separator: " "), lines)
    }

    @Test(arguments: sizes)
    func everyKeyOfEveryFocusCanBeReadWholeAtThisSize(size: Size) {
        for focus in [Focus.input, .list, .filter, .editing, .due, .repeating] {
            let (keys, actions, lines) = readWholeHelp(focus, size: size)
            // A word longer than the column is broken across rows (24 columns): compare without spaces.
            let squeeze = { (text: String) in text.split(separator: " ").joined() }
            for entry in KeyHelp.entries(for: focus) {
                #expect(squeeze(actions).contains(squeeze(entry.action)), "\(focus) at \(size): “\(entry.action)” is not there whole")
                for key in entry.keys.split(separator: " ") {
                    #expect(keys.contains(key), "\(focus) at \(size): key \(key)")
                }
            }
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= size.width })
            #expect(!actions.contains("…") && !keys.contains("…"), "nothing is cut with an ellipsis")
        }
    }

    @Test func atFortyByTenItScrollsAndSaysWhere() {
        var state = makeState(makeList(priority: ["Buy milk"]), size: Size(width: 40, height: 10))
        state.press(.tab, .character("?"))
        expectScreenSnapshot(state, named: "HelpOverlayTests.atFortyByTenItScrollsAndSaysWhere")
        state.press(.pageDown)
        #expect(state.helpScroll == 5)
        expectScreenSnapshot(state, named: "HelpOverlayTests.atFortyByTenItScrollsAndSaysWhere-2")
        state.press(.end)
        expectScreenSnapshot(state, named: "HelpOverlayTests.atFortyByTenItScrollsAndSaysWhere-3")
        state.press(.pageUp, .home)
        #expect(state.helpScroll == 0)
        _ = AppUpdate.update(&state, .wheelScrolled(lines: 3), now: testNow)
        #expect(state.helpScroll == 3, "the wheel scrolls the help")
        let before = state.tasks
        state.press(.character("d"))
        #expect(state.help == nil, "any other key closes it")
        #expect(state.tasks == before, "and does nothing else")
        state.press(.character("?"))
        #expect(state.helpScroll == 0, "it opens at its top")
    }

    @Test func whenEverythingFitsArrowsCloseItAsBefore() {
        var state = makeState(makeList(priority: ["Buy milk"]))
        state.press(.tab, .character("?"))
        #expect(HelpLayout.of(state)?.maximumScroll == 0)
        expectScreenSnapshot(state, named: "HelpOverlayTests.whenEverythingFitsArrowsCloseItAsBefore")
        state.press(.down)
        #expect(state.help == nil)
        #expect(state.selection == 0, "the key only closed the help")
    }

    @Test func aLongSyncFailureWrapsAndScrollsWithTheKeys() {
        var state = makeState(makeList(priority: ["A"]), size: Size(width: 40, height: 10))
        let reason = "the server refused the login: 401 Unauthorized; check the password_command in the [sync] table"
        _ = AppUpdate.update(&state, .synced(SyncStatus(summary: "sync failed 14:05", failure: reason)), now: testNow)
        state.press(.function(1))
        expectScreenSnapshot(state, named: "HelpOverlayTests.aLongSyncFailureWrapsAndScrollsWithTheKeys")
    }

    @Test func wrapBreaksALongWordInsteadOfCuttingIt() {
        #expect(HelpLayout.wrap("a verylongwordindeed b", width: 6) == ["a", "verylo", "ngword", "indeed", "b"])
        #expect(HelpLayout.wrap("漢字漢字 x", width: 3) == ["漢", "字", "漢", "字", "x"], "a wide character is never split")
    }
}
