import FoundationEssentials
import Glibc
import HotTaskCore

/// What the flags do, one method per kind of request. Each says what it did through `output`.
struct CommandLineActions {
    let store: TaskStore
    let output: CommandOutput
    /// How the lines that say what was done write a due date.
    var dates = DueDisplay(now: Date(), local: .current)
    private var warned = false

    init(store: TaskStore, output: CommandOutput) {
        self.store = store
        self.output = output
    }

    /// Adds, edits, completes, reopens, moves and deletes as one record (`TaskStore.change`).
    /// Returns the tasks it added, once they are in the store (`--add … --json` prints them).
    @discardableResult
    mutating func change(
        adding captions: [String], section: Section, editing: (handle: String, caption: String?)? = nil,
        due: DueInput.Request? = nil, note: String? = nil, repeating: RepeatRule? = nil, tagging: [String] = [], untagging: [String] = [],
        plusTags: Bool = true,
        inList: String? = nil, under: String? = nil, completing: [String], reopening: [String], moving: [String], deleting: [String]
    ) throws -> [TaskItem] {
        let outcome = try store.change(
            adding: captions, to: section, editing: editing, due: due, note: note, repeating: repeating, tagging: tagging, untagging: untagging,
            plusTags: plusTags, inList: inList, under: under, completing: completing, reopening: reopening, moving: moving, deleting: deleting,
            dates: dates)
        reportWarnings(knownClean: outcome.logKnownClean)
        outcome.lines.forEach { output.status($0) }
        return outcome.added
    }

    /// `--undo` (`TaskStore.undoLastChange`).
    mutating func undoLastChange() throws {
        let lines = try store.undoLastChange()
        reportWarnings()
        lines.forEach { output.status($0) }
    }

    /// `--recover`: makes a damaged store whole, saying what it kept, what it set aside and
    /// what it could not keep (the last on stderr, even with --quiet). True when it changed the store.
    func recover() throws -> Bool {
        let report = try store.recover()
        say(report.messages(for: store))
        return !report.wasWhole
    }

    /// Says on stderr which log lines a read had to skip (once per command).
    /// `knownClean`: the store was read the quick way, which it takes only when the log has no
    /// damaged line, so there is nothing to say and no need to read the log again.
    mutating func reportWarnings(knownClean: Bool = false) {
        guard !warned else { return }
        warned = true
        if knownClean { return }
        for warning in store.logWarnings() { HotTaskCommand.fail("warning: \(warning)") }
    }

    /// `--list`: all tasks, or those `openOnly` and `filter` (the UI's matching) leave; numbered
    /// as in the whole list, so that a number shown works with --done.
    mutating func printList(
        inList: String? = nil, asJSON: Bool, openOnly: Bool = false, filter: String? = nil, showingIDs: Bool = false, overdueOnly: Bool = false,
        byDue: Bool = false, onlyTags: Bool = false, dates: DueDisplay = DueDisplay(now: Date(), local: .current)
    ) throws {
        let list = try read()
        var selection = ListSelection(
            openOnly: openOnly || byDue, filter: filter, overdueAsOf: overdueOnly ? dates : nil, dates: dates, lists: list.lists)
        // Numbered as in the whole list even then, so that the number shown is the one --done takes.
        selection.onlyList = try inList.map { try TaskStore.existingList($0, in: list, flag: "--in") }
        let showingLists = inList == nil && list.hasSeveralLists
        if onlyTags {
            // As `--tag` takes them, one a line; control characters escaped, as in every list.
            let tags = (selection.isEverything ? list : TaskList(list.all.filter(selection.includes))).tagsInUse
            output.text(tags.map { MessageText.escaped($0) + "\n" }.joined())
            return
        }
        let styled = { ListFormatter.wantsStyle(isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment) }
        if byDue && !asJSON {
            ListFormatter.writeByDue(
                list, styled: styled(), selection: selection, showingIDs: showingIDs, dates: dates, showingLists: showingLists
            ) { output.bytes($0) }
        } else if asJSON {
            var shown = selection.isEverything ? list : TaskList(list.all.filter(selection.includes))
            shown.keepLists(of: list)
            StoreDocument.encode(shown) { output.bytes($0) }
        } else {
            ListFormatter.write(list, styled: styled(), selection: selection, showingIDs: showingIDs, dates: dates, showingLists: showingLists) {
                output.bytes($0)
            }
        }
    }

    /// `--stats`: the lasting history and the list as it stands (`TaskStore.statistics`), as text
    /// or JSON; `filter` narrows it as it narrows `--list`.
    mutating func printStatistics(asJSON: Bool, filter: String?, inList: String? = nil, dates: DueDisplay) throws {
        let (statistics, warnings) = try store.statistics(dates: dates, filter: filter, inList: inList)
        if !warned {
            warned = true
            for warning in warnings { HotTaskCommand.fail("warning: \(warning)") }
        }
        if asJSON {
            output.bytes(statistics.json)
        } else {
            let blocks = StatisticsFormatter.wantsBlocks(environment: ProcessInfo.processInfo.environment)
            output.text(StatisticsFormatter.text(statistics, blocks: blocks))
        }
    }

    /// `--import`: the file merged (or the list replaced) in one record (`TaskStore.importTasks`).
    mutating func importTasks(from path: String, format: ImportFormat = .auto, replacing: Bool, inList: String? = nil) throws {
        let messages = try store.importTasks(from: path, as: format, replacing: replacing, into: inList, dates: dates)
        // Files beside the store that could not be written first, then the log's warnings.
        say(messages.filter { if case .warning = $0 { true } else { false } })
        reportWarnings()
        say(messages.filter { if case .warning = $0 { false } else { true } })
    }

    /// `--export`: the list written in `format` (`TaskStore.export`); "-" is standard output.
    mutating func export(to path: String, format: ExportFormat = .hottask, byName: Bool = false, inList: String? = nil) throws {
        let whole = try read()
        let name = try inList.map { try TaskStore.existingList($0, in: whole, flag: "--in") }
        let list = name.map { whole.onlyList($0) } ?? whole
        let output = output
        try store.export(
            list, as: format, byName: byName, to: path, listName: name, standardOutput: { output.bytes($0) }, say: { Self.say($0, to: output) })
    }

    /// Status lines on stdout; notes and warnings on stderr, even with --quiet.
    func say(_ messages: [CommandMessage]) {
        for message in messages { Self.say(message, to: output) }
    }

    private static func say(_ message: CommandMessage, to output: CommandOutput) {
        switch message {
        case .status(let line): output.status(line)
        case .note(let note): HotTaskCommand.fail("note: \(note)")
        case .warning(let warning): HotTaskCommand.fail("warning: \(warning)")
        }
    }

    /// The list as one committed state (no lock needed), with any warnings said once.
    private mutating func read() throws -> TaskList {
        LeftForExit.drop()  // the list a command before this one read: not held through this read
        let state = try store.read()
        if !warned {
            warned = true
            for warning in state.warnings { HotTaskCommand.fail("warning: \(warning)") }
        }
        LeftForExit.hold(state.list)
        return state.list
    }

}
