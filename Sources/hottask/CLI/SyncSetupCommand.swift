import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// `hottask --sync-setup URL`: `hottask-sync --setup` finds (or makes) the calendar over the
/// network; this side prints what it found and writes `[sync]` into the config file. The
/// networking stays in hottask-sync, so no other command loads it.
struct SyncSetupCommand {
    /// The address without the user name and password it may have been written with
    /// (`https://me:secret@host/`): only this one is printed, stored or passed on.
    let url: String
    /// A password written in the address: used for this set-up only, by a pipe, never stored.
    let passwordInURL: String?
    let username: String?
    let passwordCommand: String?
    /// `--calendar`, each time given: one is the calendar to sync with, several each a list.
    let calendars: [String]
    /// CA certificates to trust (a private CA), for discovery and then for every sync.
    let caFile: String?
    /// The config file to write.
    let configPath: String

    init(url written: String, username: String?, passwordCommand: String?, calendars: [String], caFile: String?, configPath: String) {
        let parts = SyncURL(written)
        url = parts.url
        passwordInURL = parts.password
        self.username = username ?? parts.username
        self.passwordCommand = passwordCommand
        self.calendars = calendars
        self.caFile = caFile
        self.configPath = configPath
    }

    /// Runs the set-up; prints one `NAME<TAB>URL` line per task calendar on stdout, says on
    /// stderr what was written.
    func run() throws(UserFacingError) {
        // A save replaces a link's target: never another user's link in a folder others may write.
        if let link = ForeignLink.first(in: configPath) {
            throw UserFacingError(.syncFailed, "cannot set up sync: will not write the config \(configPath): \(link.reason). Nothing was changed")
        }
        // The config is read and checked before any network: a file that cannot take the table
        // is said at once.
        let (existing, before) = try readConfig()
        // What this run was not given is taken from the [sync] already there (a set-up again for
        // another calendar): it logs in with it, and it is kept, never deleted without a word.
        let username = self.username ?? before?.username
        let passwordCommand = self.passwordCommand ?? before?.passwordCommand
        let caFile = self.caFile ?? before?.caFile
        var password: String? = passwordCommand == nil ? passwordInURL : nil
        if password == nil, passwordCommand == nil, let username {
            password = PasswordPrompt.ask("Password for \(username) (used for this set-up only, not stored): ")
        }
        var arguments = ["--setup", "--url", url]
        if let username { arguments += ["--username", username] }
        if let passwordCommand { arguments += ["--password-command", passwordCommand] }
        if password != nil { arguments.append("--password-stdin") }
        for calendar in calendars { arguments += ["--calendar", calendar] }
        if let caFile { arguments += ["--ca-file", caFile] }
        let (status, said) = try runHelper(arguments, input: password)

        let output = CommandOutput()
        var chosen: String?
        var home: String?
        var members: [String] = []
        for line in said.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            // A server's display name may hold anything: escaped for the terminal.
            case "found" where fields.count == 3: output.text("\(MessageText.escaped(fields[1]))\t\(MessageText.escaped(fields[2]))\n")
            case "created" where fields.count == 3:
                output.text("\(MessageText.escaped(fields[1]))\t\(MessageText.escaped(fields[2]))\n")
                HotTaskCommand.fail("created the calendar \"\(fields[1])\" for tasks")
            case "use" where fields.count == 2: chosen = fields[1]
            case "home" where fields.count == 2: home = fields[1]
            case "member" where fields.count == 2: members.append(fields[1])
            default: break
            }
        }
        guard status == 0, let chosen = chosen ?? home else {
            // hottask-sync said why on stderr; its status is ours.
            throw UserFacingError(ExitStatus(rawValue: status) ?? .syncFailed, "")
        }
        var settings = SyncSettings(url: chosen, username: username, passwordCommand: passwordCommand)
        settings.caFile = caFile
        if home != nil { settings.calendars = members }
        let text = SyncTableEdit.applying(settings, to: existing ?? "")
        do {
            _ = try ConfigFile.check(text, file: configPath)
        } catch {
            throw UserFacingError(.syncFailed, "cannot add [sync] to \(error); nothing was written")
        }
        try replaceConfig(with: text, created: existing == nil)
        if home != nil {
            HotTaskCommand.fail(
                "[sync] written to \(configPath): \(members.count) calendars, each a list; `hottask --sync` syncs them (a list made here gets a calendar in \(chosen))"
            )
        } else {
            HotTaskCommand.fail("[sync] written to \(configPath): url = \(chosen); `hottask --sync` syncs with it")
        }
        if passwordCommand != nil && self.passwordCommand == nil {
            HotTaskCommand.fail("the password_command already in [sync] is kept")
        } else if password != nil {
            HotTaskCommand.fail(
                "the password was used for this set-up only; to sync, store it with a password command, e.g. "
                    + "hottask --sync-setup \(url) --username \(username ?? "") --password-command 'pass show caldav' "
                    + "(or secret-tool lookup, or security find-generic-password -w)")
        } else if username != nil && passwordCommand == nil {
            HotTaskCommand.fail("no password_command is set: add one to [sync] (or run again with --password-command) before syncing")
        }
    }

    /// The config's text and the [sync] it holds, nil when there is no file yet. A file with a
    /// problem is refused: writing into it could not be checked.
    private func readConfig() throws(UserFacingError) -> (text: String?, sync: SyncSettings?) {
        let text: String?
        switch ConfigFile.readText(configPath) {
        case .success(let read): text = read
        case .failure(let problem): throw UserFacingError(.syncFailed, "\(problem); nothing was written")
        }
        guard let text else { return (nil, nil) }
        do {
            return (text, try ConfigFile.check(text, file: configPath).sync)
        } catch {
            throw UserFacingError(.syncFailed, "\(error); fix it first, nothing was written")
        }
    }

    /// Runs `hottask-sync --setup`; its stderr goes straight to ours, its stdout is returned.
    private func runHelper(_ arguments: [String], input: String?) throws(UserFacingError) -> (Int32, String) {
        let helper = SyncRunner.helper
        guard access(helper, X_OK) == 0 else {
            throw UserFacingError(.syncFailed, "cannot set up sync: \(helper) is missing (install it beside hottask: make install)")
        }
        guard let output = ChildPipe(), let feed = ChildPipe() else {
            throw UserFacingError(.syncFailed, "cannot run \(helper): \(String(cString: strerror(errno)))")
        }
        defer { [output, feed].forEach { $0.closeBoth() } }
        let child = ChildProcess()
        child.copy(output.writeEnd, as: 1)
        if input == nil {
            child.open("/dev/null", as: 0, flags: O_RDONLY)
        } else {
            child.copy(feed.readEnd, as: 0)
        }
        child.defaultSignals([SIGPIPE])
        let (pid, spawned) = child.start(helper, [helper] + arguments)
        output.closeWriteEnd()
        feed.closeReadEnd()
        guard spawned == 0 else { throw UserFacingError(.syncFailed, "cannot run \(helper): \(String(cString: strerror(spawned)))") }
        if let input { try? Descriptor.write(input + "\n", to: feed.writeEnd) }
        feed.closeWriteEnd()
        let data = output.readToEnd()
        let status = ChildProcess.wait(pid)
        return (status & 0x7f == 0 ? (status >> 8) & 0xff : 5, String(decoding: data, as: UTF8.self))
    }

    /// Replaces the config through a temporary file and a rename (`SmallFile`), so that a crash
    /// leaves the old file or the new one; a new file (and its folder) is private to its owner
    /// (0600), an existing one keeps its mode.
    private func replaceConfig(with text: String, created: Bool) throws(UserFacingError) {
        // Through a symbolic link (a config kept in a dotfiles repository) to the file itself.
        let configPath = URL(fileURLWithPath: configPath).resolvingSymlinksInPath().path
        var mode: mode_t = 0o600
        var info = stat()
        if !created, stat(configPath, &info) == 0 { mode = info.st_mode & 0o7777 }
        if let problem = SmallFile.replace(configPath, with: text, mode: mode) {
            throw UserFacingError(.syncFailed, "cannot write the config \(configPath): \(problem); it is unchanged")
        }
    }
}
