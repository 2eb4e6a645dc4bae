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

    public static func entries(for focus: Focus) -> [Entry] {
        switch focus {
        case .input: input
        case .list: list
        case .filter: filter
        case .editing: editing
        }
    }

    /// The footer hints of a focus, in order.
    public static func hints(for focus: Focus) -> [(keys: String, action: String)] {
        entries(for: focus).compactMap(\.hint)
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

    static let list: [Entry] = [
        Entry("↑↓ k j", "select", hint: ("↑↓", "select")),
        Entry("PgUp PgDn", "page up, page down"),
        Entry("Home End g G", "first, last task"),
        Entry("[ ]", "jump to Top Priority, Bonus"),
        Entry("Space x", "done / not done", hint: ("Space", "done")),
        Entry("m", "move to the other section"),
        Entry("J K ⇧↓ ⇧↑", "reorder (Manual order)"),
        Entry("e F2", "edit the caption", hint: ("e", "edit")),
        Entry("d Del", "delete", hint: ("d", "delete")),
        Entry("C", "clear completed tasks"),
        Entry("u ^R", "undo, redo", hint: ("u", "undo")),
        Entry("/ ^F", "filter", hint: ("/", "find")),
        Entry("s", "sort: Manual, Newest, Oldest, A–Z", hint: ("s", "sort")),
        Entry("c", "completed tasks last (on/off)"),
        Entry("Tab i Enter Esc", "back to the input (Esc clears a filter first)"),
        Entry("? F1", "this help", hint: ("?", "help")),
        Entry("q ^C", "quit", hint: ("q", "quit")),
    ]

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
