import HotTaskCore

/// The part of the config file (`config.toml`) every program reads: the section new tasks go
/// to, how dates are written, and `[sync]`. The UI's own part (theme, key bindings) is read
/// by `AppConfig`, in the same pass over the file.
public struct SharedSettings: Equatable, Sendable {
    public var defaultSection: Section = .priority
    /// `date_format`: how a due date that is not near is written ("iso" 2026-12-01, "dmy"
    /// 01.12.2026, "mdy" 12/01/2026), in the list and by `--list`.
    public var dateFormat: DueDisplay.Format = .iso
    /// `[sync]`: the CalDAV calendar to sync with; nil when the file has none.
    public var sync: SyncSettings?
    /// `plus_tags`: whether `+word` in a new task's text (the UI's input, `--add`, `--edit`)
    /// becomes a tag (`TagRule.takingTags`); false keeps every word as text.
    public var plusTags = true

    public static let standard = SharedSettings()

    public init(defaultSection: Section = .priority) {
        self.defaultSection = defaultSection
    }

    /// Reads these settings from a config file's entries (`file` only names it in messages).
    /// Every other entry is handed to `other`, in the file's order. A setting with a bad value
    /// is skipped (its default stays) and said in `warnings`, as is a `[sync]` without a url
    /// (then not used).
    public static func read(
        _ entries: [TOMLSubset.Entry], file: String, warnings: inout [ConfigProblem],
        other: (TOMLSubset.Entry, inout [ConfigProblem]) -> Void
    ) -> SharedSettings {
        func skip(_ entry: TOMLSubset.Entry, _ reason: String, _ warnings: inout [ConfigProblem]) {
            warnings.append(ConfigProblem(file: file, line: entry.line, reason: reason, consequence: "skipped"))
        }
        var settings = SharedSettings()
        var syncLine: Int?
        for entry in entries {
            switch (entry.table, entry.key) {
            case (nil, "default_section"):
                guard case .string(let name) = entry.value, let section = Section(rawValue: name) else {
                    skip(entry, "default_section must be \"priority\" or \"bonus\", not \(shown(entry.value))", &warnings)
                    continue
                }
                settings.defaultSection = section
            case (nil, "date_format"):
                guard case .string(let name) = entry.value, let format = DueDisplay.Format(rawValue: name) else {
                    skip(
                        entry, "date_format must be \(quotedList(DueDisplay.Format.allCases.map(\.rawValue))), not \(shown(entry.value))",
                        &warnings)
                    continue
                }
                settings.dateFormat = format
            case (nil, "plus_tags"):
                guard case .boolean(let value) = entry.value else {
                    skip(entry, "plus_tags must be true or false, not \(shown(entry.value))", &warnings)
                    continue
                }
                settings.plusTags = value
            case ("sync", let name):
                let known = ["url", "username", "password_command", "ca_file", "connections", "calendars"]
                guard known.contains(name) else {
                    skip(entry, "unknown setting \"\(name)\" in [sync] (known: \(known.joined(separator: ", ")))", &warnings)
                    continue
                }
                var sync = settings.sync ?? SyncSettings(url: "")
                if name == "connections" {
                    guard case .integer(let count) = entry.value, (1...32).contains(count) else {
                        skip(entry, "connections in [sync] takes a number from 1 to 32, not \(shown(entry.value))", &warnings)
                        continue
                    }
                    sync.connections = count
                } else if name == "calendars" {
                    guard case .strings(let urls) = entry.value else {
                        skip(entry, "calendars in [sync] takes an array of calendar URLs, not \(entry.value.kindName)", &warnings)
                        continue
                    }
                    sync.calendars = urls
                } else {
                    guard case .string(let value) = entry.value else {
                        skip(entry, "\(name) in [sync] takes a string, not \(entry.value.kindName)", &warnings)
                        continue
                    }
                    switch name {
                    case "url": sync.url = value
                    case "username": sync.username = value
                    case "ca_file": sync.caFile = value
                    default: sync.passwordCommand = value
                    }
                }
                settings.sync = sync
                syncLine = syncLine ?? entry.line
            default:
                other(entry, &warnings)
            }
        }
        if let sync = settings.sync, sync.url.isEmpty {
            warnings.append(
                ConfigProblem(file: file, line: syncLine, reason: "[sync] needs a url (the calendar collection)", consequence: "[sync] not used"))
            settings.sync = nil
        }
        return settings
    }

    /// `"a", "b" or "c"`, for messages listing the values a setting takes.
    package static func quotedList(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        return quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
    }

    /// A value as a message shows it: a string in quotes, anything else by its kind.
    package static func shown(_ value: TOMLSubset.Value) -> String {
        if case .string(let text) = value { return "\"\(text)\"" }
        return value.kindName
    }
}
