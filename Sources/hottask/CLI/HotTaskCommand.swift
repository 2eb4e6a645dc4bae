import ArgumentParser
import Foundation
import HotTaskCore

@main
struct HotTaskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hottask",
        abstract: "A task list for the terminal: Top Priority, Bonus, and nothing lost.",
        discussion: """
            With no options, opens the terminal UI. With options, works as a script-friendly \
            command. Task numbers come from --list and run on across both sections; an id prefix \
            of 8 or more characters works too. Numbers refer to the list as it was before the \
            command ran.

            Examples:
              hottask --add "Buy milk" --add "Call mum"
              hottask --add "Read a book" --bonus
              hottask --list
              hottask --done 2 --move 1
              hottask --edit 3 "Call mum about Sunday"
              hottask --undo
              hottask --export backup.json
              hottask --export todo.txt --export-format todotxt
              hottask --export tasks.ics --export-format ics
              hottask --import todo.txt
              task export | hottask --import -
              hottask --import backup.json --replace
              hottask --sync

            The store is $XDG_DATA_HOME/hottask/tasks.json (or ~/.local/share/hottask/tasks.json); \
            --file or HOTTASK_FILE choose another. Settings (theme, keys, default_section) are read \
            from $XDG_CONFIG_HOME/hottask/config.toml (or ~/.config/hottask/config.toml), or --config; \
            see hottask(1).

            Exit codes: 0 done, 1 refused (bad caption, unknown task, bad import), 2 the store \
            cannot be read or is damaged (it is left untouched), 3 the store or an export file cannot be written, \
            4 the UI needs a terminal, 5 a sync failed (the server unreachable, refusing or \
            misconfigured; local tasks are kept), 64 bad options.
            """,
        version: HotTaskVersion.current
    )

    @Option(name: .long, help: ArgumentHelp("Use this store file instead of the default.", valueName: "path"))
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
            "Read this config file instead of $XDG_CONFIG_HOME/hottask/config.toml.", valueName: "path"))
    var config: String?

    @Flag(name: .long, help: "Print the progress summary and both sections, numbered.")
    var list = false

    @Flag(name: .long, help: "With --list: print the store document as JSON instead.")
    var json = false

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

    @Flag(name: .long, help: "Take back the last change in the change log, whoever made it, and say what it was.")
    var undo = false

    @Option(name: .long, help: ArgumentHelp("Move a task to the other section (repeatable).", valueName: "n|id"))
    var move: [String] = []

    @Option(name: .long, help: ArgumentHelp("Write the store document to a file, or - for stdout.", valueName: "path"))
    var export: String?

    @Option(
        name: .long,
        help: ArgumentHelp("With --export: hottask (the JSON store document, the default), todotxt or ics.", valueName: "format"))
    var exportFormat: ExportFormat = .hottask

    @Option(
        name: .customLong("import"),
        help: ArgumentHelp(
            "Merge tasks from a HotTask or Taskwarrior JSON export, an iCalendar (.ics) file or a todo.txt file (a file, or - for stdin).",
            valueName: "path"))
    var importPath: String?

    @Flag(name: .long, help: "With --import: replace the whole list instead of merging.")
    var replace = false

    @Flag(name: .long, help: "Sync with the CalDAV calendar named in the config's [sync] table, and say what moved.")
    var sync = false

    var changesTasks: Bool {
        !add.isEmpty || !edit.isEmpty || !done.isEmpty || !undone.isEmpty || !delete.isEmpty || !move.isEmpty
    }

    var opensUI: Bool {
        !changesTasks && !undo && !list && export == nil && importPath == nil && !sync
    }

    func validate() throws {
        if file?.isEmpty == true {
            // Most likely an unset shell variable: falling back to the real store would be a surprise.
            throw ValidationError("--file needs a path; it was given an empty one.")
        }
        if bonus && add.isEmpty { throw ValidationError("--bonus goes with --add.") }
        if priority && add.isEmpty { throw ValidationError("--priority goes with --add.") }
        if priority && bonus { throw ValidationError("--priority and --bonus cannot both be given.") }
        if config?.isEmpty == true { throw ValidationError("--config needs a path; it was given an empty one.") }
        if exportFormat != .hottask && export == nil { throw ValidationError("--export-format goes with --export.") }
        if json && !list { throw ValidationError("--json goes with --list.") }
        if replace && importPath == nil { throw ValidationError("--replace goes with --import.") }
        if !edit.isEmpty && edit.count != 2 {
            throw ValidationError("--edit takes a task and its new caption: --edit 3 \"New caption\" (got \(edit.count) value\(edit.count == 1 ? "" : "s")).")
        }
        if importPath != nil && changesTasks {
            throw ValidationError("--import cannot be combined with --add, --edit, --done, --undone, --delete or --move.")
        }
        if undo && (changesTasks || importPath != nil) {
            throw ValidationError("--undo cannot be combined with other changes: it takes back the last one.")
        }
        if importPath == "-" && export == "-" {
            throw ValidationError("--import - and --export - cannot both use the terminal streams.")
        }
    }

    func run() throws {
        // A file-size limit (`ulimit -f`) then fails a write with an error instead of killing us.
        signal(SIGXFSZ, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let store = TaskStore(path: StoreLocation.resolve(file: file, environment: environment))
        let (settings, configProblem) = ConfigLoader.load(option: config, environment: environment)
        do {
            if opensUI {
                try TerminalApp.run(store: store, config: settings, configWarning: configProblem?.shortDescription)
                return
            }
            // A config problem never changes what a command does or its exit code.
            if let configProblem { Self.fail("warning: \(configProblem)") }
            var commands = CommandLineActions(store: store)
            if let importPath { try commands.importTasks(from: importPath, replacing: replace) }
            if undo { try commands.undoLastChange() }
            if changesTasks {
                try commands.change(
                    adding: add, section: bonus ? .bonus : priority ? .priority : settings.defaultSection,
                    editing: edit.count == 2 ? (edit[0], edit[1]) : nil,
                    completing: done, reopening: undone,
                    moving: move, deleting: delete)
            }
            // After the changes above, so that `--add X --sync` sends X; before --list and --export,
            // so that they show what the sync brought.
            if sync {
                guard configProblem == nil else { throw SyncCommandFailure(message: "cannot sync: the config has a problem (above)") }
                guard let settings = settings.sync else {
                    throw SyncCommandFailure(
                        message: "cannot sync: the config has no [sync] table (url, username, password_command; see hottask(1))")
                }
                let outcome = SyncRunner.run(store: store, settings: settings, quiet: false)
                if !outcome.message.isEmpty { Self.fail(outcome.message) }
                if outcome.status != 0 { throw ExitCode(outcome.status) }
            }
            if list { try commands.printList(asJSON: json) }
            if let export { try commands.export(to: export, format: exportFormat) }
        } catch let error as StoreError {
            Self.fail(error.description)
            switch error.problem {
            case .unreadable, .invalid, .missing: throw ExitStatus.storeUnreadable
            case .unwritable, .locked: throw ExitStatus.storeUnwritable
            }
        } catch let error as RefusedError {
            Self.fail(error.message)
            throw ExitStatus.refused
        } catch let error as UnsavedOnExit {
            Self.fail(error.message)
            throw ExitStatus.storeUnwritable
        } catch let error as ExportError {
            Self.fail(error.message)
            throw ExitStatus.storeUnwritable
        } catch let error as SyncCommandFailure {
            Self.fail(error.message)
            throw ExitStatus.syncFailed
        } catch let error as TerminalUnavailable {
            Self.fail(error.message)
            throw ExitStatus.noTerminal
        }
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data("hottask: \(message)\n".utf8))
    }
}

/// What `--export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    /// The JSON store document (Assets/hottask.schema.json).
    case hottask
    /// One todo.txt line per task (http://todotxt.org).
    case todotxt
    /// An iCalendar file of VTODOs (RFC 5545), as vdirsyncer and todoman keep them.
    case ics
}

/// A request HotTask will not carry out; the message says why. Nothing was changed.
struct RefusedError: Error {
    let message: String
}

/// An export file could not be written; the store itself is untouched.
struct ExportError: Error {
    let message: String
}

/// The UI was left while a change could not be saved.
struct UnsavedOnExit: Error {
    let message: String
}

/// The UI was asked for where there is no terminal.
struct TerminalUnavailable: Error {
    let message: String
}

enum HotTaskVersion {
    static let current = "0.1.0"
}
