import HotTaskCore

/// Everything the config file (`config.toml`) chooses, read in one pass: the UI's theme, list
/// key bindings, second line and mouse, on top of what every program reads from it
/// (`SharedSettings`: the section new tasks go to, the date format, `[sync]`). `standard` is
/// what HotTask does without a file; `ConfigFile` finds and reads the file.
///
/// A file with a wrong value is not half-applied: `parse` reports the first problem with the
/// file and line, and the caller keeps `standard`, so a typo can never leave someone with a
/// half-remapped keyboard they did not ask for. A setting or table it does not know (a newer
/// version's, or a misspelt one) is only skipped, with a warning: it cannot half-apply
/// anything, and ignoring the whole file for it dropped the key bindings and [sync] too.
public struct AppConfig: Equatable, Sendable {
    public var theme: Theme = .default
    package var bindings: KeyBindings = .standard
    /// `details = true`: the list starts with each task's second line (when added and done)
    /// until `v` chooses otherwise, which is then remembered (see TerminalApp).
    public var details = false
    /// `mouse = false`: no mouse reports, so the terminal's own selection works without Shift
    /// (and clicks and the wheel do nothing in HotTask).
    public var mouse = true
    /// The settings the command line and sync read too.
    public var settings: SharedSettings = .standard
    /// Settings and tables skipped because HotTask does not know them.
    public var warnings: [Problem] = []

    public typealias Problem = ConfigProblem

    public static let standard = AppConfig()

    package init(theme: Theme = .default, bindings: KeyBindings = .standard, defaultSection: Section = .priority) {
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

    /// Reads the text of a config file; `file` is only used to name it in messages.
    public static func parse(_ text: String, file: String) throws(Problem) -> AppConfig {
        let entries: [TOMLSubset.Entry]
        do {
            entries = try TOMLSubset.parse(text)
        } catch {
            throw Problem(file: file, line: error.line, reason: error.reason)
        }
        func problem(_ entry: TOMLSubset.Entry, _ reason: String) -> Problem {
            Problem(file: file, line: entry.line, reason: reason)
        }
        var config = AppConfig()
        var replacements: [ListAction: [Key]] = [:]
        var bindingLines: [ListAction: Int] = [:]
        var warnings: [Problem] = []
        let settings = try SharedSettings.read(entries, file: file, warnings: &warnings) { entry, warnings throws(Problem) in
            func skip(_ reason: String) {
                warnings.append(Problem(file: file, line: entry.line, reason: reason, consequence: "skipped"))
            }
            switch (entry.table, entry.key) {
            case (nil, "theme"):
                guard case .string(let name) = entry.value, let theme = Theme(rawValue: name) else {
                    throw problem(
                        entry, "theme must be \(SharedSettings.quotedList(Theme.allCases.map(\.rawValue))), not \(SharedSettings.shown(entry.value))")
                }
                config.theme = theme
            case (nil, "details"):
                guard case .boolean(let details) = entry.value else {
                    throw problem(entry, "details must be true or false, not \(SharedSettings.shown(entry.value))")
                }
                config.details = details
            case (nil, "mouse"):
                guard case .boolean(let mouse) = entry.value else {
                    throw problem(entry, "mouse must be true or false, not \(SharedSettings.shown(entry.value))")
                }
                config.mouse = mouse
            case ("keys", let name):
                guard let action = ListAction(rawValue: name) else {
                    throw problem(entry, "unknown action \"\(name)\" in [keys] (actions: \(ListAction.allCases.map(\.name).joined(separator: ", ")))")
                }
                let names: [String]
                switch entry.value {
                case .string(let name): names = [name]
                case .strings(let list): names = list
                default: throw problem(entry, "\(name) takes a key name or an array of them, not \(entry.value.kindName)")
                }
                var keys: [Key] = []
                for keyName in names {
                    guard let key = KeyName.key(named: keyName) else {
                        throw problem(
                            entry, "unknown key name \"\(keyName)\" for \(name) (a single character, or space, enter, tab, escape, up, ctrl-r, f2...)"
                        )
                    }
                    if let fixed = KeyBindings.reserved[key] {
                        throw problem(entry, "key '\(keyName)' is reserved for \(fixed) and cannot be bound to \(name)")
                    }
                    if !keys.contains(key) { keys.append(key) }
                }
                replacements[action] = keys
                bindingLines[action] = entry.line
            default:
                if let table = entry.table {
                    // Once per table, not once per line in it.
                    if !warnings.contains(where: { $0.reason.hasPrefix("unknown table [\(table)]") }) {
                        skip("unknown table [\(table)] (known: [keys], [sync])")
                    }
                } else if ListAction(rawValue: entry.key) != nil {
                    throw problem(entry, "\"\(entry.key)\" is a key binding; put it under [keys]")
                } else {
                    skip("unknown setting \"\(entry.key)\" (known: theme, default_section, details, mouse, date_format, [keys], [sync])")
                }
            }
        }
        config.settings = settings
        config.warnings = warnings
        // An action left with no key at all could never be reached again.
        for action in ListAction.allCases where replacements[action]?.isEmpty == true && KeyBindings.fixed[action] == nil {
            throw Problem(
                file: file, line: bindingLines[action],
                reason: "\(action.name) would have no key at all; give it one (or leave it out to keep its standard keys)")
        }
        do {
            config.bindings = try KeyBindings.standard(replacing: replacements)
        } catch {
            // The line of the binding that collided, else the person's own one.
            throw Problem(file: file, line: bindingLines[error.second] ?? bindingLines[error.first], reason: error.description)
        }
        return config
    }
}
