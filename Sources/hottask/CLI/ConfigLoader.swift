import Foundation
import HotTaskUI

/// Finds and reads the config file. A missing file at the usual place is normal (the
/// defaults); anything wrong with a file that is there gives the defaults and one warning.
enum ConfigLoader {
    /// Files larger than this are not configs; refusing them keeps a mistaken path harmless.
    static let maximumSize = 256 * 1024

    /// `--config PATH` first, then `$XDG_CONFIG_HOME/hottask/config.toml`, then
    /// `~/.config/hottask/config.toml`. Nil when there is no home to look in.
    static func path(option: String?, environment: [String: String]) -> String? {
        if let option { return option }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/hottask/config.toml"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/hottask/config.toml"
    }

    /// The config to use, and the problem to show when the file could not be used.
    static func load(option: String?, environment: [String: String]) -> (AppConfig, problem: AppConfig.Problem?) {
        guard let path = path(option: option, environment: environment) else { return (.standard, nil) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            // Only a file asked for by name is missed; the usual place may well be empty.
            return (.standard, option == nil ? nil : AppConfig.Problem(file: path, line: nil, reason: "no such file"))
        }
        guard !isFolder.boolValue else { return (.standard, AppConfig.Problem(file: path, line: nil, reason: "it is a folder, not a file")) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return (.standard, AppConfig.Problem(file: path, line: nil, reason: "cannot be read"))
        }
        guard data.count <= maximumSize else {
            return (.standard, AppConfig.Problem(file: path, line: nil, reason: "larger than \(maximumSize / 1024) KB, not a config"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return (.standard, AppConfig.Problem(file: path, line: nil, reason: "not UTF-8 text"))
        }
        do {
            return (try AppConfig.parse(text, file: path), nil)
        } catch {
            return (.standard, error)
        }
    }
}
