import Foundation
import TestSupport
import Testing

/// A HotTask export brought back with `--import` (no `--replace`) never undoes a change made
/// here after it was written: not a second later, and not in the same second, as a script that
/// exports, changes and restores runs.
@Suite("a HotTask export imported again")
struct ExportReimportTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }
    private func hottask(_ args: String...) -> [String] { ["--file", store] + args }

    @Test func aChangeMadeInTheSameSecondAsTheExportStays() {
        expectRun(hottask("--quiet", "--add", "Original"))
        let backup = folder.path("backup.json")
        expectRun(hottask("--quiet", "--export", backup))
        expectRun(hottask("--quiet", "--edit", "1", "Edited here"))
        expectRun(hottask("--import", backup), stdout: "Imported from HotTask \(backup): added 0, updated 0, unchanged 1, skipped 0\n")
        expectRun(hottask("--list"), stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Edited here\nBonus (0)\n  (none)\n")
    }

    @Test func aChangeMadeLaterStays() {
        expectRun(hottask("--quiet", "--add", "Call mum"))
        let backup = folder.path("backup.json")
        expectRun(hottask("--quiet", "--export", backup))
        Thread.sleep(forTimeInterval: 1.1)  // a person's pace
        expectRun(hottask("--quiet", "--edit", "1", "Call mum back"))
        expectRun(hottask("--import", backup), stdout: "Imported from HotTask \(backup): added 0, updated 0, unchanged 1, skipped 0\n")
        expectRun(hottask("--list"), stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] Call mum back\nBonus (0)\n  (none)\n")
    }
}
