import HotTaskCore
import HotTaskSettings

/// The keys of each focus, written once: the help overlay lists them all and the footer shows
/// the first few that fit, so the two cannot disagree.
enum KeyHelp {
    struct Entry: Equatable, Sendable {
        let keys: String
        let action: String
        /// The shorter form for the footer, or nil to leave it out of the footer.
        let hint: Hint?

        init(_ keys: String, _ action: String, hint: (String, String)? = nil, rank: Int = 50) {
            self.keys = keys
            self.action = action
            self.hint = hint.map { Hint(keys: $0.0, action: $0.1, rank: rank) }
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.keys == rhs.keys && lhs.action == rhs.action
        }
    }

    /// A key as the footer shows it ("w due"). `rank`: which hints the footer keeps when not all
    /// fit, lowest first; they are shown in the help's order whatever their rank.
    struct Hint: Equatable, Sendable {
        let keys: String
        let action: String
        var rank: Int
    }

    /// The list's entries come from `bindings`, so the help shows the person's own keys.
    /// `section` is where Enter puts a new task (the config's `default_section`).
    /// `severalLists`: the store has more than one list, so the list keys are worth a line.
    static func entries(for focus: Focus, bindings: KeyBindings = .standard, section: Section = .priority, severalLists: Bool = false)
        -> [Entry]
    {
        switch focus {
        case .input: input(section)
        case .list: list(bindings, severalLists: severalLists)
        case .filter: filter
        case .editing: editing
        case .due: due
        case .repeating: repeating
        case .listing: listing
        case .history: history(bindings)
        case .calendar: calendar(bindings)
        }
    }

    /// The footer hints of a focus, in the order the footer shows them, each with its rank.
    static func hints(for focus: Focus, bindings: KeyBindings = .standard) -> [Hint] {
        let hints = entries(for: focus, bindings: bindings).compactMap(\.hint)
        guard focus == .list else { return hints }
        return hints.enumerated().sorted {
            ((footerOrder.firstIndex(of: $0.element.action) ?? 99), $0.offset) < ((footerOrder.firstIndex(of: $1.element.action) ?? 99), $1.offset)
        }
        .map(\.element)
    }

    /// The hints that fit `width` columns (each "keys action", two spaces between), the lowest
    /// ranks first, in the order given: as many keys as there is room for, and the way back to
    /// the input and the help always among them when anything is.
    static func footer(_ hints: [Hint], width: Int) -> [Hint] {
        var chosen = Set<Int>()
        var used = 0
        for (index, hint) in hints.enumerated().sorted(by: { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }) {
            let needed = DisplayWidth.of(hint.keys) + 1 + DisplayWidth.of(hint.action) + (chosen.isEmpty ? 0 : 2)
            guard used + needed <= width else { continue }
            used += needed
            chosen.insert(index)
        }
        return hints.indices.filter(chosen.contains).map { hints[$0] }
    }

    private static let lineEditing = Entry("←→ Home End ^A ^E ^B", "move the cursor")
    private static let wordMoving = Entry("^← ^→ Alt-b Alt-f", "move by words")
    private static let lineDeleting = Entry("⌫ Del ^D ^K ^U", "delete char, char after, to end, to start")
    private static let wordDeleting = Entry("^W Alt-⌫ Alt-d", "delete a word back, a word forward")
    private static let yankUndo = Entry("^Y ^_", "put back the last deleted text, undo an edit")
    private static let pasting = Entry("paste", "pasted text goes in as text (line breaks become spaces)")
    /// Keys every focus shares (fixed: no config changes them).
    private static let everywhere: [Entry] = [
        Entry("F1", "this help", hint: ("F1", "help"), rank: 3),
        Entry("^C ^Q", "quit"),
        Entry("^Z ^L", "suspend, redraw"),
    ]

    static func input(_ section: Section) -> [Entry] {
        [
            Entry("letters", "type a new task (+word: a tag; \\+word: text)"),
            Entry("Enter", "add it on top of \(section.title)", hint: ("Enter", "add"), rank: 1),
            lineEditing, wordMoving, lineDeleting, wordDeleting, yankUndo, pasting,
            Entry("↑↓ PgUp PgDn", "move the selection in the list", hint: ("↑↓", "select"), rank: 5),
            Entry("Tab ⇧Tab", "go to the list (after +wo: complete the tag)", hint: ("Tab", "list"), rank: 2),
            Entry("^F", "filter the list", hint: ("^F", "find"), rank: 6),
            Entry("F2", "edit the selected task (Enter or Esc comes back here)", hint: ("F2", "edit"), rank: 7),
            Entry("F3", "set the selected task's due date (Enter or Esc comes back here)", hint: ("F3", "due"), rank: 8),
            Entry("^R", "redo"),
            Entry("F1", "this help", hint: ("F1", "help"), rank: 3),
            Entry("^C ^Q", "quit", hint: ("^C", "quit"), rank: 4),
            Entry("^Z ^L", "suspend, redraw"),
        ]
    }

