import Foundation
import TestSupport
import Testing

/// Issue 50, finding 1: a symbolic link another user puts in a folder others may write (`/tmp`)
/// is never followed, for the store, `--export FILE` and a vdir export; the victim's file stays
/// as it was. The user's own links (and the folder owner's, and links in a folder only the user
/// writes) are followed as docs/STORE.md says. Run as root, with `nobody` as the other user.
@Suite("Other users' links are not followed")
struct OtherUsersLinksTests {
    /// Under /tmp itself: `make test`'s own temp folder is 0700, which `nobody` cannot enter.
    let folder = TemporaryFolder(under: "/tmp")
    /// A sticky folder anyone may write, as /tmp is, inside the test's folder.
    let shared: String
    /// A file of the user's that a planted link aims at.
    let victim: String

    init() throws {
        try #require(geteuid() == 0, "these tests act as another user (nobody): run them as root, as make test does")
        try requireTool("setpriv", from: "util-linux")
        shared = folder.path("shared")
        #expect(mkdir(shared, 0o700) == 0 && chmod(shared, 0o1777) == 0)
        victim = folder.write("precious\n", to: "victim.txt")
    }

    /// `ln -s target link` run as nobody.
    private func plantLink(_ link: String, to target: String) {
        let run = runProcess(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "ln", "-s", target, link])
        #expect(run.status == 0, "\(run.stderr)")
    }

    private func refusal(_ link: String) -> String {
        "\(link) is a symbolic link of another user (uid 65534, nobody) in \(shared), a folder others may write, "
            + "and HotTask follows no other user's link there: remove the link (rm '\(link)') or give the real path. Nothing was changed"
    }

    private func seedStore() {
        expectRun(["--file", folder.storePath, "--add", "Pay rent"], stdout: "Added to Top Priority: Pay rent\n")
    }

    @Test func anotherUsersLinkAsTheStoreIsRefusedAndItsTargetUnchanged() throws {
        let link = shared + "/tasks.json"
        plantLink(link, to: victim)
        for args in [["--add", "A"], ["--list"], ["--export", "-"], ["--undo"]] {
            expectRun(["--file", link] + args, stderr: "hottask: will not use the task store \(link): \(refusal(link))\n", status: 2)
        }
        // $HOTTASK_FILE is the same path by another way.
        expectRun(
            ["--list"], environment: ["HOTTASK_FILE": link], stderr: "hottask: will not use the task store \(link): \(refusal(link))\n", status: 2)
        #expect(fileText(victim) == "precious\n")
        #expect(folder.contents() == ["shared", "victim.txt"], "no side file made beside the target")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared) == ["tasks.json"])
    }

    @Test func anotherUsersLinkOnTheWayToTheStoreIsRefused() throws {
        let elsewhere = folder.path("mine")
        #expect(mkdir(elsewhere, 0o700) == 0)
        let link = shared + "/data"
        plantLink(link, to: elsewhere)
        expectRun(
            ["--file", link + "/tasks.json", "--add", "A"],
            stderr: "hottask: will not use the task store \(link)/tasks.json: \(refusal(link))\n", status: 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [])
    }

    @Test func anotherUsersLinkAsTheExportFileIsRefusedAndItsTargetUnchanged() throws {
        seedStore()
        let link = shared + "/out.json"
        plantLink(link, to: victim)
        for format in ["hottask", "ics", "todotxt", "taskwarrior"] {
            expectRun(
                ["--file", folder.storePath, "--export", link, "--export-format", format],
                stderr: "hottask: could not write the export file \(link): \(refusal(link))\n", status: 3)
        }
        // After a change the command saved: 6, so that a script does not make it twice.
        expectRun(
            ["--file", folder.storePath, "--add", "B", "--export", link],
            stdout: "Added to Top Priority: B\n",
            stderr: "hottask: saved, but could not write the output: could not write the export file \(link): \(refusal(link)). "
                + "The change is in the store: running the command again would make it twice\n", status: 6)
        #expect(fileText(victim) == "precious\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared) == ["out.json"])
    }

    @Test func anotherUsersLinkAsTheVdirFolderIsRefusedAndItsTargetUnchanged() throws {
        seedStore()
        let calendar = folder.path("calendar")
        #expect(mkdir(calendar, 0o700) == 0)
        let held = folder.write("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", to: "calendar/held.ics")
        let link = shared + "/vdir"
        plantLink(link, to: calendar)
        expectRun(
            ["--file", folder.storePath, "--export", link, "--export-format", "vdir"],
            stderr: "hottask: could not write the vdir folder \(link): \(refusal(link))\n", status: 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: calendar) == ["held.ics"])
        #expect(fileText(held) == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    }

    /// `--sync-setup` writes the config through a link (one kept in a dotfiles repository), so
    /// never through another user's: refused before any network, the target not made.
    @Test func anotherUsersLinkAsTheConfigIsNotWrittenBySyncSetup() throws {
        let link = shared + "/config.toml"
        let target = folder.path("cron-job")
        plantLink(link, to: target)
        expectRun(
            ["--sync-setup", "http://127.0.0.1:9/", "--config", link, "--username", "u", "--password-command", "echo p"],
            stderr: "hottask: cannot set up sync: will not write the config \(link): \(refusal(link))\n", status: 5)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    /// The user's own link in the shared folder, and another user's link in a folder only the
    /// user may write, are followed: a save replaces the target and the link stays.
    @Test func ownLinksAndLinksInAPrivateFolderAreFollowed() throws {
        seedStore()
        let own = shared + "/mine.json"
        #expect(symlink(folder.storePath, own) == 0)
        expectRun(["--file", own, "--add", "Own link"], stdout: "Added to Top Priority: Own link\n")
        let lent = folder.path("lent.json")
        #expect(symlink(folder.storePath, lent) == 0 && lchown(lent, 65534, 65534) == 0)
        expectRun(["--file", lent, "--add", "Lent link"], stdout: "Added to Top Priority: Lent link\n")
        expectRun(
            ["--file", folder.storePath, "--list"],
            stdout: "Get started - 3 to go!\n\nTop Priority (3)\n  1. [ ] Lent link\n  2. [ ] Own link\n  3. [ ] Pay rent\nBonus (0)\n  (none)\n")
        let export = shared + "/export.json"
        #expect(symlink(victim, export) == 0)
        expectRun(["--file", folder.storePath, "--export", export], stdout: "Exported 3 tasks to \(export)\n")
        #expect(fileText(victim)?.contains("\"caption\": \"Own link\"") == true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: own) == folder.storePath)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: export) == victim)
    }

    /// A store of the user's in the shared folder: a link another user puts in place of any
    /// file beside it is never written through, whatever the command.
    @Test(arguments: ["journal", "lock", "bak", "index", "sync", "sync.lock", "imported", "carried", "journal.damaged"])
    func anotherUsersLinkInPlaceOfASideFileIsNeverWrittenThrough(suffix: String) throws {
        let store = shared + "/tasks.json"
        let config = folder.write("[sync]\nurl = \"http://127.0.0.1:9/calendar/\"\n", to: "config.toml")
        let todo = folder.write("(A) Pay rent\n", to: "todo.txt")
        for args in [["--add", "One"], ["--import", todo], ["--add", "Two"]] { #expect(runHotTask(["--file", store] + args).status == 0) }
        #expect(unlink(store + "." + suffix) == 0 || errno == ENOENT)
        plantLink(store + "." + suffix, to: victim)
        for args in [
            ["--list"], ["--add", "Three"], ["--done", "1"], ["--undo"], ["--import", todo],
            ["--export", folder.path("out.txt"), "--export-format", "todotxt"],
            ["--config", config, "--sync"], ["--recover"],
        ] {
            _ = runHotTask(["--file", store] + args, timeout: 10)
            #expect(fileText(victim) == "precious\n", "\(args)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store + "." + suffix) == victim)
    }

    /// Finding 10: damaged log lines are never appended to a `.damaged` file another user made
    /// first in a shared folder; the change is refused and their file stays as it was.
    @Test func aDamagedLinesFileAnotherUserMadeIsNeverAppendedTo() throws {
        let store = shared + "/tasks.json"
        for caption in ["One", "Two", "Three"] { #expect(runHotTask(["--file", store, "--add", caption]).status == 0) }
        let journal = store + ".journal"
        let text = try #require(fileText(journal))
        #expect(FileManager.default.createFile(atPath: journal, contents: Data(text.replacingOccurrences(of: "\"Two\"", with: "\"Twx\"").utf8)))
        let made = runProcess(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "sh", "-c", "echo theirs > '\(journal).damaged'"])
        #expect(made.status == 0, "\(made.stderr)")
        expectRun(
            ["--file", store, "--add", "Four"],
            stderr:
                "hottask: could not save the task store \(store): cannot keep damaged log lines in \(journal).damaged: it belongs to another user "
                + "(uid 65534, nobody); HotTask adds them only to a file of its own: move it away. The previous file is unchanged\n",
            status: 3)
        #expect(fileText(journal + ".damaged") == "theirs\n")
        expectRun(
            ["--file", store, "--list"],
            stdout: "Get started - 2 to go!\n\nTop Priority (2)\n  1. [ ] Three\n  2. [ ] One\nBonus (0)\n  (none)\n",
            stderr: "hottask: warning: line 3 of \(journal) was skipped: its checksum does not match its content\n")
    }
}
