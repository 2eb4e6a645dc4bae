import HotTaskCore
import HotTaskSettings

/// The keys of each focus, written once: the help overlay lists them all and the footer shows
/// the first few that fit, so the two cannot disagree.
enum KeyHelp {
    struct Entry: Equatable, Sendable {
        let keys: String
        let action: String
        /// The shorter form for the footer, or nil to leave it out of the footer.
        let hint: (keys: String, action: String)?

        init(_ keys: String, _ action: String, hint: (String, String)? = nil) {
            self.keys = keys
            self.action = action
            self.hint = hint
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.keys == rhs.keys && lhs.action == rhs.action
        }
    }

    /// The list's entries come from `bindings`, so the help shows the person's own keys.
    /// `section` is where Enter puts a new task (the config's `default_section`).
    static func entries(for focus: Focus, bindings: KeyBindings = .standard, section: Section = .priority) -> [Entry] {
        switch focus {
        case .input: input(section)
        case .list: list(bindings)
        case .filter: filter
        case .editing: editing
        case .due: due
        case .repeating: repeating
        }
    }

    /// The footer hints of a focus, in order. The list's way back to the input comes second,
    /// so that it always fits.
    static func hints(for focus: Focus, bindings: KeyBindings = .standard) -> [(keys: String, action: String)] {
        var hints = entries(for: focus, bindings: bindings).compactMap(\.hint)
        if focus == .list, let back = hints.firstIndex(where: { $0.action == "input" }), hints.count > 1 {
            hints.insert(hints.remove(at: back), at: 1)
            // Help before sort: at 80 columns the last one does not fit, and help lists it.
            if let help = hints.firstIndex(where: { $0.action == "help" }), let sort = hints.firstIndex(where: { $0.action == "sort" }), help > sort {
                hints.insert(hints.remove(at: help), at: sort)
            }
        }
        return hints
    }

    private static let lineEditing = Entry("←→ Home End ^A ^E ^B", "move the cursor")
    private static let wordMoving = Entry("^← ^→ Alt-b Alt-f", "move by words")
    private static let lineDeleting = Entry("⌫ Del ^D ^K ^U", "delete char, char after, to end, to start")
    private static let wordDeleting = Entry("^W Alt-⌫ Alt-d", "delete a word back, a word forward")
    private static let yankUndo = Entry("^Y ^_", "put back the last deleted text, undo an edit")
    private static let pasting = Entry("paste", "pasted text goes in as text (line breaks become spaces)")
    /// Keys every focus shares (fixed: no config changes them).
    private static let everywhere: [Entry] = [
        Entry("F1", "this help", hint: ("F1", "help")),
        Entry("^C ^Q", "quit"),
        Entry("^Z ^L", "suspend, redraw"),
    ]

    static func input(_ section: Section) -> [Entry] {
        [
            Entry("letters", "type a new task (+word: a tag; \\+word: text)"),
            Entry("Enter", "add it on top of \(section.title)", hint: ("Enter", "add")),
            lineEditing, wordMoving, lineDeleting, wordDeleting, yankUndo, pasting,
            Entry("↑↓ PgUp PgDn", "move the selection in the list", hint: ("↑↓", "select")),
            Entry("Tab ⇧Tab", "go to the list (after +wo: complete the tag)", hint: ("Tab", "list")),
            Entry("^F", "filter the list", hint: ("^F", "find")),
            Entry("F2", "edit the selected task"),
            Entry("^R", "redo"),
            Entry("F1", "this help", hint: ("F1", "help")),
            Entry("^C ^Q", "quit", hint: ("^C", "quit")),
            Entry("^Z ^L", "suspend, redraw"),
        ]
    }

    /// A line of the list's help: actions that share a description, the keys they are bound
    /// to, and the footer hint's word. Unbound actions are left out.
    private struct ListLine {
        let actions: [ListAction]
        let text: String
        var hint: String? = nil
        /// Keys that are not rebindable but belong on this line.
        var fixed: [String] = []
        /// The footer shows these keys instead of the first bound ones.
        var hintKeys: String? = nil
    }

