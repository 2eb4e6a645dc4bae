import FoundationEssentials
import Glibc
import HotTaskCore

/// A sync URL as written in the config, which may carry a user name and password
/// (`https://me:secret@host/…`). The password never goes into a message or another process's
/// argv: it is taken out here and handed on by environment.
public struct SyncURL: Equatable, Sendable {
    /// The URL without user name or password: the one messages name.
    public var url: String
    public var username: String?
    public var password: String?

    /// The environment variable `hottask` hands the password to `hottask-sync` in.
    public static let passwordVariable = "HOTTASK_SYNC_PASSWORD"

    public init(_ written: String) {
        url = written
        guard var components = URLComponents(string: written), components.user != nil || components.password != nil else { return }
        username = components.user?.percentDecoded ?? components.user
        password = components.password?.percentDecoded ?? components.password
        components.user = nil
        components.password = nil
        url = components.string ?? written
    }

    /// True for a host on this machine, where plain http:// sends nothing over a network.
    public static func isLoopback(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
