import Foundation
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// What the UI remembers between runs: whether details (`v`) were on. Kept in
/// `$XDG_STATE_HOME/hottask/ui.toml` (or `~/.local/state/hottask/ui.toml`) as `details = true`,
/// not in the config file: a person's own file is never rewritten. A file that cannot be read
/// is ignored; the config's `details` then decides.
enum RememberedView {
    static func path(environment: [String: String]) -> String? {
        XDGFolder.state.path("ui.toml", environment: environment)
    }

    /// The remembered choice, or nil when there is none.
    static func details(environment: [String: String]) -> Bool? {
        guard let path = path(environment: environment),
            let data = FileManager.default.contents(atPath: path), data.count <= 64 * 1024,
            let text = String(data: data, encoding: .utf8),
            let entries = try? TOMLSubset.parse(text)
        else { return nil }
        for entry in entries where entry.table == nil && entry.key == "details" {
            if case .boolean(let details) = entry.value { return details }
        }
        return nil
    }

    /// Nil when remembered, else why not (for the footer).
    static func remember(details: Bool, environment: [String: String]) -> String? {
        guard let path = path(environment: environment) else { return "no HOME to remember it in" }
        let text = "# Written by HotTask: what the list showed when you last chose.\ndetails = \(details)\n"
        return SmallFile.replace(path, with: text).map { "could not remember it in \(path): \($0)" }
    }
}
