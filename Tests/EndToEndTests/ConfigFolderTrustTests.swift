import Foundation
import TestSupport
import Testing

/// Issue 50, finding 11: a config holding a password_command is refused, as a config others
/// can change is, when it lies in a folder where others could replace it; nothing runs.
@Suite("A config others could replace is not trusted with a command")
struct ConfigFolderTrustTests {
    let folder = TemporaryFolder()

    /// A config whose password_command leaves a mark, in `subfolder` (made with `mode`).
    private func config(in subfolder: String, mode: mode_t) -> (config: String, marker: String) {
        let path = folder.path(subfolder)
        #expect(mkdir(path, 0o700) == 0 || errno == EEXIST)
        #expect(chmod(path, mode) == 0)
        let marker = folder.path("ran")
        let config = folder.write(
            "[sync]\nurl = \"http://127.0.0.1:9/calendar/\"\nusername = \"u\"\npassword_command = \"touch \(marker); echo p\"\n",
            to: subfolder + "/config.toml")
        #expect(chmod(config, 0o600) == 0)
        return (config, marker)
    }

    private func expectRefused(_ config: String, naming folder: String, owner: String, mode: String, marker: String) {
        expectRun(
            ["--file", self.folder.storePath, "--config", config, "--sync"],
            stderr:
                "hottask: warning: config \(config): holds a password_command but is in a folder others may write (\(folder), owner \(owner), mode \(mode)), "
                + "where it can be replaced; keep it in a folder of your own; [sync] not used\nhottask: cannot sync: the config has a problem (above)\n",
            status: 5)
        #expect(!FileManager.default.fileExists(atPath: marker), "the command never ran")
    }

    @Test func aConfigInAFolderAnyoneMayWriteIsRefusedAndNothingRuns() throws {
        let (config, marker) = config(in: "open", mode: 0o777)
        expectRefused(config, naming: folder.path("open"), owner: "root", mode: "777", marker: marker)
        // A folder above it that anyone may write: the config's folder can be swapped whole.
        #expect(chmod(folder.path("open"), 0o755) == 0)
        #expect(chmod(folder.path, 0o777) == 0)
        defer { chmod(folder.path, 0o755) }
        expectRefused(config, naming: folder.path, owner: "root", mode: "777", marker: marker)
    }

    @Test func aConfigInAnotherUsersStickyFolderIsRefused() throws {
        let (config, marker) = config(in: "shared", mode: 0o1777)
        #expect(chown(folder.path("shared"), 65534, 65534) == 0)
        expectRefused(config, naming: folder.path("shared"), owner: "nobody", mode: "1777", marker: marker)
    }

    /// A sticky folder of root's (as /tmp is) keeps the user's file theirs: the command runs.
    @Test func aConfigInRootsStickyFolderIsUsed() throws {
        let (config, marker) = config(in: "tmp", mode: 0o1777)
        expectRun(
            ["--file", folder.storePath, "--config", config, "--sync"],
            stderr: "hottask: sync with http://127.0.0.1:9/calendar/ failed: cannot reach http://127.0.0.1:9/calendar/: "
                + "127.0.0.1:9 refused the connection (is the server running?); every local change is kept\n",
            status: 5)
        #expect(FileManager.default.fileExists(atPath: marker), "the password command ran")
    }
}
