import FoundationEssentials
import Glibc

/// What the fast readers (`FastStoreDecoder`, `FastTaskwarriorDecoder`) share: reading through a
/// file window, literals, keys and strings without escapes, and where a second thread may start.
/// Each gives up (`GiveUp`) on anything unusual and leaves the error message to the strict parser.
extension JSONParser {
    /// The file offset of `index`.
    var position: Int { origin + index }

    /// Called between two values, where nothing the caller holds points into the window: when
    /// less than a sixteenth of it is left (64 KB of 1 MB), slides it on, so that every value up
    /// to that size is whole in it. Larger ones are caught by `element`.
    mutating func refillIfLow() {
        guard let window, !window.holdsTheRest, bytes.count - index < window.capacity / 16 else { return }
        window.slide(to: position)
        self = JSONParser(window)
    }

    /// One value read by `read`, from where this stands. A value that does not read before the
    /// window's end may only have run off the window: it is read again from a window twice the
    /// size, until the window holds the rest of the file; only then is its failure the value's.
    mutating func element<T>(_ read: (inout JSONParser) throws -> T) throws -> T {
        while true {
            let start = position
            do {
                return try read(&self)
            } catch {
                guard let window, !window.holdsTheRest else { throw error }
                window.grow(from: start)
                self = JSONParser(window)
            }
        }
    }

    /// Goes on reading at file offset (or, for bytes in memory, index) `target`.
    mutating func seek(to target: Int) {
        if let window {
            window.restart(at: target)
            self = JSONParser(window)
        } else {
            index = target
        }
    }

    /// Only whitespace is left, to the end of the file, and every read of it succeeded.
    mutating func atEndOfInput() -> Bool {
        while true {
            skipWhitespace()
            guard index == bytes.count else { return false }
            guard let window else { return true }
            if window.holdsTheRest { return !window.failed }
            window.slide(to: position)
            self = JSONParser(window)
        }
    }

    mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw GiveUp() }
        index += 1
    }

    /// True and consumed when the next byte is `byte`.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Where a thread may start reading elements near `near` (a file offset, or an index for
    /// bytes in memory): the `{` of the first line at or after it that starts with `{` after a
    /// line ending in `,`. A line break never occurs inside a JSON string (it would have to be
    /// escaped), so this is an element of some array; `segmentedArray` checks that it is one of
    /// this array's.
    func elementStart(near: Int) -> Int? {
        guard let window else { return Self.lineStartingAnElement(in: bytes, from: near, notBefore: index) }
        let end = window.file.size
        // A probe of the file around the offset: a little before it, for the `,` ending the line before.
        let probeStart = max(near - 4096, 0)
        guard let probe = FileSystem.readExactly(window.file.fd, at: probeStart, count: min(near - probeStart + 1 << 16, end - probeStart)) else {
            return nil
        }
        return probe.withUnsafeBufferPointer { Self.lineStartingAnElement(in: $0, from: near - probeStart, notBefore: 0) }.map { probeStart + $0 }
    }

    private static func lineStartingAnElement(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, notBefore floor: Int) -> Int? {
        var at = start
        let limit = min(bytes.count, at + (1 << 16))
        while at < limit {
            guard bytes[at] == 0x0A else {
                at += 1
                continue
            }
            var before = at - 1
            while before > floor, bytes[before] == 0x20 || bytes[before] == 0x0D || bytes[before] == 0x09 { before -= 1 }
            var after = at + 1
            while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
            if bytes[before] == UInt8(ascii: ","), after < bytes.count, bytes[after] == UInt8(ascii: "{") { return after }
            at += 1
        }
        return nil
    }

    /// Reads an object `{"key": value, ...}`, calling `body` at each value with its key's bytes
    /// (matched against literals with `~=`; a key with an escape gives up, as an unknown one does).
    mutating func forEachKey(_ body: (inout JSONParser, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        repeat {
            skipWhitespace()
            let key = try plainString()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try body(&self, key)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// A string, which must start here (`parseString` expects its caller to have checked).
    /// `["a", "b"]`, each string as written.
    mutating func stringArray() throws -> [String] {
        var strings: [String] = []
        try expect(UInt8(ascii: "["))
        if !take(UInt8(ascii: "]")) {
            repeat {
                skipWhitespace()
                strings.append(try quotedString())
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
        }
        return strings
    }

    mutating func quotedString() throws -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
        return try parseString()
    }

    /// The bytes of a string without escapes (ids and dates never have any).
    mutating func plainString() throws -> UnsafeBufferPointer<UInt8> {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
        let start = index + 1
        var end = firstNotPlain(from: start)
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\") else { throw GiveUp() }
            end += 1
        }
        guard end < bytes.count else { throw GiveUp() }
        index = end + 1
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// The first byte from `start` on that is not printable ASCII (0x20–0x7E) or is `"` or `\`,
    /// or the end: eight bytes at a time, as the store's strings are long runs of such bytes
    /// (this scan was a tenth of the store read, byte by byte).
    func firstNotPlain(from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var at = start
        while at + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            let stops = Self.notPlainBytes(word)
            // The lowest flagged byte is exact (a borrow only runs upwards from it).
            if stops != 0 { return at + stops.trailingZeroBitCount / 8 }
            at += 8
        }
        while at < bytes.count, bytes[at] >= 0x20, bytes[at] < 0x7F, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\") {
            at += 1
        }
        return at
    }

    /// The high bit of each byte of `word` that is below 0x20, 0x7F or above, `"` or `\`
    /// (byte 0 lowest); bytes above the lowest flagged one may be flagged wrongly.
    private static func notPlainBytes(_ word: UInt64) -> UInt64 {
        ByteWord.below(word, 0x20) | word & ByteWord.highs | ByteWord.equal(word, UInt8(ascii: "\"")) | ByteWord.equal(word, UInt8(ascii: "\\"))
            | ByteWord.equal(word, 0x7F)
    }

    mutating func boolean() throws -> Bool {
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw GiveUp()
    }

    mutating func takeNull() -> Bool {
        matchLiteral("null")
    }

    mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }
}

/// A key or value's bytes against a literal, so that `switch` can match bytes without a String.
func ~= (literal: StaticString, bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    sameBytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount), bytes)
}

/// Equal bytes, by memcmp (`elementsEqual` took 600 instructions for two dates).
func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let left = a.baseAddress, let right = b.baseAddress else { return true }
    return memcmp(left, right, a.count) == 0
}

/// Why the fast path stopped: the strict parser takes over.
struct GiveUp: Error {}

/// The value, or give up when it did not parse.
func required<T>(_ value: T?) throws -> T {
    guard let value else { throw GiveUp() }
    return value
}
