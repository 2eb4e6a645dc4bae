import HotTaskCore

/// Everything the config file (`config.toml`) chooses, read in one pass: the UI's theme, list
/// key bindings, second line and mouse, on top of what every program reads from it
/// (`SharedSettings`: the section new tasks go to, the date format, `[sync]`). `standard` is
/// what HotTask does without a file; `ConfigFile` finds and reads the file.
///
/// A problem drops only what it is about, and every problem is said (`warnings`), each naming
/// its line: a setting with a bad value is skipped (its default stays); a line that is not
/// TOML is skipped; a table HotTask does not know is skipped. `[keys]` is the exception: any
/// problem in it sets all of it aside (the standard keys), so that a typo can never leave a
/// half-remapped keyboard nobody asked for.
public struct AppConfig: Equatable, Sendable {
    public var theme: Theme = .auto
    /// `[colors]`: the palette's roles given other colours (nil: the terminal's own).
    public var colors: [ColorRole: TerminalColor?] = [:]
    package var bindings: KeyBindings = .standard
    /// `details = true`: the list starts with each task's second line (when added and done)
    /// until `v` chooses otherwise, which is then remembered (see TerminalApp).
    public var details = false
    /// `mouse = false`: no mouse reports, so the terminal's own selection works without Shift
    /// (and clicks and the wheel do nothing in HotTask).
    public var mouse = true
    /// The settings the command line and sync read too.
    public var settings: SharedSettings = .standard
    /// Everything in the file that was not used, each with its line and what was done about it.
    public var warnings: [Problem] = []

    public typealias Problem = ConfigProblem

    public static let standard = AppConfig()

    package init(theme: Theme = .auto, bindings: KeyBindings = .standard, defaultSection: Section = .priority) {
        self.theme = theme
        self.bindings = bindings
        self.settings = SharedSettings(defaultSection: defaultSection)
    }

    public var defaultSection: Section {
        get { settings.defaultSection }
        set { settings.defaultSection = newValue }
    }

    public var dateFormat: DueDisplay.Format {
        get { settings.dateFormat }
        set { settings.dateFormat = newValue }
    }

    public var sync: SyncSettings? {
        get { settings.sync }
        set { settings.sync = newValue }
    }

    /// `plus_tags`: `+word` in a new task's text makes a tag.
    public var plusTags: Bool {
        get { settings.plusTags }
        set { settings.plusTags = newValue }
    }

    /// What the config drops when a `[keys]` entry is wrong.
    static let keysSetAside = "[keys] not used: the standard keys"

