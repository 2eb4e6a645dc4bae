import FoundationEssentials

// The few text operations HotTask took from the full Foundation, which it no longer links (its
// ICU data was most of the package; see DECISIONS, Packaging). Each behaves as Foundation's did
// for what HotTask asks of it; `TextEssentialsTests` compares them with Foundation's.

extension Unicode.Scalar {
    /// Foundation's `CharacterSet.letters`: the general categories L and M.
    public var isLetterOrMark: Bool {
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark:
            true
        default: false
        }
    }

    /// Foundation's `CharacterSet.alphanumerics`: the general categories L, M and N.
    public var isAlphanumeric: Bool {
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber: true
        default: isLetterOrMark
        }
    }
}

extension StringProtocol {
    /// Whether the two are equal but for case, as `caseInsensitiveCompare` had it ("straße" and
    /// "STRASSE" too: both sides are upper-cased, then lower-cased).
    public func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        if self == other { return true }
        return uppercased().lowercased() == other.uppercased().lowercased()
    }

    /// The text with each `%XX` decoded, or nil where one is malformed or the bytes are not
    /// UTF-8 (as `removingPercentEncoding`).
    public var percentDecoded: String? {
        guard contains("%") else { return String(self) }
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The text with every byte outside `urlPathAllowed` percent-encoded, as
    /// `addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)`.
    public var percentEncodedPath: String {
        var out = ""
        for byte in utf8 {
            if Self.pathAllowed(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `urlPathAllowed`: ASCII letters and digits and `!$&'()*+,-./:=@_~`.
    private static func pathAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!$&'()*+,-./:=@_~".utf8.contains(byte)
        }
    }
}

extension BinaryInteger {
    /// The number in decimal with zeros before it to `width` characters, a sign counted
    /// (`%02d`, `%04d`).
    public func zeroPadded(_ width: Int) -> String {
        let digits = String(self.magnitude)
        let sign = self < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }
}

extension Double {
    /// The number with one decimal, rounded half away from zero (`%.1f` for what HotTask shows).
    public var oneDecimal: String {
        let tenths = (self * 10).rounded(.toNearestOrAwayFromZero)
        let whole = Int(tenths.magnitude) / 10
        return (tenths < 0 ? "-" : "") + "\(whole).\(Int(tenths.magnitude) % 10)"
    }
}
