import FoundationEssentials
import Glibc

/// Builds pretty-printed JSON text with keys in the order they are written.
///
/// The store's key order is part of its readability (`id`, `caption`, … as docs/STORE.md shows), which
/// JSONEncoder does not promise; writing by hand also keeps a save cheap.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// One line, no indentation (journal entries).
    var compact = false

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Empty again, keeping its room (for writing in pieces: once a piece handed out is done
    /// with, the buffer is reused, not allocated again).
    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func raw(_ bytes: [UInt8]) {
        self.bytes.append(contentsOf: bytes)
    }

    /// Appends a date as a quoted ISO 8601 string.
    mutating func date(_ date: Date) {
        bytes.append(0x22)
        Timestamp.append(date, to: &bytes)
        bytes.append(0x22)
    }

    /// Appends a UUID as a quoted lowercase string.
    mutating func uuid(_ id: UUID) {
        bytes.append(0x22)
        UUIDBytes.append(id, to: &bytes)
        bytes.append(0x22)
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a stamp as `clockText` has it, `<milliseconds>.<counter>`, without making a
    /// String of it (one per stamp of every task was a tenth of a store's encoding).
    mutating func clock(_ clock: Clock) {
        guard clock.milliseconds >= 0, clock.counter >= 0 else { return raw(clock.description) }
        appendDigits(UInt64(clock.milliseconds))
        bytes.append(0x2E)
        appendDigits(UInt64(clock.counter))
    }

    private mutating func appendDigits(_ value: UInt64) {
        Self.appendDigits(value, to: &bytes)
    }

    /// `value`'s decimal digits, made in place and appended at once (no String for them).
    static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64.max's 20 digits
        withUnsafeMutableBytes(of: &digits) { raw in
            var value = value
            var at = raw.count
            repeat {
                at -= 1
                raw[at] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            } while value > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[at...]).bindMemory(to: UInt8.self))
        }
    }

    /// A line break and 16 spaces: indents are its first bytes (appending a repeated element
    /// byte by byte was a twentieth of an import). A StaticString, not an array: slicing a
    /// static array retained and released it on every key, a tenth of a snapshot's encoding.
    private static let breakAndSpaces: StaticString = "\n                "

    mutating func newline(indent: Int) {
        guard !compact else { return }
        if indent < Self.breakAndSpaces.utf8CodeUnitCount {
            bytes.append(contentsOf: UnsafeBufferPointer(start: Self.breakAndSpaces.utf8Start, count: indent + 1))
        } else {
            bytes.append(0x0A)
            bytes.append(contentsOf: repeatElement(0x20, count: indent))
        }
    }

    /// `["a", "b"]`: an array of strings on one line.
    mutating func strings(_ texts: [String]) {
        raw("[")
        for (offset, text) in texts.enumerated() {
            if offset > 0 { raw(", ") }
            string(text)
        }
        raw("]")
    }

    mutating func string(_ text: String) {
        bytes.append(0x22)
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            // Runs that need no escape are copied whole (most captions are one run), and an
            // escape appends its bytes one by one: a sync state's JSON, a quote every few bytes,
            // made an array per escape, a tenth of a first upload's CPU in a debug build.
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = base[index]
                if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F {
                    index += 1
                    continue
                }
                if start < index { bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start)) }
                appendEscaped(byte)
                index += 1
                start = index
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: utf8.count - start)) }
        }
        bytes.append(0x22)
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        bytes.append(0x5C)
        switch byte {
        case 0x22, 0x5C: bytes.append(byte)
        case 0x0A: bytes.append(0x6E)
        case 0x09: bytes.append(0x74)
        case 0x0D: bytes.append(0x72)
        default:
            let hex = UUIDBytes.hexDigits
            bytes.append(0x75)
            bytes.append(0x30)
            bytes.append(0x30)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }

    /// Writes `"key": ` at the given indent, preceded by a comma unless it is the first key.
    /// Keys are the store's own names, never needing an escape: copied as they are.
    mutating func key(_ name: StaticString, indent: Int, first: Bool) {
        if !first { bytes.append(0x2C) }
        newline(indent: indent)
        bytes.append(0x22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(0x22)
        bytes.append(0x3A)
        bytes.append(0x20)
    }
}
