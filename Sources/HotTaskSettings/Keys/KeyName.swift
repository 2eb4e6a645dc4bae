/// Key names as a person writes them in the config file (`"space"`, `"ctrl-r"`, `"x"`) and
/// as the help overlay shows them (`Space`, `^R`, `x`).
///
/// A single character names the character typed, not a physical key, so bindings follow the
/// keyboard layout: on AZERTY `a` is the key labelled A, and `é` or `й` can be bound too.
package enum KeyName {
    private static let named: [(name: String, key: Key)] = [
        ("space", .character(" ")), ("enter", .enter), ("return", .enter), ("tab", .tab),
        ("shift-tab", .backTab), ("backtab", .backTab), ("escape", .escape), ("esc", .escape),
        ("backspace", .backspace), ("delete", .delete), ("del", .delete),
        ("up", .up), ("down", .down), ("left", .left), ("right", .right),
        ("home", .home), ("end", .end), ("pageup", .pageUp), ("pgup", .pageUp),
        ("pagedown", .pageDown), ("pgdn", .pageDown), ("shift-up", .shiftUp), ("shift-down", .shiftDown),
    ]

    /// The key a config name stands for, or nil when the name means nothing.
    package static func key(named text: String) -> Key? {
        if text.count == 1, let character = text.first {
            return character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) ? .character(character) : nil
        }
        let lower = text.lowercased()
        if let found = named.first(where: { $0.name == lower }) { return found.key }
        if lower.hasPrefix("ctrl-"), lower.count == 6, let letter = lower.last, letter.isASCII, letter.isLetter {
            // Terminals send these four as Backspace, Tab and Enter: bind what really arrives,
            // so that a conflict with those keys is found.
            switch letter {
            case "h": return .backspace
            case "i": return .tab
            case "j", "m": return .enter
            default: return .control(letter)
            }
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...24).contains(number) {
            return .function(number)
        }
        return nil
    }

    /// How messages name a key: as the config file would write it.
    package static func configName(of key: Key) -> String {
        switch key {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .control(let letter): "ctrl-\(letter)"
        case .function(let number): "f\(number)"
        default: named.first(where: { $0.key == key })?.name ?? "?"
        }
    }

    /// How the help overlay and the footer show a key: short, as printed on keyboards.
    package static func label(of key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let letter): "^" + letter.uppercased()
        case .function(let number): "F\(number)"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "⇧Tab"
        case .escape: "Esc"
        case .backspace: "⌫"
        case .delete: "Del"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .shiftUp: "⇧↑"
        case .shiftDown: "⇧↓"
        case .wordLeft: "^←"
        case .wordRight: "^→"
        case .alt(let character): "Alt-\(character)"
        case .altBackspace: "Alt-⌫"
        }
    }
}
