import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskUI

/// The person's editor on a task's note, as `git commit` and `task edit` run one: `$VISUAL`,
/// else `$EDITOR`, else `vi`, through `/bin/sh` (so `EDITOR="code --wait"` works), on a temp
/// file of its own (0600) holding the note. The caller has given the terminal back (curses
/// stopped) and takes it again after.
///
/// While the editor runs, Ctrl-C and Ctrl-\ are the editor's: this process ignores SIGINT and
/// SIGQUIT (as `system()` does) and the editor starts with them as usual. An editor that
/// exits 0 gives the file's text; one that fails (a non-zero exit, a signal, no such program)
/// changes nothing, and the text it left is kept, in the UI and in its file (named).
enum NoteEditor {
    static func edit(_ request: NoteEditing.Request, environment: [String: String]) -> NoteEditing.Outcome {
        let id = request.taskID
        let command = editorCommand(environment)
        let folder = (environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        // A kept text says so in the file's name, which the editor shows.
        var template = Array((folder + (request.offersKept ? "/hottask-note-kept-XXXXXX.txt" : "/hottask-note-XXXXXX.txt")).utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard descriptor >= 0 else {
            return .failed(taskID: id, reason: "cannot make a file for it in \(folder): \(String(cString: strerror(errno)))", text: nil)
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let written = request.text.isEmpty ? "" : request.text + "\n"
        do {
            try Descriptor.write(written, to: descriptor)
            close(descriptor)
        } catch {
            close(descriptor)
            unlink(path)
            return .failed(taskID: id, reason: "cannot write \(path): \(error)", text: nil)
        }
        let before = FileIdentity(path)
        let status = run(command, path: path, environment: environment)
        let whole = try? String(contentsOfFile: path, encoding: .utf8)
        let text = whole.map { String($0.prefix(4 * StoreLimits.noteBytes)) }
        switch status {
        case .success:
            // Quit without writing (`:q!`, or closed unsaved): nothing was chosen, nothing is saved.
            if let before, FileIdentity(path) == before, whole == written {
                unlink(path)
                return .notWritten(taskID: id)
            }
            guard let text else { return .failed(taskID: id, reason: "\(path) could not be read back", text: nil) }
            // Over the limit it is refused: the file stays whole, the kept text is cut.
            guard text == whole else {
                return .refused(taskID: id, reason: "the note is over \(StoreLimits.noteBytes >> 10) KB", text: text, file: path)
            }
            // Another writer may have deleted the task or changed its note while the editor had
            // the terminal: the save checks that in the store (`SaveCondition`), and the file
            // keeps the text until the save is committed (the store thread removes it then).
            guard request.base != nil else {
                unlink(path)
                return .edited(taskID: id, text: text)
            }
            return .edited(taskID: id, text: text, base: request.base, file: path)
        case .failure(let reason):
            // Kept on disk too, so that a quit does not lose it.
            let changed = text.map { $0 != written } ?? false
            if !changed { unlink(path) }
            return .failed(taskID: id, reason: reason + (changed ? "; kept in \(path)" : ""), text: changed ? text : nil)
        }
    }

    /// What tells a file written from one left alone: an editor that saves replaces the file
    /// (a new inode) or writes it (a new modification time), even with the same text.
    private struct FileIdentity: Equatable {
        let inode: UInt
        let seconds: Int
        let nanoseconds: Int
        let size: Int

        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            inode = UInt(status.st_ino)
            seconds = status.st_mtim.tv_sec
            nanoseconds = status.st_mtim.tv_nsec
            size = Int(status.st_size)
        }
    }

    /// `$VISUAL`, else `$EDITOR`, else `vi`.
    static func editorCommand(_ environment: [String: String]) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let command = environment[name], !command.trimmingBlanks().isEmpty { return command }
        }
        return "vi"
    }

    private enum Status {
        case success
        case failure(String)
    }

    /// Runs `command "$1"` through /bin/sh and waits for it.
    private static func run(_ command: String, path: String, environment: [String: String]) -> Status {
        // The editor starts with every signal as usual and none blocked.
        let child = ChildProcess()
        child.defaultSignals([SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTERM, SIGHUP])
        // Ctrl-C in the editor is the editor's, never a quit of the app under it.
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var oldInterrupt = sigaction()
        var oldQuit = sigaction()
        sigaction(SIGINT, &ignore, &oldInterrupt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInterrupt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }
        let script: String = command + " \"$1\""
        let arguments: [String] = ["/bin/sh", "-c", script, "hottask-note", path]
        let (pid, spawned) = child.start("/bin/sh", arguments, environment: environment)
        guard spawned == 0 else { return .failure("cannot run /bin/sh: \(String(cString: strerror(spawned)))") }
        let status = ChildProcess.wait(pid)
        let signal = status & 0x7f
        if signal != 0 { return .failure("\(command) was stopped by signal \(signal)") }
        let code = (status >> 8) & 0xff
        if code == 127 { return .failure("no editor \(command): set VISUAL or EDITOR") }
        return code == 0 ? .success : .failure("\(command) exited \(code)")
    }
}
