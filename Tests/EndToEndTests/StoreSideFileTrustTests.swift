import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Side files are data, not trust: a named pipe, a link or another user's file in place of
/// one of the store's side files is named for what it is, never waited on or followed
/// (the rest of `StoreTrustTests` is in StoreTrustTests.swift).
extension StoreTrustTests {
    /// A named pipe with no writer: a read that blocks on it would wait forever.
    private func plantPipe(_ path: String) {
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
    }

    @Test func aNamedPipeInPlaceOfTheImportBaseIsAnErrorNamingItNeverAWait() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let file = folder.write(#"{"version": 2, "tasks": []}"#, to: "in.json")
        plantPipe(folder.path("tasks.json.imported"))
        expectRun(
            ["--file", folder.storePath, "--import", file],
            stderr:
                "hottask: cannot import HotTask \(folder.path)/in.json: the import base \(folder.path)/tasks.json.imported cannot be read: it is a named pipe (FIFO), not a regular file; move it away (without it, the next import merges by date). Move it away and import again. Nothing was changed\n",
            status: 1, timeout: 10)
    }

    @Test func anImportBaseThatCannotBeReadIsAnErrorNotAnEmptyBase() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let file = folder.write(#"{"version": 2, "tasks": []}"#, to: "in.json")
        try FileManager.default.createDirectory(atPath: folder.path("tasks.json.imported"), withIntermediateDirectories: false)
        expectRun(
            ["--file", folder.storePath, "--import", file],
            stderr:
                "hottask: cannot import HotTask \(folder.path)/in.json: the import base \(folder.path)/tasks.json.imported cannot be read: it is a folder, not a regular file; move it away (without it, the next import merges by date). Move it away and import again. Nothing was changed\n",
            status: 1)
    }

    @Test func aNamedPipeInPlaceOfTheSyncBaseIsAnErrorNamingItNeverAWait() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let config = folder.write("[sync]\nurl = \"http://127.0.0.1:9/calendar/\"\n", to: "config.toml")
        plantPipe(folder.path("tasks.json.sync"))
        expectRun(
            ["--file", folder.storePath, "--config", config, "--sync"],
            stderr:
                "hottask: sync with http://127.0.0.1:9/calendar/ failed: cannot read the sync state \(folder.path)/tasks.json.sync: it is a named pipe (FIFO), not a regular file; move it away; every local change is kept\n",
            status: 5, timeout: 10)
    }

    @Test func aNamedPipeInPlaceOfTheDamagedLinesFileIsAnErrorNamingItNeverAWait() throws {
        let folder = TemporaryFolder()
        for caption in ["One", "Two", "Three"] { #expect(runHotTask(["--file", folder.storePath, "--add", caption]).status == 0) }
        let journal = folder.path("tasks.json.journal")
        var text = try #require(fileText(journal))
        text = text.replacingOccurrences(of: "\"caption\": \"Two\"", with: "\"caption\": \"Twx\"")
        folder.write(text, to: "tasks.json.journal")
        plantPipe(journal + ".damaged")
        expectRun(
            ["--file", folder.storePath, "--add", "Four"],
            stderr:
                "hottask: could not save the task store \(folder.path)/tasks.json: cannot keep damaged log lines in \(folder.path)/tasks.json.journal.damaged: No such device or address. The previous file is unchanged\n",
            status: 3, timeout: 10)
        #expect(storedCaptions(folder) == ["One", "Three"], "nothing was changed (the damaged line is still skipped with a warning)")
    }

    @Test func aNamedPipeInPlaceOfTheIndexIsPassedOverAndTheChangeIsMade() throws {
        let folder = TemporaryFolder()
        let add = expectRun(
            ["--file", folder.storePath, "--add", "A", "--json"],
            stdout:
                "{\n  \"version\": 2,\n  \"tasks\": [\n    {\n      \"id\": \"[..]\",\n      \"caption\": \"A\",\n      \"section\": \"priority\",\n      \"completed\": false,\n      \"createdAt\": \"[..]\",\n      \"completedAt\": null,\n      \"modifiedAt\": \"[..]\"\n    }\n  ]\n}\n",
            stderr: "Added to Top Priority: A\n")
        let id = try #require(add.stdout.firstMatch(of: /"id": "([0-9a-f-]{36})"/)).1
        plantPipe(folder.path("tasks.json.index"))
        expectRun(["--file", folder.storePath, "--done", String(id)], stdout: "Completed: A\n", timeout: 10)
        #expect(runHotTask(["--file", folder.storePath, "--list"]).stdout.contains("[x] A"))
    }

    @Test func aNamedPipeOrALinkInPlaceOfTheLogIsNamedForWhatItIs() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        let journal = folder.path("tasks.json.journal")
        let real = folder.path("elsewhere.journal")
        #expect(rename(journal, real) == 0)
        #expect(symlink(real, journal) == 0)
        expectRun(
            ["--file", folder.storePath, "--list"],
            stderr:
                "hottask: cannot read the task store \(folder.path)/tasks.json.journal: not safe to use: it is a symbolic link; HotTask uses only a file of its own there (put the file itself in place of the link)\n",
            status: 2)
        plantPipe(journal)
        expectRun(
            ["--file", folder.storePath, "--list"],
            stderr:
                "hottask: cannot read the task store \(folder.path)/tasks.json.journal: it is a named pipe (FIFO), not a regular file; move it away\n",
            status: 2, timeout: 10)
    }

    @Test func leftoverTempFilesOfTheImportBaseFromDeadWritersAreRemoved() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "A"]).status == 0)
        // A pid no process can have (above any pid_max): its writer is certainly gone.
        let leftover = folder.write("half a base", to: ".tasks.json.imported.tmp-2147483646-12345")
        let file = folder.write(
            #"{"version": 2, "tasks": [{"id": "7abacbb1-d371-42a1-b953-c21babeb349b", "caption": "B", "section": "bonus", "completed": false, "createdAt": "2026-11-21T10:00:00Z", "completedAt": null, "modifiedAt": "2026-11-21T10:00:00Z"}]}"#,
            to: "in.json")
        #expect(runHotTask(["--file", folder.storePath, "--import", file]).status == 0)
        #expect(fileBytes(leftover) == nil)
        #expect(fileBytes(folder.path("tasks.json.imported")) != nil)
    }

    /// The lock file says which HotTask took the lock last; the message must name the process
    /// that holds it now (here `flock(1)`, which never writes its pid there).
    @Test func aHeldLockIsBlamedOnTheProcessHoldingItNow() throws {
        let folder = TemporaryFolder()
        #expect(runHotTask(["--file", folder.storePath, "--add", "One"]).status == 0)
        let lock = try HeldLock(store: folder.storePath)
        defer { withExtendedLifetime(lock) {} }
        let holder = lock.holder
        let deadline = Date().addingTimeInterval(5)
        var run = runHotTask(["--file", folder.storePath, "--add", "Two"], environment: ["HOTTASK_LOCK_WAIT": "0"])
        while Date() < deadline, run.status == 0 {
            usleep(20_000)
            run = runHotTask(["--file", folder.storePath, "--add", "Two"], environment: ["HOTTASK_LOCK_WAIT": "0"])
        }
        expectOutput(
            HotTaskRun(run),
            stderr:
                "hottask: could not change the task store \(folder.path)/tasks.json: process \(holder.pid) (flock [..]) has held the lock \(folder.path)/tasks.json.lock for over 0 s; nothing was changed. If it is a HotTask stopped with Ctrl-Z, resume it (fg) or end it, then try again\n",
            status: 3)
    }
}

