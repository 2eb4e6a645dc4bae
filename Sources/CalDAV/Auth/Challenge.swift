/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): a scheme and its
/// parameters. A server may offer several, in one header or several (which arrive joined by
/// commas), so `parse` reads a list.
struct Challenge: Equatable {
    /// As the server wrote it (`Digest`, `basic`, `NTLM`…).
    var scheme: String
    /// Parameter names lowercased; values unquoted.
    var parameters: [String: String] = [:]

    subscript(_ name: String) -> String? { parameters[name] }

    static func parse(_ header: String) -> [Challenge] {
        var challenges: [Challenge] = []
        var scanner = Scanner(Array(header.unicodeScalars))
        while true {
            scanner.skip(whitespaceAndCommas: true)
            guard let token = scanner.token() else {
                // Something unreadable: step over it rather than loop.
                if scanner.atEnd { break }
                scanner.index += 1
                continue
            }
            var challenge = Challenge(scheme: token)
            // Parameters (name=value, comma-separated) until a token that is not followed by
            // `=`: that is the next challenge's scheme. token68 (`Negotiate abc==`) is stepped over.
            while true {
                scanner.skip(whitespaceAndCommas: true)
                let mark = scanner.index
                guard let name = scanner.token() else {
                    if !scanner.atEnd && scanner.peek != "," { _ = scanner.token68() }
                    break
                }
                scanner.skip(whitespaceAndCommas: false)
                guard scanner.peek == "=" else {
                    scanner.index = mark
                    break
                }
                scanner.index += 1
                scanner.skip(whitespaceAndCommas: false)
                if scanner.peek == "=" {
                    // token68 with padding (`abc==`) read as a name: not a parameter.
                    while scanner.peek == "=" { scanner.index += 1 }
                    continue
                }
                let value = scanner.peek == "\"" ? scanner.quoted() : (scanner.token() ?? "")
                challenge.parameters[name.lowercased()] = value
            }
            challenges.append(challenge)
        }
        return challenges
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index >= scalars.count }
        var peek: Unicode.Scalar? { atEnd ? nil : scalars[index] }

        mutating func skip(whitespaceAndCommas commas: Bool) {
            while let scalar = peek, scalar == " " || scalar == "\t" || (commas && scalar == ",") { index += 1 }
        }

        /// RFC 9110 tchar+.
        mutating func token() -> String? {
            let start = index
            while let scalar = peek, scalar.isASCII,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
            {
                index += 1
            }
            return index > start ? String(String.UnicodeScalarView(scalars[start..<index])) : nil
        }

        mutating func token68() -> String {
            let start = index
            while let scalar = peek, scalar != ",", scalar != " " { index += 1 }
            return String(String.UnicodeScalarView(scalars[start..<index]))
        }

        /// A quoted-string, backslash escapes undone.
        mutating func quoted() -> String {
            index += 1
            var text = String.UnicodeScalarView()
            while let scalar = peek {
                index += 1
                if scalar == "\"" { break }
                if scalar == "\\", let next = peek {
                    index += 1
                    text.append(next)
                } else {
                    text.append(scalar)
                }
            }
            return String(text)
        }
    }
}
