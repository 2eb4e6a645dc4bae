import CCurl
import FoundationEssentials
import Glibc
import HotTaskCore

/// HTTP/1.1 over the system's libcurl, with connections kept alive: each handle keeps its
/// connection between requests, and a pool of handles lets several requests go at once (one
/// thread per handle). Waiting is libcurl's poll, so a slow server costs no CPU.
///
/// It replaced the toolchain's URLSession, which on Linux busy-waited while a request was in
/// flight (24 s of CPU for 200 uploads at a 50 ms round trip) and spun a core on a kept-alive
/// connection the server had dropped, so every request had to open a connection of its own.
// Unchecked: `idle`, the pool of handles, is touched only under `lock`; a handle taken from it
// is used by one thread until it is given back; the rest are `let`s.
final class CurlTransport: @unchecked Sendable {
    /// An answer: HTTPExchange's, whose `refusal` the transport leaves nil.
    typealias Reply = HTTPExchange.Reply

    let timeout: TimeInterval
    /// The limit messages name ("no answer within 30 s"): the whole request's, of which one
    /// try is given `timeout`.
    let statedLimit: TimeInterval
    /// A PEM file of certificates to trust for HTTPS (`ca_file`, else SSL_CERT_FILE), or nil
    /// for the system's.
    let caFile: String?
    private let lock = ThreadLock()
    private var idle: [UnsafeMutableRawPointer] = []

    private static let initialized: Bool = { ht_curl_global_init() == 0 }()

    init(timeout: TimeInterval, statedLimit: TimeInterval? = nil, caFile: String? = nil) {
        _ = Self.initialized
        self.timeout = timeout
        self.statedLimit = statedLimit ?? timeout
        self.caFile = caFile ?? ProcessInfo.processInfo.environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    deinit {
        for handle in idle { ht_curl_close(handle) }
    }

    /// Sends one request and waits for its whole answer. A 207's body goes to `stream` as it
    /// comes, when there is one (the reply's body is then empty).
    func perform(_ request: HTTPRequest, followsRedirects: Bool, stream: MultistatusStream? = nil) -> Result<Reply, SyncFailure> {
        guard let url = request.url else { return .failure(SyncFailure("a request without a url")) }
        let handle = take()
        defer { give(handle) }
        var headers = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key): \($0.value)" }
        let body = request.httpBody
        if body != nil && request.value(forHTTPHeaderField: "Content-Type") == nil {
            headers.append("Content-Type: application/xml; charset=utf-8")
        }
        var response = ht_response()
        let code = withCStrings(headers) { headerPointers in
            (body ?? Data()).withUnsafeBytes { bodyBytes in
                (request.httpMethod ?? "GET").withCString { method in
                    url.absoluteString.withCString { urlText in
                        withOptionalCString(caFile) { caFile in
                            var plain = ht_request(
                                method: method, url: urlText, headers: headerPointers, header_count: Int32(headers.count),
                                body: body == nil ? nil : bodyBytes.baseAddress?.assumingMemoryBound(to: CChar.self) ?? emptyBody,
                                body_length: bodyBytes.count, timeout_ms: max(100, Int(timeout * 1000)), ca_file: caFile,
                                follow_redirects: followsRedirects ? 1 : 0, sink: stream == nil ? nil : feedStream,
                                sink_context: stream.map { Unmanaged.passUnretained($0).toOpaque() })
                            return withExtendedLifetime(stream) { ht_curl_perform(handle, &plain, &response) }
                        }
                    }
                }
            }
        }
        defer { ht_response_free(&response) }
        guard code == 0 else {
            let words = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .failure(NetworkFailure.describe(curlCode: code, words: words, url: url, timeout: statedLimit))
        }
        let bodyData = response.body.bytes.map { Data(bytes: $0, count: response.body.length) } ?? Data()
        let headerText =
            response.headers.bytes.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: response.headers.length), as: UTF8.self) } ?? ""
        let finalURL = withUnsafeBytes(of: response.final_url) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .success(
            Reply(
                status: Int(response.status), body: bodyData, headers: Self.lastHeaderBlock(headerText), finalURL: finalURL.isEmpty ? nil : finalURL))
    }

    /// The headers of the final answer (after redirects and 1xx answers, each with its own block).
    static func lastHeaderBlock(_ text: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            if line.hasPrefix("HTTP/") {
                headers = [:]
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingBlanks().lowercased()
            let value = line[line.index(after: colon)...].trimmingBlanks()
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return headers
    }

    private func take() -> UnsafeMutableRawPointer? {
        lock.lock()
        let handle = idle.popLast()
        lock.unlock()
        return handle ?? ht_curl_open()
    }

    private func give(_ handle: UnsafeMutableRawPointer?) {
        guard let handle else { return }
        lock.lock()
        idle.append(handle)
        lock.unlock()
    }
}

/// Hands a piece of a 207's body to the request's `MultistatusStream`; 0 stops the reading.
private func feedStream(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
    guard let context else { return 0 }
    let stream = Unmanaged<MultistatusStream>.fromOpaque(context).takeUnretainedValue()
    return stream.consume(UnsafeRawBufferPointer(start: bytes, count: length)) ? 1 : 0
}

/// An empty body that is there (a PUT of nothing), as opposed to none.
nonisolated(unsafe) private let emptyBody = UnsafePointer<CChar>(strdup("")!)

/// `body` with an array of C strings that live as long as it runs.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}

private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
