import FoundationEssentials
import Glibc
import HotTaskCore

/// One request as HotTask builds it: Foundation's `URLRequest` lives in FoundationNetworking on
/// Linux, which links libcurl into every program that names it; libcurl is loaded only when a
/// sync starts (CCurl), so the requests are this plain value.
struct HTTPRequest {
    var url: URL?
    var httpMethod: String?
    var httpBody: Data?
    /// Each header once, under the name first given (names compare without case, as in HTTP).
    private(set) var allHTTPHeaderFields: [String: String]? = [:]

    init(url: URL) {
        self.url = url
    }

    func value(forHTTPHeaderField name: String) -> String? {
        allHTTPHeaderFields?.first { $0.key.equalsIgnoringCase(name) }?.value
    }

    mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
        let key = allHTTPHeaderFields?.keys.first { $0.equalsIgnoringCase(name) } ?? name
        allHTTPHeaderFields?[key] = value
    }
}
