import FoundationEssentials
import Glibc

/// Blanks as Foundation's `whitespaces` has them, trimmed from UTF-8 bytes: the one rule for
/// what a todo.txt line and an iCalendar value lose at their ends.
enum Blanks {
    /// The range of `text` without blanks at either end. `text` is valid UTF-8.
    static func trimmed(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ isBlank: (Unicode.Scalar) -> Bool = isBlank
    ) -> Range<Int> {
        var start = range.lowerBound
        var end = range.upperBound
        while start < end, let (scalar, length) = scalar(in: text, at: start, before: end), isBlank(scalar) { start += length }
        while end > start {
            var lead = end - 1
            while lead > start && text[lead] & 0xC0 == 0x80 && end - lead < 4 { lead -= 1 }
            guard let (scalar, length) = scalar(in: text, at: lead, before: end), lead + length == end, isBlank(scalar) else { break }
            end = lead
        }
        return start..<end
    }

    /// Foundation's `whitespaces`: tab, space, no-break space, U+1680, U+2000–U+200B (the
    /// zero-width space too), U+202F, U+205F and U+3000 (checked against `CharacterSet`).
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Foundation's `whitespacesAndNewlines`: the blanks, and U+000A–U+000D, U+0085, U+2028, U+2029.
    static func isBlankOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: isBlank(scalar)
        }
    }

    /// The scalar that starts at `at` and its length.
    private static func scalar(in text: UnsafeBufferPointer<UInt8>, at: Int, before end: Int) -> (Unicode.Scalar, Int)? {
        let lead = text[at]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard at + length <= end else { return nil }
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<max(length, 1) where length > 1 { value = value << 6 | UInt32(text[at + offset] & 0x3F) }
        return Unicode.Scalar(value).map { ($0, length) }
    }
}

extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)`, without its cost when there is nothing to trim:
    /// every iCalendar value read asks (a seventh of a 100,000-task import).
    public func trimmingBlanks() -> String { trimming(Blanks.isBlank) }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    public func trimmingBlanksAndNewlines() -> String { trimming(Blanks.isBlankOrNewline) }

    private func trimming(_ isBlank: (Unicode.Scalar) -> Bool) -> String {
        var text = String(self)
        guard let first = text.utf8.first, let last = text.utf8.last else { return "" }
        func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x80 }
        if plain(first) && plain(last) { return text }
        return text.withUTF8 { bytes in
            let kept = Blanks.trimmed(bytes, 0..<bytes.count, isBlank)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[kept]), as: UTF8.self)
        }
    }
}
