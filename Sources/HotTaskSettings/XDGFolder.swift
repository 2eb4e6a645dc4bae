/// Where HotTask keeps its files, by the XDG Base Directory rules: `$XDG_CONFIG_HOME/hottask`,
/// `$XDG_DATA_HOME/hottask` and `$XDG_STATE_HOME/hottask`, else `~/.config/hottask`,
/// `~/.local/share/hottask` and `~/.local/state/hottask`. The one place these rules are written.
public enum XDGFolder: Sendable {
    /// The config file.
    case config
    /// The store.
    case data
    /// What the app remembers between runs (the details choice, the draft).
    case state

    private var variable: String {
        switch self {
        case .config: "XDG_CONFIG_HOME"
        case .data: "XDG_DATA_HOME"
        case .state: "XDG_STATE_HOME"
        }
    }

    private var underHome: String {
        switch self {
        case .config: "/.config"
        case .data: "/.local/share"
        case .state: "/.local/state"
        }
    }

    /// The path of `name` in HotTask's folder of this kind. The variable counts only when it is
    /// absolute (the spec says a relative one is invalid and must be ignored); otherwise the
    /// folder is under `$HOME`. Nil when HOME is unset or empty: there is no home to look in.
    public func path(_ name: String, environment: [String: String]) -> String? {
        folder(environment: environment, home: nil).map { $0 + "/" + name }
    }

    /// As `path(_:environment:)`, with `home` standing in for an unset or empty HOME.
    public func path(_ name: String, environment: [String: String], home: String) -> String {
        (folder(environment: environment, home: home) ?? home + underHome + "/hottask") + "/" + name
    }

    private func folder(environment: [String: String], home fallback: String?) -> String? {
        if let folder = environment[variable], folder.hasPrefix("/") { return folder + "/hottask" }
        guard let home = environment["HOME"].flatMap({ $0.isEmpty ? nil : $0 }) ?? fallback else { return nil }
        return home + underHome + "/hottask"
    }
}
