/// The keys of each focus, written once: the help overlay lists them all and the footer shows
/// the first few that fit, so the two cannot disagree.
public enum KeyHelp {
    public struct Entry: Equatable, Sendable {
        public let keys: String
        public let action: String
        /// The shorter form for the footer, or nil to leave it out of the footer.
        public let hint: (keys: String, action: String)?

        init(_ keys: String, _ action: String, hint: (String, String)? = nil) {
            self.keys = keys
            self.action = action
            self.hint = hint
        }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.keys == rhs.keys && lhs.action == rhs.action
        }
    }

    /// The list's entries come from `bindings`, so the help shows the person's own keys.
    public static func entries(for focus: Focus, bindings: KeyBindings = .standard) -> [Entry] {
        switch focus {
        case .input: input
        case .list: list(bindings)
        case .filter: filter
        case .editing: editing
        }
    }

    /// The footer hints of a focus, in order.
    public static func hints(for focus: Focus, bindings: KeyBindings = .standard) -> [(keys: String, action: String)] {
        entries(for: focus, bindings: bindings).compactMap(\.hint)
    }

    private static let lineEditing = Entry("←→ Home End ^A ^E", "move the cursor")
    private static let lineDeleting = Entry("⌫ Del ^K ^U ^W", "delete char, to end, to start, word")

    static let input: [Entry] = [
        Entry("letters", "type a new task"),
        Entry("Enter", "add it on top of Top Priority", hint: ("Enter", "add")),
        lineEditing, lineDeleting,
        Entry("↑↓ PgUp PgDn", "move the selection in the list", hint: ("↑↓", "select")),
        Entry("Tab", "go to the list", hint: ("Tab", "list")),
        Entry("^F", "filter the list", hint: ("^F", "find")),
        Entry("F2", "edit the selected task"),
        Entry("^R", "redo"),
        Entry("F1", "this help", hint: ("F1", "help")),
        Entry("^C ^Q", "quit", hint: ("^C", "quit")),
        Entry("^Z ^L", "suspend, redraw"),
    ]

    /// A line of the list's help: actions that share a description, the keys they are bound
    /// to, and the footer hint's word. Unbound actions are left out.
    private struct ListLine {
        let actions: [ListAction]
        let text: String
        var hint: String? = nil
        /// Keys that are not rebindable but belong on this line.
        var fixed: [String] = []
    }

    private static let listLines: [ListLine] = [
        ListLine(actions: [.up, .down], text: "select", hint: "select"),
        ListLine(actions: [.pageUp, .pageDown], text: "page up, page down"),
        ListLine(actions: [.first, .last], text: "first, last task"),
        ListLine(actions: [.jumpPriority, .jumpBonus], text: "jump to Top Priority, Bonus"),
        ListLine(actions: [.toggle], text: "done / not done", hint: "done"),
        ListLine(actions: [.move], text: "move to the other section"),
        ListLine(actions: [.reorderUp, .reorderDown], text: "reorder (Manual order)"),
        ListLine(actions: [.edit], text: "edit the caption", hint: "edit"),
        ListLine(actions: [.delete], text: "delete", hint: "delete"),
        ListLine(actions: [.clearCompleted], text: "clear completed tasks"),
        ListLine(actions: [.undo, .redo], text: "undo, redo", hint: "undo"),
        ListLine(actions: [.filter], text: "filter", hint: "find"),
        ListLine(actions: [.sort], text: "sort: Manual, Newest, Oldest, A–Z", hint: "sort"),
        ListLine(actions: [.completedLast], text: "completed tasks last (on/off)"),
        ListLine(actions: [.input], text: "back to the input (Esc clears a filter first)", fixed: ["Tab"]),
        ListLine(actions: [.help], text: "this help", hint: "help", fixed: ["F1"]),
        ListLine(actions: [.quit], text: "quit", hint: "quit", fixed: ["^C"]),
    ]

    static func list(_ bindings: KeyBindings) -> [Entry] {
        listLines.compactMap { line in
            let labels = line.actions.map { bindings.label(of: $0) }.filter { !$0.isEmpty }
            let keys = ([labels.joined(separator: " / ")] + line.fixed).filter { !$0.isEmpty }.joined(separator: " ")
            guard !keys.isEmpty else { return nil }
            // The footer shows each action's first key: "↑↓", "Space", "u".
            let firsts = line.actions.compactMap { bindings.firstLabel(of: $0) }
            let hintKeys = firsts.allSatisfy({ $0.count == 1 }) && firsts.count > 1
                ? firsts.joined() : (firsts.first ?? line.fixed.first ?? "")
            return Entry(keys, line.text, hint: line.hint.map { (hintKeys, $0) })
        }
    }

    static let filter: [Entry] = [
        Entry("letters", "narrow the list (case and accents ignored)"),
        lineEditing, lineDeleting,
        Entry("Enter Tab", "keep the filter, go to the list", hint: ("Enter", "keep")),
        Entry("Esc", "clear the filter, back to where you were", hint: ("Esc", "clear")),
        Entry("↑↓ PgUp PgDn", "move the selection in the matches", hint: ("↑↓", "select")),
        Entry("F1", "this help", hint: ("F1", "help")),
    ]

    static let editing: [Entry] = [
        Entry("letters", "edit the caption"),
        lineEditing, lineDeleting,
        Entry("Enter", "save the caption", hint: ("Enter", "save")),
        Entry("Esc", "cancel the edit", hint: ("Esc", "cancel")),
        Entry("F1", "this help", hint: ("F1", "help")),
    ]
}
