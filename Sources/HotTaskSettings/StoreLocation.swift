import Foundation

/// Where the store lives: `--file`, else `$HOTTASK_FILE`, else the XDG data folder.
public enum StoreLocation {
    public static func resolve(file: String?, environment: [String: String]) -> String {
        if let file, !file.isEmpty { return file }
        if let file = environment["HOTTASK_FILE"], !file.isEmpty { return file }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/hottask/tasks.json"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/hottask/tasks.json"
    }
}