    /// A line of the list's help: actions that share a description, the keys they are bound
    /// to, and the footer hint's word. Unbound actions are left out.
    private struct ListLine {
        let actions: [ListAction]
        let text: String
        var hint: String? = nil
        /// Which hints the footer keeps first when not all fit (see `Hint.rank`).
        var rank = 50
        /// Keys that are not rebindable but belong on this line.
        var fixed: [String] = []
        /// The footer shows these keys instead of the first bound ones.
        var hintKeys: String? = nil
        /// The footer shows the first action's key only (the others share the line, not the hint).
        var hintFromFirst = false
    }

    /// The list's keys, in the help's order. The footer keeps first the way back to the input
    /// and the help, then the keys that change a task (done, due, move, clear, edit, undo,
    /// delete), then the rest as room allows (`rank`), and shows them in `footerOrder`.
    private static let listLines: [ListLine] = [
        ListLine(actions: [.up, .down], text: "select", hint: "select", rank: 12),
        ListLine(actions: [.pageUp, .pageDown], text: "page up, page down"),
        // One line for the four jumps, so the help fits 80×24 with the fold and level keys.
        ListLine(actions: [.first, .last, .jumpPriority, .jumpBonus], text: "first, last task / Top Priority, Bonus"),
        ListLine(actions: [.toggle], text: "done / not done", hint: "done", rank: 3),
        ListLine(actions: [.move, .addSubtask], text: "move to the other section / add a subtask", hint: "move", rank: 5, hintFromFirst: true),
        ListLine(actions: [.reorderUp, .reorderDown], text: "reorder (Manual order)"),
        ListLine(actions: [.fold, .foldAll, .outdent, .indent], text: "fold / fold all / outdent / indent"),
        ListLine(actions: [.edit, .note], text: "edit the caption / the note ($EDITOR)", hint: "edit", rank: 7, hintKeys: "e"),
        ListLine(actions: [.delete], text: "delete", hint: "delete", rank: 9),
        ListLine(actions: [.due, .repeatRule], text: "set or clear the due date / repeat rule", hint: "due", rank: 4, hintKeys: "w"),
        ListLine(actions: [.clearCompleted], text: "clear completed tasks", hint: "clear", rank: 6),
        ListLine(actions: [.undo, .redo], text: "undo, redo", hint: "undo", rank: 8),
        ListLine(actions: [.filter], text: "filter", hint: "find", rank: 10),
        ListLine(actions: [.sort], text: "sort: Manual, Newest, Oldest, A–Z, Due", hint: "sort", rank: 11),
        // One line for the two display toggles, so the help fits 80×24 with the views' keys.
        ListLine(actions: [.completedLast, .details], text: "done tasks last / dates added, done (on/off)"),
        ListLine(actions: [.nextList, .previousList], text: "next / previous list (then all lists)"),
        ListLine(actions: [.moveToList], text: "move the task to another list"),
        ListLine(actions: [.history, .calendar], text: "history / calendar of due dates", hint: "views", rank: 14),
        ListLine(actions: [.input], text: "back to the input (Esc clears a filter first)", hint: "input", rank: 1, fixed: ["Tab"], hintKeys: "Tab"),
        ListLine(actions: [.help], text: "this help", hint: "help", rank: 2, fixed: ["F1"]),
        ListLine(actions: [.quit], text: "quit", hint: "quit", rank: 13, fixed: ["^C ^Q"]),
    ]

    /// The keys of several lists: in the help only once there are several.
    private static let listActions: Set<ListAction> = [.nextList, .previousList, .moveToList]

    /// The order the list's footer shows its hints in: the way back first.
    private static let footerOrder = [
        "input", "select", "done", "edit", "due", "move", "delete", "clear", "undo", "find", "sort", "views", "help", "quit",
    ]

