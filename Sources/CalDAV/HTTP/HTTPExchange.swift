import Foundation
import HotTaskCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request and its answer over the toolchain's URLSession, logged in by an
/// `Authenticator`: a 401 that can be answered (a Digest challenge, a stale nonce) is sent
/// again with the answer; one that cannot says why in `refusal`.
final class HTTPExchange: @unchecked Sendable {
    struct Reply {
        var status: Int
        var body: Data
        /// Header names lowercased.
        var headers: [String: String]
        /// For a 401: why the login failed ("login refused", or the schemes not supported).
        var refusal: String?

        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    let authenticator: Authenticator
    let timeout: TimeInterval
    private let session: URLSession
    private let delegate: Delegate

    /// `followsRedirects` false: a 3xx is returned as it is (discovery follows them itself).
    init(authenticator: Authenticator, timeout: TimeInterval, followsRedirects: Bool = true) {
        self.authenticator = authenticator
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        // Half the limit a try: a request that met a rare stall is sent once more on a new
        // connection, and a server that never answers still costs `timeout` in all.
        configuration.timeoutIntervalForRequest = timeout / 2
        configuration.timeoutIntervalForResource = timeout * 4
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        delegate = Delegate(followsRedirects: followsRedirects)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends the request with the Authorization header the authenticator gives, again after
    /// a 401 it can answer (twice at most: a first challenge, then a stale nonce).
    func perform(_ request: URLRequest) -> Result<Reply, SyncFailure> {
        var request = request
        let method = request.httpMethod ?? "GET"
        let target = Self.requestTarget(request.url)
        for _ in 0..<3 {
            let sent = authenticator.authorization(method: method, uri: target)
            request.setValue(sent, forHTTPHeaderField: "Authorization")
            let outcome = once(request)
            guard case .success(var reply) = outcome, reply.status == 401 else { return outcome }
            switch authenticator.challenged(reply.header("WWW-Authenticate"), sent: sent) {
            case .retry: continue
            case .refused(let why), .unsupported(let why):
                reply.refusal = why
                return .success(reply)
            }
        }
        return .success(Reply(status: 401, body: Data(), headers: [:], refusal: "login refused"))
    }

    /// What a request line names: the path (as encoded) and the query. Digest hashes it.
    static func requestTarget(_ url: URL?) -> String {
        guard let url, let components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: true) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }

    private final class Box: @unchecked Sendable {
        var outcome = Result<Reply, SyncFailure>.failure(SyncFailure("no answer"))
    }

    private func once(_ request: URLRequest) -> Result<Reply, SyncFailure> {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let timeout = self.timeout
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                box.outcome = .failure(NetworkFailure.describe(error, url: request.url, timeout: timeout))
            } else if let response = response as? HTTPURLResponse {
                box.outcome = .success(Reply(status: response.statusCode, body: data ?? Data(), headers: Self.headers(response)))
            }
            done.signal()
        }
        task.resume()
        done.wait()
        if let challenged = delegate.challenge(of: task) {
            if case .success(let reply) = box.outcome, reply.status == 401, reply.header("WWW-Authenticate") != nil { return box.outcome }
            return .success(Reply(status: 401, body: Data(), headers: challenged))
        }
        return box.outcome
    }

    static func headers(_ response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            headers[name.lowercased()] = value
        }
        return headers
    }

    /// Takes every authentication challenge as an answer to return (the headers of the 401
    /// kept), never a question for URLSession: without it, this URLSession waited forever on
    /// a 401 carrying a WWW-Authenticate challenge.
    private final class Delegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        private let followsRedirects: Bool
        private let lock = NSLock()
        private var challenged: [Int: [String: String]] = [:]

        init(followsRedirects: Bool) {
            self.followsRedirects = followsRedirects
        }

        /// The 401's headers when the server challenged this task.
        func challenge(of task: URLSessionTask) -> [String: String]? {
            lock.lock()
            defer { lock.unlock() }
            return challenged.removeValue(forKey: task.taskIdentifier)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let method = challenge.protectionSpace.authenticationMethod
            guard method == NSURLAuthenticationMethodHTTPBasic || method == NSURLAuthenticationMethodHTTPDigest
                || method == NSURLAuthenticationMethodDefault
            else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            let headers = (challenge.failureResponse as? HTTPURLResponse).map(HTTPExchange.headers) ?? [:]
            lock.lock()
            challenged[task.taskIdentifier] = headers
            lock.unlock()
            completionHandler(.rejectProtectionSpace, nil)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(followsRedirects ? request : nil)
        }
    }
}
