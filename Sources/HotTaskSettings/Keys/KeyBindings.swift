/// Which keys do which list action. The defaults are HotTask's own keys, or a preset's
/// (`keys = "taskwarrior-tui"`); the config file's `[keys]` table replaces the keys of the
/// actions it names.
///
/// Only the list focus is rebindable: the input row, the filter and the caption editor keep
/// their line-editing keys, and the keys every focus shares (Ctrl-C and Ctrl-Q quit, Ctrl-Z,
/// Ctrl-L, F1) are fixed so that a bad binding can never trap anyone in the app.
public struct KeyBindings: Equatable, Sendable {
    /// Keys of each action, in the order the help shows them.
    package private(set) var keys: [ListAction: [Key]]
    private var actions: [Key: ListAction]
    /// The preset the keys start from.
    package private(set) var preset: KeyPreset = .hottask

    /// Keys no binding may take, with what they do.
    package static let reserved: [Key: String] = [
        .control("c"): "quit", .control("q"): "quit", .control("z"): "suspend", .control("l"): "redraw",
        .function(1): "help", .tab: "going back to the input",
    ]

    /// Actions that keep a key whatever the config says: the ways out of the list. An action
    /// without one must keep at least one key of its own (see `AppConfig.parse`).
    package static let fixed: [ListAction: [Key]] = [
        .input: [.tab], .help: [.function(1)], .quit: [.control("c"), .control("q")],
    ]

    package static let standard = KeyBindings(uncheckedKeys: [
        .up: [.up, .character("k")], .down: [.down, .character("j")],
        .pageUp: [.pageUp], .pageDown: [.pageDown],
        .first: [.home, .character("g")], .last: [.end, .character("G")],
        .jumpPriority: [.character("[")], .jumpBonus: [.character("]")],
        .toggle: [.character(" "), .character("x")], .move: [.character("m")], .addSubtask: [.character("o")],
        // z as vim's folds; l and h (or Ctrl/Alt-→ ←) deeper and shallower, as in an outliner.
        .fold: [.character("z")], .foldAll: [.character("Z")], .indent: [.character("l"), .wordRight], .outdent: [.character("h"), .wordLeft],
        .reorderUp: [.character("K"), .shiftUp], .reorderDown: [.character("J"), .shiftDown],
        .edit: [.character("e"), .function(2)], .delete: [.character("d"), .delete],
        .clearCompleted: [.character("C")], .undo: [.character("u")], .redo: [.control("r")],
        .filter: [.character("/"), .control("f")], .sort: [.character("s")], .completedLast: [.character("c")],
        .details: [.character("v")], .nextList: [.character(">")], .previousList: [.character("<")], .moveToList: [.character("T")],
        .due: [.character("w")], .repeatRule: [.character("r")], .note: [.character("n")],
        // Capitals no other tool's preset takes: H history, W (as w: when) the due dates' calendar.
        .history: [.character("H")], .calendar: [.character("W")],
        .input: [.character("i"), .enter, .escape, .backTab],
        .help: [.character("?")], .quit: [.character("q")],
    ])

    /// Two actions that want the same key.
    package struct Conflict: Error, Equatable, Sendable, CustomStringConvertible {
        package let key: Key
        package let first: ListAction
        package let second: ListAction

        package var description: String {
            "key '\(KeyName.configName(of: key))' is bound to both \(first.name) and \(second.name)"
        }
    }

    private init(uncheckedKeys: [ListAction: [Key]]) {
        keys = uncheckedKeys
        actions = [:]
        for action in ListAction.allCases {
            for key in uncheckedKeys[action] ?? [] { actions[key] = action }
        }
        // The fixed ways out work in the list whatever the config says (Tab to the input, as
        // Ctrl-C quits): the config can never take them, so they are added here, not special-
        // cased where keys are handled.
        for (action, keys) in Self.fixed {
            for key in keys where actions[key] == nil { actions[key] = action }
        }
    }

    /// The standard bindings with the keys of some actions replaced. An action given no keys
    /// is unbound. A key that ends up on two actions is refused, naming both.
    package static func standard(replacing replacements: [ListAction: [Key]]) throws(Conflict) -> KeyBindings {
        try preset(.hottask, replacing: replacements)
    }

    /// A preset's bindings with the keys of some actions replaced, as `standard(replacing:)`.
    package static func preset(_ preset: KeyPreset, replacing replacements: [ListAction: [Key]]) throws(Conflict) -> KeyBindings {
        var keys = standard.keys
        for (action, newKeys) in preset.replacements { keys[action] = newKeys }
        for (action, newKeys) in replacements { keys[action] = newKeys }
        var owner: [Key: ListAction] = [:]
        // Replaced actions first, so the message names the person's own binding first.
        let order = ListAction.allCases.filter { replacements[$0] != nil } + ListAction.allCases.filter { replacements[$0] == nil }
        for action in order {
            for key in keys[action] ?? [] {
                if let other = owner[key], other != action { throw Conflict(key: key, first: other, second: action) }
                owner[key] = action
            }
        }
        var bindings = KeyBindings(uncheckedKeys: keys)
        bindings.preset = preset
        return bindings
    }

    /// What a key the preset's tool has, and HotTask has not, would have done; nil for a bound
    /// key or one the preset says nothing about.
    package func absentNote(for key: Key) -> String? {
        actions[key] == nil ? preset.absent[key] : nil
    }

    /// The action bound to `key`, if any.
    package func action(for key: Key) -> ListAction? {
        actions[key]
    }

    /// The keys of `action` as the help shows them ("Space x"); empty when unbound.
    package func label(of action: ListAction) -> String {
        (keys[action] ?? []).map(KeyName.label(of:)).joined(separator: " ")
    }

    /// The first key of `action`, as the footer and messages show it.
    package func firstLabel(of action: ListAction) -> String? {
        keys[action]?.first.map(KeyName.label(of:))
    }
}
