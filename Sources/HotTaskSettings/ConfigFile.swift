import FoundationEssentials
import Glibc
import HotTaskCore

/// Finds and reads the config file, for every program: the one place it is read. A missing
/// file at the usual place is normal (the defaults); anything wrong with a file that is there
/// gives the defaults and one warning. It is read whole — the UI's part with the part every
/// program shares (`AppConfig`) — so that every program names the same problems; each problem
/// drops only its own setting.
public enum ConfigFile {
    /// Files larger than this are not configs; refusing them keeps a mistaken path harmless.
    static let maximumSize = 256 * 1024

    /// `--config PATH` first, then `config.toml` in the XDG config folder. Nil when there is
    /// no home to look in.
    public static func path(option: String?, environment: [String: String]) -> String? {
        option ?? XDGFolder.config.path("config.toml", environment: environment)
    }

    /// The config to use, and the problem to show when the file could not be used.
    public static func load(option: String?, environment: [String: String]) -> (AppConfig, problem: ConfigProblem?) {
        guard let path = path(option: option, environment: environment) else { return (.standard, nil) }
        let text: String
        switch readText(path) {
        case .success(let read?): text = read
        // Only a file asked for by name is missed; the usual place may well be empty.
        case .success(nil): return (.standard, option == nil ? nil : ConfigProblem(file: path, line: nil, reason: "no such file"))
        case .failure(let problem): return (.standard, problem)
        }
        return trusting(AppConfig.parse(text, file: path), file: path)
    }

    /// A config file's settings for `--sync-setup`, which writes `[sync]` into it: a file with a
    /// line that is not TOML is refused (naming it), rather than written around.
    public static func check(_ text: String, file: String) throws(ConfigProblem) -> SharedSettings {
        do {
            _ = try TOMLSubset.parse(text)
        } catch {
            throw ConfigProblem(file: file, line: error.line, reason: error.reason, consequence: "nothing written")
        }
        return AppConfig.parse(text, file: file).settings
    }

    /// The config file's text; nil when there is none; a problem when it is not a config one
    /// can read (a folder, unreadable, too large, not UTF-8). The one reader of the file, for
    /// the app and for `--sync-setup`, which writes into it.
    public static func readText(_ path: String) -> Result<String?, ConfigProblem> {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return .success(nil) }
        guard !isFolder else { return .failure(ConfigProblem(file: path, line: nil, reason: "it is a folder, not a file")) }
        // `--config /dev/null`, as git and ssh take it: no settings, the defaults.
        if path == "/dev/null" { return .success("") }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = access(path, R_OK) == 0 ? "not a file HotTask can read" : String(cString: strerror(errno))
            return .failure(
                ConfigProblem(
                    file: path, line: nil, reason: "cannot be read (\(reason)); make it readable (chmod u+r \(path)) or give another --config"))
        }
        guard data.count <= maximumSize else {
            return .failure(ConfigProblem(file: path, line: nil, reason: "larger than \(maximumSize / 1024) KB, not a config"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(ConfigProblem(file: path, line: nil, reason: "not UTF-8 text"))
        }
        return .success(text)
    }

    /// A password_command is a command HotTask runs: from a file another user could change, it
    /// is refused (as ssh refuses such files), and [sync] with it; the rest of the file is used.
    /// A password written in the url of a file others can read is warned about.
    static func trusting(_ config: AppConfig, file path: String) -> (AppConfig, problem: ConfigProblem?) {
        guard let sync = config.sync else { return (config, nil) }
        var info = stat()
        guard stat(path, &info) == 0 else { return (config, nil) }
        let mode = String(info.st_mode & 0o777, radix: 8)
        let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
        var config = config
        if sync.passwordCommand != nil && (info.st_mode & 0o022 != 0 || (info.st_uid != getuid() && info.st_uid != 0)) {
            config.sync = nil
            let fix = info.st_uid != getuid() && info.st_uid != 0 ? "make it yours (chown)" : "chmod go-w '\(path)'"
            return (
                config,
                ConfigProblem(
                    file: path, line: nil,
                    reason: "holds a password_command but can be changed by others (owner \(owner), mode \(mode)); \(fix)",
                    consequence: "[sync] not used")
            )
        }
        if sync.passwordCommand != nil, let folder = openFolder(of: path) {
            config.sync = nil
            return (
                config,
                ConfigProblem(
                    file: path, line: nil,
                    reason:
                        "holds a password_command but is in a folder others may write (\(folder.path), owner \(folder.owner), mode \(folder.mode)), where it can be replaced; keep it in a folder of your own",
                    consequence: "[sync] not used")
            )
        }
        if SyncURL(sync.url).password != nil && info.st_mode & 0o044 != 0 {
            config.warnings.append(
                ConfigProblem(
                    file: path, line: nil,
                    reason:
                        "others can read the password in the sync url (owner \(owner), mode \(mode)); chmod go-r '\(path)', or use password_command",
                    consequence: "used all the same"))
        }
        return (config, nil)
    }

    /// A folder on the way to the config (as given, and as its links lead) in which others may
    /// replace it: one others may write that is not sticky, or (the config's own folder) sticky
    /// but another user's. Sticky folders of the user's or root's (/tmp) keep a file its owner's.
    static func openFolder(of path: String) -> (path: String, owner: String, mode: String)? {
        var paths = [URL(fileURLWithPath: path).standardizedFileURL.path]
        if let real = realpath(path, nil) {
            paths.append(String(cString: real))
            free(real)
        }
        for file in paths {
            var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            var own = true
            while true {
                var info = stat()
                if stat(folder.path, &info) == 0, info.st_mode & S_IWOTH != 0,
                    info.st_mode & S_ISVTX == 0 || (own && info.st_uid != getuid() && info.st_uid != 0)
                {
                    let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
                    return (folder.path, owner, String(info.st_mode & 0o7777, radix: 8))
                }
                guard folder.path != "/" else { break }
                folder = folder.deletingLastPathComponent()
                own = false
            }
        }
        return nil
    }
}
