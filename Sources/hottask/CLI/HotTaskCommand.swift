import ArgumentParser
import CMallocTuning
import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings
import HotTaskSync

@main
struct HotTaskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hottask",
        abstract: "A task list for the terminal: Top Priority, Bonus, and nothing lost.",
        discussion: """
            With no options, opens the terminal UI. With options, works as a script-friendly \
            command. Task numbers come from --list and run on across both sections; they change \
            when tasks are added, so scripts should use ids (--list --ids, --add --json): 8 or \
            more hex digits are always an id prefix, never a number. Numbers refer to the list \
            as it was before the command ran. When a command prints data (--list, --json, \
            --export -), what it did goes to stderr instead of stdout; --quiet leaves it out.

            Examples:
              hottask --add "Buy milk" --add "Call mum"
              hottask --add "Read a book" --bonus
              hottask --list
              hottask --list --open --filter mum --ids
              hottask --done 2 --move 1
              hottask --edit 3 "Call mum about Sunday"
              hottask --add "Pay rent" --due 2026-12-01
              hottask --edit 3 --due fri
              hottask --list --overdue
              hottask --list --sort due
              id=$(hottask --add "Pay rent" --json | jq -r '.tasks[0].id')
              hottask --done "$id"
              hottask --undo
              hottask --export backup.json
              hottask --export todo.txt --export-format todotxt
              hottask --export tasks.ics --export-format ics
              hottask --export ~/.calendars/tasks --export-format vdir
              hottask --export - --export-format taskwarrior | task import
              hottask --import todo.txt
              task export | hottask --import -
              hottask --import backup.json --replace
              hottask --sync-setup https://cloud.example.com --username me \\
                --password-command 'pass show cloud'
              hottask --sync

            The store is $XDG_DATA_HOME/hottask/tasks.json (or ~/.local/share/hottask/tasks.json); \
            --file or HOTTASK_FILE choose another. Settings (theme, keys, default_section) are read \
            from $XDG_CONFIG_HOME/hottask/config.toml (or ~/.config/hottask/config.toml), or --config; \
            see hottask(1).

            Exit codes: 0 done, 1 refused (bad caption, unknown task, bad import), 2 the store \
            cannot be read or is damaged (it is left untouched; the message says the next step, \
            often --recover), 3 the store, an export file or standard output cannot be written \
            (nothing was changed), 4 the UI needs a terminal, 5 a sync or its set-up failed (the \
            server unreachable, refusing or misconfigured, or a deletion refused for want of proof; \
            local tasks are kept), 6 the change was saved but standard output or the export file \
            could not be written (do not run it again), 64 bad options.
            """,
        // No `version:`: -V and --version are one flag of HotTask's own (`version`), so that
        // --help lists both. No `help` subcommand for completion scripts to offer: there are none.
        helpNames: [.short, .long]
    )

    @Option(
        name: .long, help: ArgumentHelp("Use this store file instead of the default.", valueName: "path"),
        completion: .file())
    var file: String?

    @Option(
        name: .long, parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Add a task on top of Top Priority (repeatable).", valueName: "text"))
    var add: [String] = []

    @Flag(name: .long, help: "With --add: put the new tasks in Bonus instead.")
    var bonus = false

    @Flag(name: .long, help: "With --add: put the new tasks in Top Priority (when the config's default_section is bonus).")
    var priority = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read this config file instead of $XDG_CONFIG_HOME/hottask/config.toml.", valueName: "path"),
        completion: .file(extensions: ["toml"]))
    var config: String?

    @Flag(name: .long, help: "Print the progress summary and both sections, numbered.")
    var list = false

    @Flag(name: .long, help: "Print what was added and completed per day (kept for good), open and overdue tasks, and the last 14 days as a chart.")
    var stats = false

    @Flag(
        name: .long,
        help: "With --list: print the store document as JSON instead. With --stats: every day's counts. With --add: print the added tasks so.")
    var json = false

    @Flag(name: .long, help: "With --list: show each task's short id (a handle that does not change).")
    var ids = false

    @Flag(name: .long, help: "With --list: only tasks not completed.")
    var open = false

    @Flag(name: .long, help: "With --list: print only the tags in use, one a line, the most used first (what shell completion offers).")
    var tags = false

    // Unconditional: `--filter -work` (without the tag) is a value, not an unknown flag.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "With --list or --stats: only tasks that match, as the app's filter: +tag and -tag, due:today, due:overdue, due:week, due:none, due:YYYY-MM-DD, and any other words in the caption (case and accents ignored).",
            valueName: "text"))
    var filter: String?

    @Flag(name: [.customShort("q"), .long], help: "Leave out the lines that say what a command did.")
    var quiet = false

    @Flag(name: [.customShort("V"), .customLong("version")], help: "Print the version.")
    var printVersion = false

    @Option(name: .long, help: ArgumentHelp("Mark a task completed (repeatable).", valueName: "n|id"))
    var done: [String] = []

    @Option(name: .long, help: ArgumentHelp("Mark a task not completed (repeatable).", valueName: "n|id"))
    var undone: [String] = []

    @Option(name: .long, help: ArgumentHelp("Delete a task (repeatable).", valueName: "n|id"))
    var delete: [String] = []

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp("Give a task a new caption: --edit 3 \"New caption\".", valueName: "n|id> <text"))
    var edit: [String] = []

    @Option(
        name: .customLong("due"),
        help: ArgumentHelp(
            "With --add: the new tasks' due date; with --edit N (and no caption): only the task's due date. WHEN: YYYY-MM-DD, today, tomorrow, fri or friday or next fri (the next, never today), eow, eom, eoy, in N days, in N weeks, Nd, Nw, dec 1 or 1 dec; any of them with a local time after it (tomorrow 9:00, 2026-12-01 14:00); none clears.",
            valueName: "when"))
    var dueGiven: [String] = []

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp(
            "With --add or --edit N: how the task repeats (completing it moves its due date to the next occurrence; without a due date it takes the rule's first day from today). RULE: daily, weekly, monthly, yearly, weekdays, every N days|weeks|months|years, every mon,thu, or none to stop.",
            valueName: "rule"))
    var repeatGiven: [String] = []

    @Option(
        name: .customLong("note"),
        help: ArgumentHelp(
            "With --add or --edit N: the task's note (free text of several lines); - reads it from standard input, none clears it.",
            valueName: "text"))
    var noteGiven: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("With --add or --edit N: give the task this tag (repeatable; +word in the text does the same).", valueName: "word"))
    var tag: [String] = []

    @Option(name: .long, help: ArgumentHelp("With --edit N: take this tag away (repeatable).", valueName: "word"))
    var untag: [String] = []

    @Flag(name: .long, help: "With --list: only open tasks whose due date has passed.")
    var overdue = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --list: the order; due lists open tasks by due date, undated last (manual is the list's own order).", valueName: "order"))
    var sort: ListOrder = .manual

    @Flag(name: .long, help: "Take back the last change in the change log, whoever made it, and say what it was.")
    var undo = false

    @Option(name: .long, help: ArgumentHelp("Move a task to the other section (repeatable).", valueName: "n|id"))
    var move: [String] = []

    @Option(
        name: .long, help: ArgumentHelp("Write the store document to a file, or - for stdout.", valueName: "path"),
        completion: .file())
    var export: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --export: the format to write (hottask is the JSON store document; vdir a folder of one UID.ics per task). Without it, a file named *.txt is written as todotxt, *.ics as ics, anything else as hottask.",
            valueName: "format"))
    var exportFormat: ExportFormat?

    @Option(
        name: .customLong("import"),
        help: ArgumentHelp(
            "Merge tasks from a HotTask or Taskwarrior JSON export, an iCalendar (.ics) file, a folder of them (a vdir) or a todo.txt file (a file, or - for stdin).",
            valueName: "path"),
        completion: .file())
    var importPath: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --import: the format to read; auto tells JSON and iCalendar by content, todo.txt by a .txt name.",
            valueName: "format"))
    var importFormat: ImportFormat = .auto

    @Flag(name: .long, help: "With --import: replace the whole list instead of merging.")
    var replace = false

    @Flag(
        name: .long,
        help:
            "Make a damaged store whole: keep every change that can still be read, set damaged files aside (never deleted), and say what could not be kept."
    )
    var recover = false

    @Flag(name: .long, help: "Sync with the CalDAV calendar named in the config's [sync] table, and say what moved.")
    var sync = false

    @Flag(
        name: .long,
        help: "With --sync: apply deletions a sync refused for want of proof (the calendar emptied or replaced, tasks missing here).")
    var forceDelete = false

    @Flag(name: .long, help: "With --sync: forget what earlier syncs agreed and keep every task of both sides (nothing is deleted).")
    var resync = false

    @Option(
        name: .customLong("sync-setup"),
        help: ArgumentHelp(
            "Find the CalDAV calendar for tasks from this URL (a server, host, principal, calendar home or calendar), print the task calendars, and write [sync] into the config.",
            valueName: "url"))
    var syncSetup: String?

    @Option(name: .long, help: ArgumentHelp("With --sync-setup: the user name to log in with.", valueName: "name"))
    var username: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --sync-setup: a command whose first line is the password (written to [sync]; without it, a terminal is asked once).",
            valueName: "command"))
    var passwordCommand: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --sync-setup: a calendar to sync with, by display name or last path segment; made when missing. Again for several, each a list (without it, every task calendar).",
            valueName: "name"))
    var calendar: [String] = []

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "With --sync-setup: a PEM file of CA certificates to trust for HTTPS instead of the system's (a server with a private CA); written to [sync] as ca_file.",
            valueName: "path"))
    var caFile: String?

    @OptionGroup var lists: ListOptions

    @OptionGroup var subtasks: SubtaskOptions

    var changesTasks: Bool {
        !add.isEmpty || !edit.isEmpty || !done.isEmpty || !undone.isEmpty || !delete.isEmpty || !move.isEmpty
    }

    var opensUI: Bool {
        !changesTasks && !undo && !list && !stats && export == nil && importPath == nil && !sync && syncSetup == nil && !recover
            && !lists.changesLists && !lists.printLists
    }

    /// Whether stdout carries data, so that what the command did goes to stderr.
    var printsData: Bool {
        list || stats || lists.printLists || (json && !add.isEmpty) || printsExportToStandardOutput
    }

    var printsExportToStandardOutput: Bool {
        export.map { $0 == "-" || ExportFile.isStandardOutput($0) } ?? false
    }

    func run() throws {
        // A file-size limit (`ulimit -f`) then fails a write with an error instead of killing us.
        signal(SIGXFSZ, SIG_IGN)
        CommandOutput.guardStandardDescriptors()
        let output = CommandOutput()
        output.dataOnStdout = printsData
        output.quiet = quiet
        let environment = ProcessInfo.processInfo.environment
        let location = StoreLocation.resolve(file: file, environment: environment)
        let store = TaskStore(path: location)
        let (settings, configProblem) = ConfigFile.load(option: config, environment: environment)
        // Once a change is in the store, a later failure must say so: a script that retries
        // would otherwise make it twice.
        var saved = false
        do {
            if syncSetup == nil, let link = ForeignLink.first(in: location) {
                throw UserFacingError(.storeUnreadable, "will not use the task store \(location): \(link.reason). Nothing was changed")
            }
            if opensUI {
                if let warning = try TerminalApp.run(
                    store: store, config: settings, configProblems: ([configProblem].compactMap { $0 } + settings.warnings).map(\.shortDescription))
                {
                    Self.fail("warning: \(warning)")
                }
                return
            }
            // A closed pipe is then an EPIPE that CommandOutput handles, not a death halfway
            // through a command (`--list --export FILE | head`). Not for the UI: its children
            // (the sync, a password command) must not inherit it.
            signal(SIGPIPE, SIG_IGN)
            if let syncSetup {
                guard let path = ConfigFile.path(option: config, environment: environment) else {
                    throw UserFacingError(.syncFailed, "cannot set up sync: no config file to write (no HOME; give --config)")
                }
                let setup = SyncSetupCommand(
                    url: syncSetup, username: username, passwordCommand: passwordCommand, calendars: calendar, caFile: caFile, configPath: path)
                try setup.run()
                return
            }
            // A config problem never changes what a command does or its exit code.
            if let configProblem { Self.fail("warning: \(configProblem)") }
            for warning in settings.warnings { Self.fail("warning: \(warning)") }
            var commands = CommandLineActions(store: store, output: output)
            commands.dates = DueDisplay(now: Date(), local: .current, format: settings.dateFormat)
            if recover { saved = try commands.recover() }
            if let importPath {
                try commands.importTasks(from: importPath, format: importFormat, replacing: replace, inList: lists.inList)
                saved = true
            }
            if undo {
                try commands.undoLastChange()
                saved = true
            }
            if lists.changesLists {
                try lists.changeLists(in: store, output: output)
                saved = true
            }
            if changesTasks {
                let added = try commands.change(
                    adding: add, section: bonus ? .bonus : priority ? .priority : settings.defaultSection,
                    editing: edit.isEmpty ? nil : (edit[0], edit.count == 2 ? edit[1] : nil),
                    due: try due.map(Self.dueRequest), note: try noteText(), repeating: try repeatText.map(Self.repeatRule), tagging: tag,
                    untagging: untag,
                    plusTags: settings.plusTags, inList: lists.inList, under: subtasks.under,
                    completing: done, reopening: undone,
                    moving: move, deleting: delete)
                saved = true
                // The ids a script needs, printed only once the tasks are in the store.
                if json && !list { output.bytes(StoreDocument.encode(TaskList(added))) }
            }
            // After the changes above, so that `--add X --sync` sends X; before --list and --export,
            // so that they show what the sync brought.
            if sync {
                guard configProblem == nil else { throw UserFacingError(.syncFailed, "cannot sync: the config has a problem (above)") }
                guard let settings = settings.sync else {
                    let file = ConfigFile.path(option: config, environment: environment).map { "\($0) has" } ?? "the config has"
                    throw UserFacingError(
                        .syncFailed, "cannot sync: \(file) no [sync] table; set it up with: hottask --sync-setup URL (your CalDAV server)")
                }
                let report: SyncRunner.Report = quiet ? .dropped : printsData ? .toStandardError : .toStandardOutput
                var options = SyncRunner.Options()
                options.forceDelete = forceDelete
                options.forgetBase = resync
                let outcome = SyncRunner.run(store: store, settings: settings, report: report, options: options)
                if !outcome.message.isEmpty { Self.fail(outcome.message) }
                if outcome.status != 0 { throw ExitCode(outcome.status) }
            }
            if lists.printLists { try lists.printLists(of: store, asJSON: json, output: output) }
            if list {
                try commands.printList(
                    inList: lists.inList,
                    asJSON: json, openOnly: open, filter: filter, showingIDs: ids, overdueOnly: overdue, byDue: sort == .due, onlyTags: tags,
                    dates: DueDisplay(now: Date(), local: .current, format: settings.dateFormat))
            }
            if stats {
                try commands.printStatistics(
                    asJSON: json, filter: filter, inList: lists.inList, dates: DueDisplay(now: Date(), local: .current, format: settings.dateFormat))
            }
            if let export {
                try commands.export(to: export, format: exportFormat ?? .named(by: export), byName: exportFormat == nil, inList: lists.inList)
            }
            if let failure = output.failure { throw UserFacingError.output("could not write to standard output: \(failure)") }
        } catch let error as StoreError {
            throw Self.report(UserFacingError(error))
        } catch let error as UserFacingError {
            throw Self.report(error.reported(saved: saved))
        }
    }

    /// Says why on stderr (nothing when the message is empty: `hottask-sync --setup` said it
    /// already) and gives the exit code to throw.
    static func report(_ error: UserFacingError) -> ExitCode {
        if !error.message.isEmpty { fail(error.message) }
        return ExitCode(error.status.rawValue)
    }

    /// As swift-argument-parser's `main`, but its messages (which quote the arguments given)
    /// are printed with control characters escaped: `hottask $'--\e[2J'` must not clear the
    /// screen.
    static func main() {
        // Run by the name `hottask-sync` (the package's link to this program): the sync helper.
        if CommandLine.arguments.first?.split(separator: "/").last.map(String.init) == SyncHelper.programName {
            MainActor.assumeIsolated { SyncHelper.run(Array(CommandLine.arguments.dropFirst())) }
        }
        // Blocks of 256 KB and more are mapped on their own and returned when freed. By default
        // glibc raises that limit after each large free (up to 32 MB), and a read's freed
        // buffers then stay in the heap: a re-import of 100,000 tasks peaked at 99 MiB, not 83.
        hc_map_large_blocks_from(256 << 10)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            // A bad option is one line, as every other error: what is wrong, the value quoted,
            // the forms it takes (the parser's usage lines are --help's).
            if code == .validationFailure, case let message = Self.message(for: error), !message.isEmpty {
                fail(UsageMessage.oneLine(message))
                Glibc.exit(code.rawValue)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty {
                let text = MessageText.escaped(message, keepingLineBreaks: true) + "\n"
                if code == .success {
                    let output = CommandOutput()
                    output.text(text)
                    if let failure = output.failure {
                        fail("could not write to standard output: \(failure)")
                        Glibc.exit(ExitStatus.storeUnwritable.rawValue)
                    }
                } else {
                    CommandOutput.writeStandardError(text)
                }
            }
            Glibc.exit(code.rawValue)
        }
    }

    /// Says on stderr why something failed (or a warning), control characters escaped.
    static func fail(_ message: String) {
        CommandOutput.writeStandardError("hottask: \(MessageText.escaped(message))\n")
    }
}
