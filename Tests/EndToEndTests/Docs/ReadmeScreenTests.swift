import Foundation
import TestSupport
import Testing

/// The README's screen capture is the app's screen: the sample list, Tab pressed, at 80×24 in
/// tmux, compared whole with the text block after `<!-- screen:` in the README.
@Suite("The README's screen")
struct ReadmeScreenTests {
    @Test func theReadmesCaptureIsWhatTheAppShows() throws {
        let readme = MarkdownDocument(named: "README.md")
        let marker = try #require(readme.text.range(of: "<!-- screen:"), "the README has no <!-- screen: … --> capture")
        let line = readme.text[..<marker.lowerBound].filter { $0 == "\n" }.count + 1
        let block = try #require(readme.blocks.first { $0.line > line }, "no block after the screen marker")
        let expected = OutputPattern.lines(block.text)

        let folder = TemporaryFolder()
        let sample = try #require(fileBytes(MarkdownDocument.root + "/Assets/sample-tasks.json"))
        let store = folder.write(sample, to: "tasks.json")
        let session = try TmuxSession(storePath: store)
        session.expectScreen(["...", "+ Type a new task and press Enter[..]", "..."])
        session.press("Tab")
        session.expectScreen(expected)
    }
}
