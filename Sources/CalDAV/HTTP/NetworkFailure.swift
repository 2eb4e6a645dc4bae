import Foundation
import HotTaskCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failed request in words a person can act on, naming the host: never a framework's error
/// domain or code ("NSURLErrorDomain -1001").
enum NetworkFailure {
    /// `timeout`: the limit in force, for "timed out after 30 s".
    static func describe(_ error: Error, url: URL?, timeout: TimeInterval) -> SyncFailure {
        let host = url?.host.map { host in url?.port.map { "\(host):\($0)" } ?? host } ?? "the server"
        guard let code = (error as? URLError)?.code ?? URLError.Code(rawValue: (error as NSError).code) as URLError.Code? else {
            return SyncFailure("the connection to \(host) failed")
        }
        switch code {
        case .timedOut:
            return SyncFailure("\(host) timed out: no answer within \(Int(timeout)) s", timedOut: true)
        case .cannotConnectToHost:
            return SyncFailure("\(host) refused the connection (is the server running?)")
        case .cannotFindHost, .dnsLookupFailed:
            return SyncFailure("cannot find the host \(host) (check the url)")
        case .networkConnectionLost:
            return SyncFailure("the connection to \(host) was lost")
        case .notConnectedToInternet:
            return SyncFailure("no network to reach \(host)")
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            return SyncFailure("\(host)'s certificate is not trusted by this system (a self-signed or private one?)")
        case .badServerResponse, .cannotParseResponse, .zeroByteResource:
            return SyncFailure("\(host) sent an answer that is not HTTP")
        case .badURL, .unsupportedURL:
            return SyncFailure("the url for \(host) is not one HotTask can send to")
        default:
            // libcurl's TLS failures come as an unknown error whose text is curl's own words
            // ("SSL certificate problem: self-signed certificate"): those words, not a code.
            let text = (error as NSError).localizedDescription
            if let problem = text.range(of: "certificate problem: ") {
                return SyncFailure("\(host)'s certificate is not trusted by this system: \(text[problem.upperBound...])")
            }
            if text.contains("SSL") || text.contains("certificate") {
                return SyncFailure("\(host)'s certificate or TLS connection was refused: \(text)")
            }
            return SyncFailure("the connection to \(host) failed")
        }
    }
}