    private static let listLines: [ListLine] = [
        ListLine(actions: [.up, .down], text: "select", hint: "select"),
        ListLine(actions: [.pageUp, .pageDown], text: "page up, page down"),
        ListLine(actions: [.first, .last], text: "first, last task"),
        ListLine(actions: [.jumpPriority, .jumpBonus], text: "jump to Top Priority, Bonus"),
        ListLine(actions: [.toggle], text: "done / not done", hint: "done"),
        ListLine(actions: [.move], text: "move to the other section"),
        ListLine(actions: [.reorderUp, .reorderDown], text: "reorder (Manual order)"),
        ListLine(actions: [.edit, .note], text: "edit the caption / the note ($EDITOR)", hint: "edit", hintKeys: "e"),
        ListLine(actions: [.delete], text: "delete", hint: "delete"),
        ListLine(actions: [.due, .repeatRule], text: "set or clear the due date / repeat rule"),
        ListLine(actions: [.clearCompleted], text: "clear completed tasks"),
        ListLine(actions: [.undo, .redo], text: "undo, redo", hint: "undo"),
        ListLine(actions: [.filter], text: "filter", hint: "find"),
        ListLine(actions: [.sort], text: "sort: Manual, Newest, Oldest, A–Z, Due", hint: "sort"),
        ListLine(actions: [.completedLast], text: "completed tasks last (on/off)"),
        ListLine(actions: [.details], text: "when each task was added and done (on/off)"),
        ListLine(actions: [.input], text: "back to the input (Esc clears a filter first)", hint: "input", fixed: ["Tab"], hintKeys: "Tab"),
        ListLine(actions: [.help], text: "this help", hint: "help", fixed: ["F1"]),
        ListLine(actions: [.quit], text: "quit", hint: "quit", fixed: ["^C ^Q"]),
    ]

    static func list(_ bindings: KeyBindings) -> [Entry] {
        listLines.compactMap { line in
            let labels = line.actions.map { bindings.label(of: $0) }.filter { !$0.isEmpty }
            let keys = ([labels.joined(separator: " / ")] + line.fixed).filter { !$0.isEmpty }.joined(separator: " ")
            guard !keys.isEmpty else { return nil }
            // The footer shows each action's first key: "↑↓", "Space", "u".
            let firsts = line.actions.compactMap { bindings.firstLabel(of: $0) }
            let hintKeys =
                firsts.allSatisfy({ $0.count == 1 }) && firsts.count > 1
                ? firsts.joined() : (firsts.first ?? line.fixed.first ?? "")
            return Entry(keys, line.text, hint: line.hint.map { (line.hintKeys ?? hintKeys, $0) })
        } + [Entry("^Z ^L", "suspend, redraw")]
    }

    static let filter: [Entry] =
        [
            Entry("letters", "narrow the list (case, accents and width ignored)"),
            Entry("+tag -tag", "with, without a tag (Tab completes it)"),
            Entry("due:", "due:today, due:overdue, due:week, due:none"),
            lineEditing, wordMoving, lineDeleting, wordDeleting, yankUndo, pasting,
            Entry("Enter Tab ⇧Tab", "keep the filter, go to the list", hint: ("Enter", "keep")),
            Entry("Esc", "clear the filter, back to where you were", hint: ("Esc", "clear")),
            Entry("↑↓ PgUp PgDn", "move the selection in the matches", hint: ("↑↓", "select")),
        ] + everywhere

    static let editing: [Entry] =
        [
            Entry("letters", "edit the caption (+words after it: its tags)"),
            lineEditing, wordMoving, lineDeleting, wordDeleting, yankUndo, pasting,
            Entry("Enter", "save the caption", hint: ("Enter", "save")),
            Entry("Esc", "cancel the edit", hint: ("Esc", "cancel")),
        ] + everywhere

    static let due: [Entry] =
        [
            Entry("letters", "a due date: \(DueInput.forms); what it reads as shows as you type"),
            lineEditing, wordMoving, lineDeleting, pasting,
            Entry("Enter", "set it (an empty entry clears the due date)", hint: ("Enter", "set")),
            Entry("Esc", "cancel, the due date unchanged", hint: ("Esc", "cancel")),
        ] + everywhere

    static let repeating: [Entry] =
        [
            Entry("letters", "a repeat rule: \(RepeatInput.forms); what it reads as shows as you type"),
            lineEditing, wordMoving, lineDeleting, pasting,
            Entry("Enter", "set it (an empty entry stops the repeat)", hint: ("Enter", "set")),
            Entry("Esc", "cancel, the rule unchanged", hint: ("Esc", "cancel")),
        ] + everywhere
}
