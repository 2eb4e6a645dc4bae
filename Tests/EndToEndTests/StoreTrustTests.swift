import Foundation
import HotTaskCore
import Testing
import TestSupport

/// Issue 25's promises with the real binary: no acknowledged change is ever lost silently.
/// Whatever a hostile world does to the store's path and files, a command keeps every change it
/// acknowledged, or refuses naming the file; it never traps, hangs or guesses.
@Suite("No acknowledged change lost silently")
struct StoreTrustTests {
    // MARK: Paths

    /// `--file t/tasks.json` in a folder without `t` once died with SIGILL (exit 132) inside
    /// Foundation's path code. Runs in the folder, so that the path stays relative as typed.
    @Test(arguments: ["t/tasks.json", "t/u/tasks.json", "t//u/v/tasks.json", "./t/tasks.json"])
    func aStoreInFoldersThatDoNotExistYetGetsThemCreatedPrivate(relative: String) throws {
        let folder = TemporaryFolder()
        let inFolder = ["env", "-C", folder.path]
        let add = runHotTask(["--file", relative, "--add", "A"], prefix: inFolder)
        #expect(add.status == 0, "\(add.stderr)")
        let list = runHotTask(["--file", relative, "--list"], prefix: inFolder)
        #expect(list.status == 0)
        #expect(list.stdout.contains("A"))
        let created = try FileManager.default.attributesOfItem(atPath: folder.path("t"))
        #expect((created[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aStorePathThroughAFileIsRefusedNamingItNeverATrap() throws {
        let folder = TemporaryFolder()
        folder.write("not a folder", to: "t")
        let add = runHotTask(["--file", "t/u/tasks.json", "--add", "A"], prefix: ["env", "-C", folder.path])
        #expect(add.status == 3, "a refusal, not a signal: \(add.status)")
        #expect(add.stderr.contains("cannot create the folder t"), "\(add.stderr)")
        #expect(fileText(folder.path("t")) == "not a folder")
    }
}
