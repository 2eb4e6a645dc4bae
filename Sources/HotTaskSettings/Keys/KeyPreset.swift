/// A ready-made set of list keys for hands trained by another tool, chosen with
/// `keys = "NAME"` at the top of the config file. A preset is the standard keys with some
/// actions moved; a `[keys]` table still changes single actions on top of it.
///
/// No `vim` preset: the standard keys already are vim's where HotTask has the action (j k,
/// g G, / search, u undo, Ctrl-R redo), and vim has no keys for the rest to follow.
package enum KeyPreset: String, CaseIterable, Sendable {
    case hottask
    /// taskwarrior-tui's defaults: d done, x delete, J K page, m modify, a add, A annotate.
    case taskwarriorTUI = "taskwarrior-tui"

    /// The actions whose keys the preset replaces. Every action keeps a key, and each key the
    /// other tool uses for something destructive does the closest undoable thing here.
    package var replacements: [ListAction: [Key]] {
        switch self {
        case .hottask: [:]
        case .taskwarriorTUI:
            [
                .toggle: [.character(" "), .character("d")],
                .delete: [.character("x"), .delete],
                .pageUp: [.pageUp, .character("K")], .pageDown: [.pageDown, .character("J")],
                .reorderUp: [.shiftUp], .reorderDown: [.shiftDown],
                .edit: [.character("e"), .character("m"), .function(2)],
                .move: [.character("M")],
                .note: [.character("n"), .character("A")],
                .sort: [.character("S")],
                .input: [.character("a"), .character("i"), .enter, .escape, .backTab],
            ]
        }
    }

    /// Keys the other tool has that HotTask has nothing for: pressed, they say so instead of
    /// doing something else.
    package var absent: [Key: String] {
        switch self {
        case .hottask: [:]
        case .taskwarriorTUI: [.character("s"): "start/stop: HotTask does not time tasks (S sorts)"]
        }
    }

    /// How messages list the names: `"hottask" or "taskwarrior-tui"`.
    static var names: String {
        allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
    }
}
