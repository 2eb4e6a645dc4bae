import FoundationEssentials
import Glibc
import HotTaskCore

/// One request and its answer over `CurlTransport`, logged in by an `Authenticator`: a 401
/// that can be answered (a Digest challenge, a stale nonce) is sent again with the answer; one
/// that cannot says why in `refusal`. Safe to use from several threads at once.
final class HTTPExchange: Sendable {
    struct Reply {
        var status: Int
        var body: Data
        /// Names lowercased; a header given more than once has its values joined by ", ".
        var headers: [String: String]
        /// For a 401: why the login failed ("login refused", or the schemes not supported).
        var refusal: String?
        /// The address that answered, after redirects.
        var finalURL: String?

        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    let authenticator: Authenticator
    let timeout: TimeInterval
    private let transport: CurlTransport
    private let followsRedirects: Bool

    /// `followsRedirects` false: a 3xx is returned as it is (discovery follows them itself).
    /// Each try waits half of `timeout` for a byte: a request that met a rare stall is sent once
    /// more, and a server that never answers still costs `timeout` in all.
    init(authenticator: Authenticator, timeout: TimeInterval, followsRedirects: Bool = true, caFile: String? = nil) {
        self.authenticator = authenticator
        self.timeout = timeout
        self.followsRedirects = followsRedirects
        transport = CurlTransport(timeout: timeout / 2, statedLimit: timeout, caFile: caFile)
    }

    /// Sends the request with the Authorization header the authenticator gives, again after
    /// a 401 it can answer (twice at most: a first challenge, then a stale nonce).
    /// A 207's body goes to `stream` as it comes, when there is one.
    func perform(_ request: HTTPRequest, stream: MultistatusStream? = nil) -> Result<Reply, SyncFailure> {
        var request = request
        let method = request.httpMethod ?? "GET"
        let target = Self.requestTarget(request.url)
        for _ in 0..<3 {
            let sent = authenticator.authorization(method: method, uri: target)
            request.setValue(sent, forHTTPHeaderField: "Authorization")
            let outcome = transport.perform(request, followsRedirects: followsRedirects, stream: stream)
            guard case .success(var reply) = outcome, reply.status == 401 else { return outcome }
            switch authenticator.challenged(reply.header("WWW-Authenticate"), sent: sent) {
            case .retry: continue
            case .refused(let why), .unsupported(let why):
                reply.refusal = why
                return .success(reply)
            }
        }
        return .success(Reply(status: 401, body: Data(), headers: [:], refusal: "login refused", finalURL: nil))
    }

    /// What a request line names: the path (as encoded) and the query. Digest hashes it.
    static func requestTarget(_ url: URL?) -> String {
        guard let url, let components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: true) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}
