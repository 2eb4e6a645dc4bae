import FoundationEssentials
import Glibc

/// Where the store lives: `--file`, else `$HOTTASK_FILE`, else `tasks.json` in the XDG data
/// folder (`XDGFolder.data`; the process's home directory when HOME is unset).
public enum StoreLocation {
    public static func resolve(file: String?, environment: [String: String]) -> String {
        if let file, !file.isEmpty { return file }
        if let file = environment["HOTTASK_FILE"], !file.isEmpty { return file }
        return XDGFolder.data.path("tasks.json", environment: environment, home: accountHome())
    }

    /// The account's home folder from the password database, "/" when it has none.
    static func accountHome() -> String {
        guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return "/" }
        return String(cString: folder)
    }
}