/// Side files that steer merges are not taken from another user or from a file others can write.
extension StoreTrustTests {
    @Test func anImportBaseOrSyncStateAnotherUserCouldWriteIsRefusedNamingIt() throws {
        let folder = TemporaryFolder()
        let file = folder.write(
            #"{"version": 2, "tasks": [{"id": "c0000001-0000-4000-8000-000000000001", "caption": "Imported", "section": "priority", "completed": false, "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z"}]}"#,
            to: "in.json")
        #expect(runHotTask(["--file", folder.storePath, "--import", file]).status == 0)
        let base = folder.storePath + ".imported"
        try #require(FileManager.default.fileExists(atPath: base))
        chmod(base, 0o666)
        expectRun(
            ["--file", folder.storePath, "--import", file],
            stderr:
                "hottask: cannot import HotTask \(folder.path)/in.json: the import base \(folder.path)/tasks.json.imported cannot be read: others may write it (mode 666); chmod go-w '\(folder.path)/tasks.json.imported' and try again (without it, the next import merges by date). Move it away and import again. Nothing was changed\n",
            status: 1)
        chmod(base, 0o600)
        chown(base, 65534, 65534)
        let foreign = runHotTask(["--file", folder.storePath, "--import", file])
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("belongs to another user (uid 65534, nobody)"), "\(foreign.stderr)")

        let state = folder.write(#"{"collection": "http://127.0.0.1:9/", "entries": {}, "server": {}, "version": 1}"#, to: "tasks.json.sync")
        chmod(state, 0o666)
        let config = folder.write("[sync]\nurl = \"http://127.0.0.1:9/\"\n", to: "c.toml")
        expectRun(
            ["--file", folder.storePath, "--config", config, "--sync"],
            stderr:
                "hottask: sync with http://127.0.0.1:9/ failed: cannot use the sync state \(folder.path)/tasks.json.sync: others may write it (mode 666); chmod go-w '\(folder.path)/tasks.json.sync' and try again; every local change is kept\n",
            status: 5)
    }
}
