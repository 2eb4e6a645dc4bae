import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The note's editor has the terminal while the loop waits: what another program does to the
/// same task meanwhile is not written over, and what was typed in the editor is not lost.
@Suite("Notes in $EDITOR beside another writer, in tmux")
struct NoteEditorTmuxTests {
    /// An "editor" that writes the note, then runs `meanwhile` as another program would.
    private func editor(in folder: TemporaryFolder, storePath: String, meanwhile: String) throws -> String {
        let path = folder.path("editor.sh")
        let script =
            "#!/bin/sh\nprintf 'Landlord: 555-0199\\n' > \"$1\"\n'\(HotTaskBinary.url.path)' --file '\(storePath)' \(meanwhile) > /dev/null\n"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @Test(arguments: ["--delete 2", "--edit 2 --note 'Cash only'"])
    func whatAnotherProgramDidMeanwhileStandsAndTheTypedNoteIsKept(_ meanwhile: String) throws {
        let scratch = TemporaryFolder()
        let editorPath = try editor(in: scratch, storePath: scratch.storePath, meanwhile: meanwhile)
        let app = try TmuxSession(
            seededCaptions: ["Pay rent", "Call mum"], width: 320, environment: ["TMPDIR": scratch.path, "VISUAL": "", "EDITOR": editorPath],
            storePath: scratch.storePath)
        app.waitForText("Call mum")
        app.press("Tab", "j", "n")
        // The footer says what happened, and where the text is (wide enough for any TMPDIR).
        let reason = meanwhile.hasPrefix("--delete") ? "its task was deleted elsewhere meanwhile" : "the note was changed elsewhere meanwhile"
        app.waitForText("Note not saved: \(reason); your text is kept in \(scratch.path)/hottask-note-")
        let list = try TaskStore(path: scratch.storePath).load()
        if meanwhile.hasPrefix("--delete") {
            #expect(list.all.map(\.caption) == ["Pay rent"], "the deleted task stays deleted")
        } else {
            #expect(list.all.first { $0.caption == "Call mum" }?.note == "Cash only", "the other program's note stands")
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("hottask-note-") }
        #expect(kept.count == 1)
        #expect(try String(contentsOfFile: scratch.path(kept[0]), encoding: .utf8) == "Landlord: 555-0199\n")
        app.expectScreenSnapshot(
            named: "whatAnotherProgramDidMeanwhileStandsAndTheTypedNoteIsKept-" + (meanwhile.hasPrefix("--delete") ? "delete" : "note"))
        app.press("C-c")
        #expect(app.waitForExit().contains("exited with 0"))
    }

    /// Issue 48: vim's `:q!` saved what it threw away. The first editor fails and leaves text
    /// (kept for the next `n`); the second is offered it in a file named as kept, and quits
    /// without writing: the note stays unset, and the kept text is dropped.
    @Test func anEditorThatQuitsWithoutWritingAfterAFailedOneLeavesTheNoteUnset() throws {
        let scratch = TemporaryFolder()
        let editorPath = scratch.path("editor.sh")
        let log = scratch.path("opened")
        // First run: writes and fails (exit 1). Later runs: only note which file they were given.
        let script = """
            #!/bin/sh
            echo "$1" >> '\(log)'
            if [ ! -e '\(scratch.path("failed-once"))' ]; then
                touch '\(scratch.path("failed-once"))'; printf 'Thrown away\\n' > "$1"; exit 1
            fi
            exit 0

            """
        try script.write(toFile: editorPath, atomically: true, encoding: .utf8)
        chmod(editorPath, 0o755)
        let app = try TmuxSession(
            seededCaptions: ["Pay rent"], width: 320, environment: ["TMPDIR": scratch.path, "VISUAL": "", "EDITOR": editorPath],
            storePath: scratch.storePath)
        app.waitForText("Pay rent")
        app.press("Tab", "n")
        app.waitForText("The editor failed")
        app.press("n")
        app.waitForText("Note unchanged: the editor wrote nothing, so the kept text is dropped")
        app.press("n")
        // The second message begins with the third's, so the screen alone cannot say the third
        // editor has run: wait for its line in the log, then for its message.
        let openedLines = { (fileText(log) ?? "").split(separator: "\n") }
        waitUntil("the editor has been opened three times") { openedLines().count >= 3 }
        let third = "Note unchanged: the editor wrote nothing"
        app.waitForScreen("\"\(third)\" alone in the footer") { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix(third + "  ") }
        }
        let opened = openedLines().map { String($0.split(separator: "/").last ?? "") }
        #expect(opened.count == 3)
        #expect(opened.map { $0.hasPrefix("hottask-note-kept-") } == [false, true, false], "\(opened)")
        app.expectScreenSnapshot()
        app.press("C-c")
        #expect(app.waitForExit().contains("exited with 0"))
        #expect(try TaskStore(path: scratch.storePath).load().all.map(\.note) == [""], "the note is still unset")
    }
}
