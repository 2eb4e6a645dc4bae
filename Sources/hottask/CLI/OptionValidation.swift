import ArgumentParser
import HotTaskCore

/// Which options go together, checked before anything runs: a combination that makes no sense
/// is refused with a line saying what goes with what (exit 64), never guessed at.
extension HotTaskCommand {
    func validate() throws {
        if file?.isEmpty == true {
            // Most likely an unset shell variable: falling back to the real store would be a surprise.
            throw ValidationError("--file needs a path; it was given an empty one.")
        }
        if bonus && add.isEmpty { throw ValidationError("--bonus goes with --add.") }
        if priority && add.isEmpty { throw ValidationError("--priority goes with --add.") }
        if priority && bonus { throw ValidationError("--priority and --bonus cannot both be given.") }
        if config?.isEmpty == true { throw ValidationError("--config needs a path; it was given an empty one.") }
        if printVersion { throw CleanExit.message(HotTaskVersion.line) }
        if exportFormat != nil && export == nil { throw ValidationError("--export-format goes with --export.") }
        if importFormat != .auto && importPath == nil { throw ValidationError("--import-format goes with --import.") }
        if exportFormat == .vdir && printsExportToStandardOutput {
            throw ValidationError("--export-format vdir writes a folder of .ics files; give the folder, not standard output.")
        }
        if json && !list && !stats && add.isEmpty && !lists.printLists {
            throw ValidationError("--json goes with --list, --lists, --stats or --add.")
        }
        try validateSingleValues()
        try validateListOptions()
        try validateSubtaskOptions()
        if stats && list { throw ValidationError("--stats and --list both print to standard output; give one.") }
        if stats && json && !add.isEmpty { throw ValidationError("--json with --stats prints the statistics; leave out --add or --json.") }
        if filter != nil && !list && !stats { throw ValidationError("--filter goes with --list or --stats.") }
        for (given, name) in [(ids, "--ids"), (open, "--open"), (tags, "--tags")] where given && !list {
            throw ValidationError("\(name) goes with --list.")
        }
        if tags && (json || ids) { throw ValidationError("--tags prints tag names, one a line; leave out \(json ? "--json" : "--ids").") }
        if ids && json { throw ValidationError("--ids goes with the list as text; the JSON has whole ids.") }
        if (list || stats || json) && printsExportToStandardOutput {
            throw ValidationError(
                "--export - and \(list ? "--list" : stats ? "--stats" : "--json") would both write to standard output; give one.")
        }
        if replace && importPath == nil { throw ValidationError("--replace goes with --import.") }
        if forceDelete && !sync { throw ValidationError("--force-delete goes with --sync.") }
        if resync && !sync { throw ValidationError("--resync goes with --sync.") }
        try validateDueOptions()
        try validateNoteAndTagOptions()
        try validateRepeatOptions()
        if !edit.isEmpty && edit.count > 2 {
            throw ValidationError(
                "--edit takes a task and its new caption: --edit 3 \"New caption\" (got \(edit.count) value\(edit.count == 1 ? "" : "s")).")
        }
        if importPath != nil && changesTasks {
            throw ValidationError("--import cannot be combined with --add, --edit, --done, --undone, --delete or --move.")
        }
        if undo && (changesTasks || importPath != nil) {
            throw ValidationError("--undo cannot be combined with other changes: it takes back the last one.")
        }
        for (given, name) in [
            (username != nil, "--username"), (passwordCommand != nil, "--password-command"), (!calendar.isEmpty, "--calendar"),
            (caFile != nil, "--ca-file"),
        ]
        where given && syncSetup == nil {
            throw ValidationError("\(name) goes with --sync-setup.")
        }
        if syncSetup != nil && (changesTasks || undo || list || stats || export != nil || importPath != nil || sync) {
            throw ValidationError("--sync-setup is a command of its own; run --sync (or anything else) after it.")
        }
        if recover && (changesTasks || undo || importPath != nil || sync || list || stats || export != nil) {
            throw ValidationError("--recover goes alone: run it, read what it says, then go on.")
        }
        if importPath == "-" && export == "-" {
            throw ValidationError("--import - and --export - cannot both use the terminal streams.")
        }
    }
}
