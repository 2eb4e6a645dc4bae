import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// What the UI remembers between runs: whether details (`v`) were on, the list shown and the
/// folded families of each store, and what each terminal
/// said of its background (OSC 11), so that the next start's first frame has the right palette
/// without waiting for the terminal. Kept in `$XDG_STATE_HOME/hottask/ui.toml` (or
/// `~/.local/state/hottask/ui.toml`), not in the config file: a person's own file is never
/// rewritten. A file that cannot be read is ignored; the config's `details` then decides.
enum RememberedView {
    /// What the file holds.
    struct Kept: Equatable {
        var details: Bool?
        /// By terminal (`backgroundKey`): `#rrggbb`, or `none` for a terminal that answers
        /// without a colour.
        var backgrounds: [String: String] = [:]
        /// By store path: the list shown when the app last quit ("" for all lists).
        var lists: [String: String] = [:]
        /// By store path: the tasks whose subtasks were folded, as ids with spaces between.
        var folds: [String: String] = [:]
    }

    /// At most this many folds are remembered for a store (the rest open at the next start).
    static let foldsKept = 500

    /// At most this many terminals are remembered (the last ones said).
    static let terminalsKept = 16

    static func path(environment: [String: String]) -> String? {
        XDGFolder.state.path("ui.toml", environment: environment)
    }

    static func load(environment: [String: String]) -> Kept {
        var kept = Kept()
        guard let path = path(environment: environment),
            let data = FileManager.default.contents(atPath: path), data.count <= 1024 * 1024,
            let text = String(data: data, encoding: .utf8),
            let entries = try? TOMLSubset.parse(text)
        else { return kept }
        for entry in entries {
            switch (entry.table, entry.key, entry.value) {
            case (nil, "details", .boolean(let details)): kept.details = details
            case ("backgrounds", let key, .string(let value)): kept.backgrounds[key] = value
            case ("lists", let key, .string(let value)): kept.lists[key] = value
            case ("folds", let key, .string(let value)): kept.folds[key] = value
            default: break
            }
        }
        return kept
    }

    /// The remembered choice, or nil when there is none.
    static func details(environment: [String: String]) -> Bool? {
        load(environment: environment).details
    }

    /// The list shown when the app last quit on `store`; nil for all lists or none remembered.
    static func list(store: String, environment: [String: String]) -> String? {
        load(environment: environment).lists[fileKey(store)].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The tasks folded when the app last quit on `store`.
    static func folds(store: String, environment: [String: String]) -> Set<UUID> {
        Set((load(environment: environment).folds[fileKey(store)] ?? "").split(separator: " ").compactMap { UUID(uuidString: String($0)) })
    }

    /// Text the file can hold as a key or value (no quotes, backslashes or control characters).
    static func fileKey(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "\\" }.prefix(512))
    }

    /// The terminal a background belongs to: its `TERM` and `COLORFGBG`, as a key the file
    /// can hold (no quotes, backslashes or control characters).
    static func backgroundKey(environment: [String: String]) -> String {
        let key = (environment["TERM"] ?? "") + ";" + (environment["COLORFGBG"] ?? "")
        return String(key.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "\\" }.prefix(128))
    }

    /// Writes what changed (`details`, one terminal's background) beside what is there. Nil
    /// when remembered, else why not (for stderr).
    static func remember(
        details: Bool?, background: (key: String, value: String)?, list: (store: String, name: String)? = nil,
        folds: (store: String, ids: Set<UUID>)? = nil, environment: [String: String]
    ) -> String? {
        guard let path = path(environment: environment) else { return "no HOME to remember it in" }
        var kept = load(environment: environment)
        if let details { kept.details = details }
        if let background {
            kept.backgrounds[background.key] = background.value
            while kept.backgrounds.count > terminalsKept, let other = kept.backgrounds.keys.first(where: { $0 != background.key }) {
                kept.backgrounds[other] = nil
            }
        }
        if let list {
            kept.lists[Self.fileKey(list.store)] = list.name
            while kept.lists.count > terminalsKept, let other = kept.lists.keys.first(where: { $0 != Self.fileKey(list.store) }) {
                kept.lists[other] = nil
            }
        }
        if let folds {
            let key = Self.fileKey(folds.store)
            kept.folds[key] = folds.ids.map { $0.uuidString.lowercased() }.sorted().prefix(Self.foldsKept).joined(separator: " ")
            if kept.folds[key]?.isEmpty == true { kept.folds[key] = nil }
            while kept.folds.count > terminalsKept, let other = kept.folds.keys.first(where: { $0 != key }) {
                kept.folds[other] = nil
            }
        }
        var text = "# Written by HotTask: what the list showed when you last chose, and each terminal's background.\n"
        if let details = kept.details { text += "details = \(details)\n" }
        if !kept.backgrounds.isEmpty {
            text += "\n[backgrounds]\n"
            for (key, value) in kept.backgrounds.sorted(by: { $0.key < $1.key }) { text += "\"\(key)\" = \"\(value)\"\n" }
        }
        if !kept.lists.isEmpty {
            text += "\n[lists]\n"
            for (key, value) in kept.lists.sorted(by: { $0.key < $1.key }) { text += "\"\(key)\" = \"\(Self.fileKey(value))\"\n" }
        }
        if !kept.folds.isEmpty {
            text += "\n[folds]\n"
            for (key, value) in kept.folds.sorted(by: { $0.key < $1.key }) { text += "\"\(key)\" = \"\(Self.fileKey(value))\"\n" }
        }
        return SmallFile.replace(path, with: text).map { "could not remember it in \(path): \($0)" }
    }
}
