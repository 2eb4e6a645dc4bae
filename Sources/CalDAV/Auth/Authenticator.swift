import FoundationEssentials
import Glibc
import HotTaskCore

/// Who HotTask is to a server, request by request: Basic sent up front; when a 401 offers
/// something better (or only something else), the strongest scheme it speaks, and the next
/// request answers with it. One per collection or discovery; safe to share between threads.
// Unchecked: `scheme` (the only state requests change) is read and written only under `lock`;
// `makeClientNonce` is set by tests before the authenticator is shared, and only read after.
final class Authenticator: @unchecked Sendable {
    /// What to do after a 401.
    enum Verdict: Equatable {
        /// Send the request again: there is a new answer to give (a first Digest challenge,
        /// a stale nonce, Basic asked for when nothing was sent).
        case retry
        /// The credentials were refused (or none were given and the server wants some).
        case refused(String)
        /// The server offers only schemes HotTask does not speak; the message names them.
        case unsupported(String)
    }

    private enum Scheme {
        case none
        case basic
        case digest(Digest, count: Int)
    }

    private let username: String?
    private let password: String?
    private let lock = ThreadLock()
    private var scheme: Scheme
    /// Settable for tests (RFC 7616's vectors use a fixed one).
    var makeClientNonce: () -> String = Digest.newClientNonce

    init(username: String?, password: String?) {
        self.username = username
        self.password = password
        scheme = username != nil && password != nil ? .basic : .none
    }

    /// The Authorization header for a request (`uri`: its target, path and query as sent).
    func authorization(method: String, uri: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard let username, let password else { return nil }
        switch scheme {
        case .none: return nil
        case .basic: return "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        case .digest(let digest, let count):
            scheme = .digest(digest, count: count + 1)
            return digest.authorization(
                username: username, password: password, method: method, uri: uri, count: count + 1, cnonce: makeClientNonce())
        }
    }

    /// After a 401 whose `WWW-Authenticate` said `header` (nil: none), for a request that
    /// carried `sent` (the Authorization header it had).
    func challenged(_ header: String?, sent: String?) -> Verdict {
        lock.lock()
        defer { lock.unlock() }
        let challenges = Challenge.parse(header ?? "")
        guard username != nil, password != nil else {
            return .refused("login refused: the server asks for a login, and no username and password were given")
        }
        let digests = challenges.filter { $0.scheme.lowercased() == "digest" }
        let usable = digests.compactMap(Digest.init).max { $0.algorithm.strength < $1.algorithm.strength }
        if let digest = usable {
            // A stale nonce, or Digest asked for when it was not what we sent: answer it.
            let sentDigest = sent?.hasPrefix("Digest ") == true
            let stale = digests.contains { $0["stale"]?.lowercased() == "true" }
            if !sentDigest || stale {
                scheme = .digest(digest, count: 0)
                return .retry
            }
            return .refused("login refused")
        }
        if challenges.contains(where: { $0.scheme.lowercased() == "basic" }) || challenges.isEmpty {
            if sent?.hasPrefix("Basic ") == true || challenges.isEmpty && sent != nil { return .refused("login refused") }
            scheme = .basic
            return .retry
        }
        let offered = challenges.map { challenge in
            challenge.scheme.lowercased() == "digest" ? Digest.unsupportedReason(challenge) ?? "Digest" : challenge.scheme
        }
        return .unsupported("the server asks for \(offered.joined(separator: " or ")) authentication, which HotTask does not support")
    }
}
