import Foundation
import TestSupport
import Testing

/// The lock files are side files too (docs/STORE.md): regular files of your own. A named pipe
/// in their place was once taken as a lock (issue 48); now it is named, with the fix, and
/// nothing is changed or waited for.
@Suite("lock files are regular files")
struct LockFileTrustTests {
    let folder = TemporaryFolder()

    @Test func aNamedPipeInPlaceOfTheStoreLockIsAnErrorNamingItNeverAWait() throws {
        expectRun(["--file", folder.storePath, "--add", "A"], stdout: "Added to Top Priority: A\n")
        let lock = folder.path("tasks.json.lock")
        unlink(lock)
        #expect(mkfifo(lock, 0o600) == 0)
        expectRun(
            ["--file", folder.storePath, "--add", "B"],
            stderr:
                "hottask: could not save the task store \(folder.storePath): the lock file \(lock) is a named pipe (FIFO), not a regular file; move it away (it holds no tasks; HotTask makes a new one). The previous file is unchanged\n",
            status: 3, timeout: 10)
        expectRun(
            ["--file", folder.storePath, "--list"], stdout: "Get started - 1 to go!\n\nTop Priority (1)\n  1. [ ] A\nBonus (0)\n  (none)\n")
        // The fix the line names works.
        #expect(unlink(lock) == 0)
        expectRun(["--file", folder.storePath, "--add", "B"], stdout: "Added to Top Priority: B\n")
    }

    @Test func aNamedPipeInPlaceOfTheSyncLockIsAnErrorNamingItNeverAWait() throws {
        expectRun(["--file", folder.storePath, "--add", "A"], stdout: "Added to Top Priority: A\n")
        let config = folder.write("[sync]\nurl = \"http://127.0.0.1:9/calendar/\"\n", to: "config.toml")
        let lock = folder.path("tasks.json.sync.lock")
        #expect(mkfifo(lock, 0o600) == 0)
        expectRun(
            ["--file", folder.storePath, "--config", config, "--sync"],
            stderr:
                "hottask: sync with http://127.0.0.1:9/calendar/ failed: the lock file \(lock) is a named pipe (FIFO), not a regular file; move it away (it holds no tasks; HotTask makes a new one); every local change is kept\n",
            status: 5, timeout: 10)
    }
}
