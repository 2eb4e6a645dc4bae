import HotTaskCore

/// What the config file (`config.toml`) chooses: the theme, the list's key bindings and the
/// section new tasks go to. `standard` is what HotTask does without a file.
///
/// A file with a wrong value is not half-applied: `parse` reports the first problem with the
/// file and line, and the caller keeps `standard`, so a typo can never leave someone with a
/// half-remapped keyboard they did not ask for. A setting or table it does not know (a newer
/// version's, or a misspelt one) is only skipped, with a warning: it cannot half-apply
/// anything, and ignoring the whole file for it dropped the key bindings and [sync] too.
public struct AppConfig: Equatable, Sendable {
    public var theme: Theme = .default
    public var bindings: KeyBindings = .standard
    public var defaultSection: Section = .priority
    /// `details = true`: the list starts with each task's second line (when added and done)
    /// until `v` chooses otherwise, which is then remembered (see TerminalApp).
    public var details = false
    /// `mouse = false`: no mouse reports, so the terminal's own selection works without Shift
    /// (and clicks and the wheel do nothing in HotTask).
    public var mouse = true
    /// `date_format`: how a due date that is not near is written ("iso" 2026-12-01, "dmy"
    /// 01.12.2026, "mdy" 12/01/2026), in the list and by `--list`.
    public var dateFormat: DueDisplay.Format = .iso
    /// `[sync]`: the CalDAV calendar to sync with; nil when the file has none.
    public var sync: SyncSettings?
    /// Settings and tables skipped because HotTask does not know them.
    public var warnings: [Problem] = []

    public static let standard = AppConfig()

    public init(theme: Theme = .default, bindings: KeyBindings = .standard, defaultSection: Section = .priority) {
        self.theme = theme
        self.bindings = bindings
        self.defaultSection = defaultSection
    }

    /// The first problem in a config file, as one line naming the file and line.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public let file: String
        public let line: Int?
        public let reason: String
        /// What HotTask does about it: "using the defaults" (the whole file is set aside),
        /// "skipped" (only this line), or what else it leaves out.
        public let consequence: String

        public init(file: String, line: Int?, reason: String, consequence: String = "using the defaults") {
            self.file = file
            self.line = line
            self.reason = reason
            self.consequence = consequence
        }

        /// With the full path: for the command line's stderr.
        public var description: String {
            "config \(file)\(line.map { " line \($0)" } ?? ""): \(reason); \(consequence)"
        }

        /// With the file's name only: for the UI's one-line footer, where a long path would
        /// push the line number and the reason off the screen.
        public var shortDescription: String {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            return "\(name)\(line.map { " line \($0)" } ?? ""): \(reason); \(consequence)"
        }
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
        func skip(_ entry: TOMLSubset.Entry, _ reason: String) {
            config.warnings.append(Problem(file: file, line: entry.line, reason: reason, consequence: "skipped"))
        }
        var replacements: [ListAction: [Key]] = [:]
        var bindingLines: [ListAction: Int] = [:]
        var syncLine: Int?
        for entry in entries {
            switch (entry.table, entry.key) {
            case (nil, "theme"):
                guard case .string(let name) = entry.value, let theme = Theme(rawValue: name) else {
                    throw problem(entry, "theme must be \(quotedList(Theme.allCases.map(\.rawValue))), not \(shown(entry.value))")
                }
                config.theme = theme
            case (nil, "default_section"):
                guard case .string(let name) = entry.value, let section = Section(rawValue: name) else {
                    throw problem(entry, "default_section must be \"priority\" or \"bonus\", not \(shown(entry.value))")
                }
                config.defaultSection = section
            case (nil, "details"):
                guard case .boolean(let details) = entry.value else {
                    throw problem(entry, "details must be true or false, not \(shown(entry.value))")
                }
                config.details = details
            case (nil, "mouse"):
                guard case .boolean(let mouse) = entry.value else {
                    throw problem(entry, "mouse must be true or false, not \(shown(entry.value))")
                }
                config.mouse = mouse
            case (nil, "date_format"):
                guard case .string(let name) = entry.value, let format = DueDisplay.Format(rawValue: name) else {
                    throw problem(entry, "date_format must be \(quotedList(DueDisplay.Format.allCases.map(\.rawValue))), not \(shown(entry.value))")
                }
                config.dateFormat = format
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
            case ("sync", let name):
                let known = ["url", "username", "password_command", "ca_file", "connections"]
                guard known.contains(name) else {
                    skip(entry, "unknown setting \"\(name)\" in [sync] (known: \(known.joined(separator: ", ")))")
                    continue
                }
                var sync = config.sync ?? SyncSettings(url: "")
                if name == "connections" {
                    guard case .integer(let count) = entry.value, (1...32).contains(count) else {
                        throw problem(entry, "connections in [sync] takes a number from 1 to 32, not \(shown(entry.value))")
                    }
                    sync.connections = count
                } else {
                    guard case .string(let value) = entry.value else {
                        throw problem(entry, "\(name) in [sync] takes a string, not \(entry.value.kindName)")
                    }
                    switch name {
                    case "url": sync.url = value
                    case "username": sync.username = value
                    case "ca_file": sync.caFile = value
                    default: sync.passwordCommand = value
                    }
                }
                config.sync = sync
                syncLine = syncLine ?? entry.line
            default:
                if let table = entry.table {
                    // Once per table, not once per line in it.
                    if !config.warnings.contains(where: { $0.reason.hasPrefix("unknown table [\(table)]") }) {
                        skip(entry, "unknown table [\(table)] (known: [keys], [sync])")
                    }
                } else if ListAction(rawValue: entry.key) != nil {
                    throw problem(entry, "\"\(entry.key)\" is a key binding; put it under [keys]")
                } else {
                    skip(entry, "unknown setting \"\(entry.key)\" (known: theme, default_section, details, mouse, date_format, [keys], [sync])")
                }
            }
        }
        if let sync = config.sync, sync.url.isEmpty {
            throw Problem(file: file, line: syncLine, reason: "[sync] needs a url (the calendar collection)")
        }
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

    private static func quotedList(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        return quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
    }

    private static func shown(_ value: TOMLSubset.Value) -> String {
        if case .string(let text) = value { return "\"\(text)\"" }
        return value.kindName
    }
}

/// `[sync]`: the calendar collection, who to be, and how to get the password (never stored).
public struct SyncSettings: Equatable, Sendable {
    public var url: String
    public var username: String?
    /// Run by `/bin/sh`; the first line it prints is the password.
    public var passwordCommand: String?
    /// A PEM file of CA certificates to trust for HTTPS instead of the system's (a private CA).
    public var caFile: String?
    /// Requests in flight at once (1 to 32; 8 when not set).
    public var connections: Int?

    public init(url: String, username: String? = nil, passwordCommand: String? = nil) {
        self.url = url
        self.username = username
        self.passwordCommand = passwordCommand
    }
}
