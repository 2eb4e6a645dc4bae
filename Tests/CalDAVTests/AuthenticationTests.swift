import Foundation
import Testing

@testable import CalDAV

/// Basic and Digest (RFC 7616) as a server sees them: the answers RFC 7616's examples give,
/// the strongest scheme chosen, a refused login told apart from a scheme HotTask lacks.
@Suite("Authentication")
struct AuthenticationTests {
    /// RFC 7616 §3.9.1: user Mufasa, password "Circle of Life", GET /dir/index.html.
    static let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
    static let cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
    static func challenge(_ algorithm: String) -> String {
        """
        Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=\(algorithm), \
        nonce="\(nonce)", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
        """
    }

    func authenticator() -> Authenticator {
        let authenticator = Authenticator(username: "Mufasa", password: "Circle of Life")
        authenticator.makeClientNonce = { Self.cnonce }
        return authenticator
    }

    @Test("RFC 7616's examples: MD5 and SHA-256 give the RFC's response values")
    func rfcVectors() throws {
        for (algorithm, expected) in [
            ("MD5", "8ca523f5e9506fed4657c9700eebdbec"),
            ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
        ] {
            let auth = authenticator()
            #expect(auth.challenged(Self.challenge(algorithm), sent: nil) == .retry)
            let header = try #require(auth.authorization(method: "GET", uri: "/dir/index.html"))
            #expect(header.hasPrefix("Digest "))
            #expect(header.contains("response=\"\(expected)\""), "\(header)")
            #expect(header.contains("nc=00000001") && header.contains("qop=auth,") && header.contains("cnonce=\"\(Self.cnonce)\""))
            #expect(header.contains("opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\""))
            #expect(header.contains("algorithm=\(algorithm)") && header.contains("uri=\"/dir/index.html\""))
        }
    }

    @Test("the nonce is reused with a growing nc; MD5-sess hashes the nonces into A1")
    func nonceCountAndSession() throws {
        let auth = authenticator()
        #expect(auth.challenged(Self.challenge("MD5-sess"), sent: nil) == .retry)
        _ = auth.authorization(method: "GET", uri: "/dir/index.html")
        let second = try #require(auth.authorization(method: "GET", uri: "/dir/index.html"))
        #expect(second.contains("nc=00000002"))
        // Computed apart (Python's hashlib) from RFC 7616's example values.
        #expect(second.contains("response=\"6914b51e16f9459d9abc967ad41c4599\""), "\(second)")
    }

    @Test("a stale nonce is answered again; the same challenge after a Digest answer is a refused login")
    func staleAndRefused() throws {
        let auth = authenticator()
        #expect(auth.challenged(Self.challenge("MD5"), sent: nil) == .retry)
        let sent = auth.authorization(method: "GET", uri: "/")
        #expect(auth.challenged(Self.challenge("MD5") + ", stale=true", sent: sent) == .retry)
        let again = try #require(auth.authorization(method: "GET", uri: "/"))
        #expect(again.contains("nc=00000001"), "a new nonce counts from 1")
        #expect(auth.challenged(Self.challenge("MD5"), sent: again) == .refused("login refused"))
    }

    @Test("Basic goes up front; a Basic challenge to it is a refused login")
    func basic() {
        let auth = Authenticator(username: "Aladdin", password: "open sesame")
        let sent = auth.authorization(method: "PROPFIND", uri: "/")
        #expect(sent == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(auth.challenged(#"Basic realm="x""#, sent: sent) == .refused("login refused"))
        #expect(Authenticator(username: nil, password: nil).authorization(method: "GET", uri: "/") == nil)
    }

    @Test("of several schemes offered, the strongest spoken is chosen (Cyrus offers four at once)")
    func strongest() throws {
        let auth = authenticator()
        let offered = """
            SCRAM-SHA-256 realm="x", Digest realm="x", nonce="n1", qop="auth", algorithm=MD5-sess, NTLM, \
            Basic realm="x", Digest realm="x", nonce="n2", qop="auth", algorithm=SHA-256
            """
        #expect(auth.challenged(offered, sent: "Basic abc") == .retry)
        let header = try #require(auth.authorization(method: "GET", uri: "/"))
        #expect(header.contains("nonce=\"n2\"") && header.contains("algorithm=SHA-256"))
    }

    @Test("only schemes HotTask does not speak: the message names them, and it is not a refused login")
    func unsupported() {
        let auth = authenticator()
        guard
            case .unsupported(let message) = auth.challenged(#"NTLM, Negotiate abc==, Digest realm="x", nonce="n", qop="auth-int""#, sent: "Basic x")
        else {
            Issue.record("expected unsupported")
            return
        }
        #expect(message.contains("NTLM") && message.contains("Negotiate") && message.contains("qop=auth-int"), "\(message)")
        #expect(!message.contains("refused"))
    }

    @Test("no credentials, and the server wants some: a refused login that says none were given")
    func noCredentials() {
        guard case .refused(let message) = Authenticator(username: nil, password: nil).challenged(#"Basic realm="x""#, sent: nil) else {
            Issue.record("expected refused")
            return
        }
        #expect(message.contains("login refused") && message.contains("no username"))
    }

    @Test("MD5 and SHA-256 match known digests, across block boundaries")
    func hashes() {
        #expect(Hashes.md5("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Hashes.md5(String(repeating: "a", count: 1000)) == "cabe45dcc9ae5b66ba86600cca6b8ba8")
        #expect(Hashes.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hashes.sha256(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