    static func list(_ bindings: KeyBindings, severalLists: Bool = false) -> [Entry] {
        listLines.compactMap { line in
            if !severalLists, line.actions.contains(where: Self.listActions.contains) { return nil }
            let labels = line.actions.map { bindings.label(of: $0) }.filter { !$0.isEmpty }
            let keys = ([labels.joined(separator: " / ")] + line.fixed).filter { !$0.isEmpty }.joined(separator: " ")
            guard !keys.isEmpty else { return nil }
            // The footer shows each action's first key: "↑↓", "Space", "u".
            let firsts = line.actions.compactMap { bindings.firstLabel(of: $0) }
            let hintKeys =
                firsts.allSatisfy({ $0.count == 1 }) && firsts.count > 1 && !line.hintFromFirst
                ? firsts.joined() : (firsts.first ?? line.fixed.first ?? "")
            return Entry(keys, line.text, hint: line.hint.map { (line.hintKeys ?? hintKeys, $0) }, rank: line.rank)
        } + [Entry("^Z ^L", "suspend, redraw")]
            // The preset's tool's keys that HotTask has nothing for, so a switcher sees why.
            + bindings.preset.absent.keys.compactMap { key in bindings.absentNote(for: key).map { Entry(KeyName.label(of: key), $0) } }
            .sorted { $0.keys < $1.keys }
    }

    /// The keys of the history view and the calendar (`switching`: the other view's key).
    static func history(_ bindings: KeyBindings) -> [Entry] {
        [
            Entry("Tab ⇧Tab ←→", "the next, previous chart (a small screen shows one at a time)", hint: ("Tab", "next chart"), rank: 3),
            Entry(bindings.label(of: .calendar), "the calendar of due dates", hint: (bindings.firstLabel(of: .calendar) ?? "", "calendar"), rank: 4),
            Entry("Esc q", "back to the list", hint: ("Esc", "back"), rank: 1),
        ] + everywhere
    }

    static func calendar(_ bindings: KeyBindings) -> [Entry] {
        [
            Entry("←→ h l", "the day before, after", hint: ("←→↑↓", "day"), rank: 2),
            Entry("↑↓ k j", "a week back, forward"),
            Entry("PgUp PgDn p n", "a month back, forward", hint: ("PgUp PgDn", "month"), rank: 4),
            Entry("Home t", "today", hint: ("t", "today"), rank: 6),
            Entry("Enter", "the list filtered to that day's tasks (Esc there clears it)", hint: ("Enter", "show"), rank: 3),
            Entry(bindings.label(of: .history), "the history view", hint: (bindings.firstLabel(of: .history) ?? "", "history"), rank: 7),
            Entry("Esc q", "back to the list", hint: ("Esc", "back"), rank: 1),
        ] + everywhere
    }

    static let filter: [Entry] =
        [
            Entry("letters", "narrow the list (case, accents and width ignored)"),
            Entry("+tag -tag", "with, without a tag (Tab completes it)"),
            Entry("due:", "due:today, due:overdue, due:week, due:none, due:YYYY-MM-DD"),
            lineEditing, wordMoving, lineDeleting, wordDeleting, yankUndo, pasting,
            Entry("Enter Tab ⇧Tab", "keep the filter, go to the list", hint: ("Enter", "keep"), rank: 1),
            Entry("Esc", "clear the filter, back to where you were", hint: ("Esc", "clear"), rank: 2),
            Entry("↑↓ PgUp PgDn", "move the selection in the matches", hint: ("↑↓", "select"), rank: 4),
        ] + everywhere

    static let editing: [Entry] =
        [
            Entry("letters", "edit the caption (+words after it: its tags)"),
            lineEditing, wordMoving, lineDeleting, wordDeleting, yankUndo, pasting,
            Entry("Enter", "save the caption", hint: ("Enter", "save"), rank: 1),
            Entry("Esc", "cancel the edit", hint: ("Esc", "cancel"), rank: 2),
        ] + everywhere

    static let due: [Entry] =
        [
            Entry("letters", "a due date: \(DueInput.forms); what it reads as shows as you type"),
            lineEditing, wordMoving, lineDeleting, pasting,
            Entry("Enter", "set it (an empty entry clears the due date)", hint: ("Enter", "set"), rank: 1),
            Entry("Esc", "cancel, the due date unchanged", hint: ("Esc", "cancel"), rank: 2),
        ] + everywhere

    static let repeating: [Entry] =
        [
            Entry("letters", "a repeat rule: \(RepeatInput.forms); what it reads as shows as you type"),
            lineEditing, wordMoving, lineDeleting, pasting,
            Entry("Enter", "set it (an empty entry stops the repeat)", hint: ("Enter", "set")),
            Entry("Esc", "cancel, the rule unchanged", hint: ("Esc", "cancel")),
        ] + everywhere

    static let listing: [Entry] =
        [
            Entry("letters", "the list to move the task to: its name, or its start; the list found shows as you type"),
            lineEditing, wordMoving, lineDeleting, pasting,
            Entry("Enter", "move it there", hint: ("Enter", "move")),
            Entry("Esc", "cancel, the task stays in its list", hint: ("Esc", "cancel")),
        ] + everywhere
}
