import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// What the terminal receives, read on a raw pty (Tests/Scripts/pty_capture.py): tmux would
/// hide the bytes behind its own rendering. Emoji of several code points, and the modes.
@Suite("The terminal's bytes on a raw pty", .serialized)
struct TerminalBytesTests {
    private static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/pty_capture.py").path

    private static let family = "👩‍👩‍👧‍👦"  // seven code points
    private static let skinTone = "👍🏽"  // a modifier glibc counts as two columns
    private static let flag = "🇺🇸"  // two regional indicators

    /// Runs the UI on a raw pty through the steps (text to wait for, bytes to send), ending
    /// with Ctrl-C; returns every byte it wrote.
    private func terminalBytes(store: String, steps: [(String, String)]) -> [UInt8] {
        let arguments = steps.flatMap { ["--step", $0.0, $0.1] }
        let run = runProcess(["python3", Self.capture] + arguments + ["--", HotTaskBinary.url.path, "--file", store])
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout.suffix(400).debugDescription)")
        return Array(run.stdout.utf8)
    }

    /// Where `cluster` is written whole right after a cursor move to its cell, the cell after
    /// it is addressed at once and holds `following`: the row's text lands at the right
    /// columns even on a terminal that draws the cluster wider.
    private func writtenWhole(_ cluster: String, width: Int = 2, followedBy following: String, in bytes: [UInt8]) -> (row: Int, column: Int)? {
        let attributes = "(?:\u{1B}\\(B|\u{1B}\\[[0-9;]*m)*"
        let pattern = try! Regex(
            "\u{1B}\\[(\\d+);(\\d+)H" + attributes + cluster + "\u{1B}\\[(\\d+);(\\d+)H" + attributes + following
        )
        .matchingSemantics(.unicodeScalar)
        let text = String(decoding: bytes, as: UTF8.self)
        for match in text.matches(of: pattern) {
            guard let row = Int(match.output[1].substring ?? ""), let column = Int(match.output[2].substring ?? ""),
                Int(match.output[3].substring ?? "") == row, Int(match.output[4].substring ?? "") == column + width
            else { continue }
            return (row, column)
        }
        return nil
    }

    @Test func theFamilySkinToneAndFlagEmojiAreWrittenWholeAtTheirCells() throws {
        let folder = TemporaryFolder()
        for caption in ["\(Self.skinTone) ok", "\(Self.family) fam", "\(Self.flag) flag"] {
            #expect(runHotTask(["--file", folder.storePath, "--add", caption]).status == 0)
        }
        let bytes = terminalBytes(store: folder.storePath, steps: [("flag", "\\x03")])
        // Newest first: the flag on the first task row (5), the family under it, then the thumb.
        // Column 7 is after "› [ ] " or "  [ ] ".
        for (cluster, following, row) in [(Self.flag, " flag", 5), (Self.family, " fam", 6), (Self.skinTone, " ok", 7)] {
            let cell = writtenWhole(cluster, followedBy: following, in: bytes)
            #expect(cell?.row == row && cell?.column == 7, "\(cluster) not written whole at row \(row), column 7")
        }
    }

    /// The clusters: marks after a wide character (NFD kana, a jamo syllable, 漢 with an
    /// acute) used to be dropped by ncurses, and Indic and Thai clusters were given one column.
    @Test func marksAfterWideCharactersAndIndicAndThaiClustersReachTheTerminalWhole() throws {
        let folder = TemporaryFolder()
        let clusters: [(cluster: String, width: Int, word: String)] = [
            ("\u{304B}\u{3099}", 2, " kana"), ("\u{6F22}\u{301}", 2, " han"), ("\u{1112}\u{1161}\u{11AB}", 2, " jamo"),
            ("\u{0915}\u{093F}", 2, " deva"), ("\u{0915}\u{093F}\u{093E}", 3, " three"), ("\u{0E01}\u{0E33}", 2, " thai"),
        ]
        for entry in clusters {
            #expect(runHotTask(["--file", folder.storePath, "--add", entry.cluster + entry.word]).status == 0)
        }
        let bytes = terminalBytes(store: folder.storePath, steps: [("kana", "\\x03")])
        // Newest first, from row 5; column 7 is after "› [ ] " or "  [ ] ".
        for (offset, entry) in clusters.reversed().enumerated() {
            let cell = writtenWhole(entry.cluster, width: entry.width, followedBy: entry.word, in: bytes)
            #expect(cell?.row == 5 + offset && cell?.column == 7, "\(entry.word) not written whole, \(entry.width) columns, at row \(5 + offset)")
        }
    }

    @Test func aPastedClusterIsWrittenWholeInTheInputRow() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "plain"]).status == 0)
        let paste = "\\x1b[200~" + Self.family.utf8.map { "\\x" + String($0, radix: 16) }.joined() + " new\\x1b[201~"
        let bytes = terminalBytes(store: folder.storePath, steps: [("plain", paste), (" new", "\\x03")])
        let cell = writtenWhole(Self.family, followedBy: " new", in: bytes)
        #expect(cell?.row == 2 && cell?.column == 3, "the input row is row 2, its text starts at column 3")
    }

    /// ncurses is told the cluster's cells are blanks and the cluster is written behind its
    /// back: when the task moves up, the row it leaves must still be cleared. (tmux draws the
    /// screen here.)
    @Test func aClusterGoneFromTheGridIsGoneFromTheScreen() throws {
        let session = try TmuxSession(seededCaptions: ["First", "\(Self.family) fam"])
        session.waitForText("fam")
        session.press("Tab")
        session.waitForText("› [ ] First")
        session.type("d")
        let screen = session.waitForScreen("the family task moved up") { $0.contains("Top Priority (1)") }
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let familyRow = try #require(rows.firstIndex { $0.contains("fam") })
        #expect(rows[familyRow + 1].trimmingCharacters(in: .whitespaces).isEmpty, "\(rows[familyRow + 1]) was left under the moved task")
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
    }

    /// Bracketed paste is switched on before the first frame and off again on the way out, so
    /// the shell after HotTask gets no paste brackets.
    @Test func bracketedPasteIsOnWhileTheUIRunsAndOffAfter() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "plain"]).status == 0)
        let text = String(decoding: terminalBytes(store: folder.storePath, steps: [("plain", "\\x03")]), as: UTF8.self)
        let on = try #require(text.range(of: "\u{1B}[?2004h"), "never switched on")
        let frame = try #require(text.range(of: "plain"))
        let off = try #require(text.range(of: "\u{1B}[?2004l", options: .backwards), "never switched off")
        #expect(on.lowerBound < frame.lowerBound && frame.lowerBound < off.lowerBound)
        #expect(!text[off.upperBound...].contains("\u{1B}[?2004h"))
    }
}
