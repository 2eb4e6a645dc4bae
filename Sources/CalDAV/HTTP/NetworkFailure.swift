import CCurl
import FoundationEssentials
import Glibc
import HotTaskCore

/// A failed request in words a person can act on, naming the host: never a library's error
/// name or code ("NSURLErrorDomain -1001", "CURLE_OPERATION_TIMEDOUT").
enum NetworkFailure {
    /// `words`: libcurl's own description, used only where it says more than the code
    /// ("SSL certificate problem: self-signed certificate"). `timeout`: the limit in force.
    static func describe(curlCode: Int32, words: String, url: URL, timeout: TimeInterval) -> SyncFailure {
        let host = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? "the server"
        switch Int(curlCode) {
        case Int(HT_TIMED_OUT):
            return SyncFailure("\(host) timed out: no answer within \(Int(timeout)) s", timedOut: true)
        case Int(HT_COULD_NOT_CONNECT):
            return SyncFailure("\(host) refused the connection (is the server running?)")
        case Int(HT_COULD_NOT_RESOLVE):
            return SyncFailure("cannot find the host \(host) (check the url)")
        case Int(HT_PEER_FAILED_VERIFICATION), Int(HT_SSL_CONNECT):
            if let problem = words.firstRange(of: "certificate problem: ") {
                return SyncFailure("\(host)'s certificate is not trusted by this system: \(words[problem.upperBound...])")
            }
            return SyncFailure("\(host)'s certificate or TLS connection was refused: \(words)")
        case Int(HT_SSL_CA_FILE):
            return SyncFailure("the CA certificates file cannot be read (ca_file or SSL_CERT_FILE): \(words)")
        case Int(HT_TOO_LARGE):
            return SyncFailure(
                "\(host) sent an answer over \(HT_MAXIMUM_ANSWER_MB) MB, more than HotTask reads (larger than a calendar of the store's 250,000 tasks)",
                final: true)
        case Int(HT_DOWNGRADE):
            return SyncFailure(
                "\(host) redirected the https address to plain http; HotTask sends no task and no login unencrypted (ask the server's owner to fix it)",
                final: true)
        case Int(HT_NO_LIBCURL):
            return SyncFailure("sync needs libcurl, which cannot be loaded (\(words)); install the libcurl4 package", final: true)
        case Int(HT_GOT_NOTHING), Int(HT_SEND_ERROR), Int(HT_RECV_ERROR), Int(HT_PARTIAL_FILE):
            return SyncFailure("the connection to \(host) was lost")
        default:
            return SyncFailure("the connection to \(host) failed")
        }
    }
}
