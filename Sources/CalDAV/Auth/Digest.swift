import FoundationEssentials
import Glibc
import HotTaskCore

/// HTTP Digest (RFC 7616) with qop=auth: what to answer a server's challenge, request by
/// request. One nonce serves many requests, each with the next nonce count (`nc`).
struct Digest {
    enum Algorithm: String, CaseIterable {
        case md5 = "MD5"
        case md5Session = "MD5-sess"
        case sha256 = "SHA-256"
        case sha256Session = "SHA-256-sess"

        init?(named name: String?) {
            // No algorithm parameter means MD5 (RFC 7616 §3.3).
            guard let name else {
                self = .md5
                return
            }
            guard let found = Self.allCases.first(where: { $0.rawValue.equalsIgnoringCase(name) }) else { return nil }
            self = found
        }

        /// Higher is stronger, for choosing among several challenges.
        var strength: Int {
            switch self {
            case .md5, .md5Session: 1
            case .sha256, .sha256Session: 2
            }
        }

        var isSession: Bool { self == .md5Session || self == .sha256Session }

        func hash(_ text: String) -> String {
            switch self {
            case .md5, .md5Session: Hashes.md5(text)
            case .sha256, .sha256Session: Hashes.sha256(text)
            }
        }
    }

    let algorithm: Algorithm
    /// The algorithm's name as the challenge spelled it (nil: it named none), echoed back.
    let algorithmName: String?
    let realm: String
    let nonce: String
    let opaque: String?
    /// False for an RFC 2069 server, whose challenge has no qop.
    let usesQop: Bool

    /// Nil when the challenge is not one HotTask can answer (an unknown algorithm, only
    /// qop=auth-int, no nonce); `unsupportedReason` then says why.
    init?(_ challenge: Challenge) {
        guard Self.unsupportedReason(challenge) == nil, let algorithm = Algorithm(named: challenge["algorithm"]),
            let nonce = challenge["nonce"]
        else { return nil }
        self.algorithm = algorithm
        algorithmName = challenge["algorithm"]
        realm = challenge["realm"] ?? ""
        self.nonce = nonce
        opaque = challenge["opaque"]
        usesQop = challenge["qop"] != nil
    }

    static func unsupportedReason(_ challenge: Challenge) -> String? {
        if Algorithm(named: challenge["algorithm"]) == nil { return "Digest with algorithm \(challenge["algorithm"] ?? "")" }
        if challenge["nonce"] == nil { return "Digest without a nonce" }
        if let qop = challenge["qop"], !Self.offersAuth(qop) { return "Digest with qop=\(qop)" }
        return nil
    }

    private static func offersAuth(_ qop: String) -> Bool {
        qop.split(separator: ",").contains { $0.trimmingBlanks().lowercased() == "auth" }
    }

    /// The `response` value (RFC 7616 §3.4.1).
    func response(username: String, password: String, method: String, uri: String, count: Int, cnonce: String) -> String {
        var a1 = algorithm.hash("\(username):\(realm):\(password)")
        if algorithm.isSession { a1 = algorithm.hash("\(a1):\(nonce):\(cnonce)") }
        let a2 = algorithm.hash("\(method):\(uri)")
        if usesQop { return algorithm.hash("\(a1):\(nonce):\(Self.count(count)):\(cnonce):auth:\(a2)") }
        return algorithm.hash("\(a1):\(nonce):\(a2)")
    }

    /// The `Authorization` header for one request.
    func authorization(username: String, password: String, method: String, uri: String, count: Int, cnonce: String) -> String {
        let answer = response(username: username, password: password, method: method, uri: uri, count: count, cnonce: cnonce)
        var fields = [
            "username=\(Self.quoted(username))", "realm=\(Self.quoted(realm))", "nonce=\(Self.quoted(nonce))", "uri=\(Self.quoted(uri))",
        ]
        if let algorithmName { fields.append("algorithm=\(algorithmName)") }
        fields.append("response=\(Self.quoted(answer))")
        if usesQop { fields += ["qop=auth", "nc=\(Self.count(count))", "cnonce=\(Self.quoted(cnonce))"] }
        if let opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// nc: eight hex digits.
    static func count(_ count: Int) -> String {
        let hex = String(count, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// A fresh client nonce: 16 random bytes, hex.
    static func newClientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hashes.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
