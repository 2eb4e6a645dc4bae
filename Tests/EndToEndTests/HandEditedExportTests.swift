import Foundation
import TestSupport
import Testing

/// A HotTask export edited by hand keeps the stamps it was written with. Imported, its edits
/// must win: no writer changes a field without moving its stamp, so the same stamp with other
/// values is a person's edit. An older file still never undoes a later change made here.
@Suite("a HotTask export edited by hand")
struct HandEditedExportTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }
    private func hottask(_ args: String...) -> [String] { ["--file", store] + args }
    private func personPause() { Thread.sleep(forTimeInterval: 1.1) }

    private func edit(_ file: String, _ from: String, _ to: String) throws {
        let text = try #require(fileText(file))
        #expect(text.contains(from))
        folder.write(text.replacingOccurrences(of: from, with: to), to: URL(fileURLWithPath: file).lastPathComponent)
    }

    @Test func itsEditsWinEachTimeItIsImported() throws {
        expectRun(hottask("--quiet", "--add", "Call mum", "--add", "Buy milk"))
        let backup = folder.path("backup.json")
        expectRun(hottask("--quiet", "--export", backup))
        personPause()
        try edit(backup, "\"Call mum\"", "\"Call mum back\"")
        expectRun(hottask("--import", backup), stdout: "Imported from HotTask \(backup): added 0, updated 1, unchanged 1, skipped 0\n")
        personPause()
        try edit(backup, "\"Call mum back\"", "\"Call mum on Sunday\"")
        expectRun(hottask("--import", backup), stdout: "Imported from HotTask \(backup): added 0, updated 1, unchanged 1, skipped 0\n")
        expectRun(
            hottask("--list"),
            stdout: "Get started - 2 to go!\n\nTop Priority (2)\n  1. [ ] Call mum on Sunday\n  2. [ ] Buy milk\nBonus (0)\n  (none)\n")
    }

    /// A base from another file's import (todo.txt here) and a change here since: the export
    /// written after that change, then edited, still wins.
    @Test func itsEditsWinOverATaskAnotherImportBrought() throws {
        let todo = folder.write("Call mum\n", to: "todo.txt")
        expectRun(hottask("--import", todo), stdout: "Imported from todo.txt \(todo): added 1, updated 0, unchanged 0, skipped 0\n")
        personPause()
        expectRun(hottask("--quiet", "--edit", "1", "Call mum today"))
        let backup = folder.path("backup.json")
        expectRun(hottask("--quiet", "--export", backup))
        personPause()
        try edit(backup, "\"Call mum today\"", "\"Call mum tonight\"")
        expectRun(hottask("--import", backup), stdout: "Imported from HotTask \(backup): added 0, updated 1, unchanged 0, skipped 0\n")
        expectRun(hottask("--list"), stdout: "Get started - 1 to go!\n\nTop Priority (0)\n  (none)\nBonus (1)\n  1. [ ] Call mum tonight\n")
    }

    @Test func anOlderFileNeverUndoesALaterChangeHere() {
        expectRun(hottask("--quiet", "--add", "Call mum"))
        let backup = folder.path("backup.json")
        expectRun(hottask("--quiet", "--export", backup))
        personPause()
        expectRun(hottask("--quiet", "--edit", "1", "Call mum back"))
        expectRun(hottask("--import", backup), stdout: "Imported from HotTask \(backup): added 0, updated 0, unchanged 1, skipped 0\n")
        expectRun(hottask("--list"), stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Call mum back\nBonus (0)\n  (none)\n")
    }
}