    /// Reads the text of a config file; `file` is only used to name it in messages. Every
    /// problem is in `warnings`; nothing is thrown.
    public static func parse(_ text: String, file: String) -> AppConfig {
        var syntax: [TOMLSubset.SyntaxError] = []
        let entries = TOMLSubset.parse(text, skipping: &syntax)
        var warnings = syntax.map { Problem(file: file, line: $0.line, reason: $0.reason, consequence: "line skipped") }
        /// What this part of the reading finds (the shared settings say theirs in `warnings`).
        var found: [Problem] = []
        func problem(_ entry: TOMLSubset.Entry, _ reason: String, _ consequence: String = "skipped") {
            found.append(Problem(file: file, line: entry.line, reason: reason, consequence: consequence))
        }
        var config = AppConfig()
        var preset = KeyPreset.hottask
        var replacements: [ListAction: [Key]] = [:]
        var bindingLines: [ListAction: Int] = [:]
        var keysProblems = 0
        func keysProblem(_ entry: TOMLSubset.Entry, _ reason: String) {
            problem(entry, reason, keysSetAside)
            keysProblems += 1
        }
        let settings = SharedSettings.read(entries, file: file, warnings: &warnings) { entry, _ in
            switch (entry.table, entry.key) {
            case (nil, "theme"):
                guard case .string(let name) = entry.value, let theme = Theme.named(name) else {
                    return problem(
                        entry, "theme must be \(SharedSettings.quotedList(Theme.allCases.map(\.rawValue))), not \(SharedSettings.shown(entry.value))")
                }
                config.theme = theme
            case (nil, "details"):
                guard case .boolean(let details) = entry.value else {
                    return problem(entry, "details must be true or false, not \(SharedSettings.shown(entry.value))")
                }
                config.details = details
            case (nil, "mouse"):
                guard case .boolean(let mouse) = entry.value else {
                    return problem(entry, "mouse must be true or false, not \(SharedSettings.shown(entry.value))")
                }
                config.mouse = mouse
            case ("colors", let name):
                guard let role = ColorRole(rawValue: name) else {
                    return problem(
                        entry, "unknown colour role \"\(name)\" in [colors] (roles: \(ColorRole.allCases.map(\.name).joined(separator: ", ")))")
                }
                guard case .string(let text) = entry.value, let color = TerminalColor.parse(text) else {
                    return problem(entry, "\(name) in [colors] takes \(TerminalColor.forms), not \(SharedSettings.shown(entry.value))")
                }
                config.colors[role] = color
            case (nil, "keys"):
                guard case .string(let name) = entry.value, let chosen = KeyPreset(rawValue: name) else {
                    return keysProblem(entry, "keys must be \(KeyPreset.names), not \(SharedSettings.shown(entry.value))")
                }
                preset = chosen
            case ("keys", let name):
                guard let action = ListAction(rawValue: name) else {
                    return keysProblem(
                        entry, "unknown action \"\(name)\" in [keys] (actions: \(ListAction.allCases.map(\.name).joined(separator: ", ")))")
                }
                let names: [String]
                switch entry.value {
                case .string(let name): names = [name]
                case .strings(let list): names = list
                default: return keysProblem(entry, "\(name) takes a key name or an array of them, not \(entry.value.kindName)")
                }
                var keys: [Key] = []
                for keyName in names {
                    guard let key = KeyName.key(named: keyName) else {
                        return keysProblem(
                            entry, "unknown key name \"\(keyName)\" for \(name) (a single character, or space, enter, tab, escape, up, ctrl-r, f2...)"
                        )
                    }
                    if let fixed = KeyBindings.reserved[key] {
                        return keysProblem(entry, "key '\(keyName)' is reserved for \(fixed) and cannot be bound to \(name)")
                    }
                    if !keys.contains(key) { keys.append(key) }
                }
                replacements[action] = keys
                bindingLines[action] = entry.line
            default:
                if let table = entry.table {
                    // Once per table, not once per line in it.
                    if !found.contains(where: { $0.reason.hasPrefix("unknown table [\(table)]") }) {
                        problem(entry, "unknown table [\(table)] (known: [keys], [colors], [sync])")
                    }
                } else if ListAction(rawValue: entry.key) != nil {
                    problem(entry, "\"\(entry.key)\" is a key binding; put it under [keys]")
                } else {
                    problem(
                        entry,
                        "unknown setting \"\(entry.key)\" (known: theme, default_section, details, mouse, date_format, keys, [keys], [colors], [sync])"
                    )
                }
            }
        }
        config.settings = settings
        warnings += found
        // An action left with no key at all could never be reached again.
        for action in ListAction.allCases where replacements[action]?.isEmpty == true && KeyBindings.fixed[action] == nil {
            warnings.append(
                Problem(
                    file: file, line: bindingLines[action],
                    reason: "\(action.name) would have no key at all; give it one (or leave it out to keep its standard keys)",
                    consequence: keysSetAside))
            keysProblems += 1
        }
        if keysProblems == 0 {
            do {
                config.bindings = try KeyBindings.preset(preset, replacing: replacements)
            } catch {
                // The line of the binding that collided, else the person's own one.
                warnings.append(
                    Problem(
                        file: file, line: bindingLines[error.second] ?? bindingLines[error.first], reason: error.description,
                        consequence: keysSetAside))
            }
        }
        // In the file's order, as a person reads it.
        config.warnings = warnings.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map(\.element)
        return config
    }
}
