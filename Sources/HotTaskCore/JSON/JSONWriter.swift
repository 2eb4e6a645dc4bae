import FoundationEssentials
import Glibc

/// Builds pretty-printed JSON text with keys in the order they are written.
///
/// The store's key order is part of its readability (`id`, `caption`, … as docs/STORE.md shows), which
/// JSONEncoder does not promise; writing by hand also keeps a save cheap.
///
/// Each piece is written straight into the room after the text, made once for it: appended to
/// an array byte by byte or run by run, each append checked the array's room and uniqueness,
/// a quarter of encoding a snapshot or an export.
struct JSONWriter {
    /// The text is `storage[..<count]`; the rest is room.
    private var storage: [UInt8]
    /// How many bytes are written.
    private(set) var count = 0
    /// One line, no indentation (journal entries).
    var compact = false

    init(capacity: Int = 0) {
        storage = [UInt8](repeating: 0, count: capacity)
    }

    /// The text written so far.
    var bytes: [UInt8] { Array(storage[..<count]) }

    /// Gives `body` the text written so far without copying it: the room after it is taken off
    /// for the call and put back after. A copy of each piece of a snapshot or an export was a
    /// new megabyte touched for the first time, 30 MB of page faults for 100,000 tasks (an array
    /// `body` keeps is copied when the writer writes on, as any array).
    mutating func withText(_ body: ([UInt8]) -> Void) {
        var room = storage.count - count
        storage.removeLast(room)
        body(storage)
        // The room put back from a block of zeros, a copy at a time: put back element by
        // element (`repeatElement`), it was a loop a byte in a debug build, and the tests'
        // exports in pieces of one task each took eight minutes.
        while room > 0 {
            let run = min(room, Self.zeros.count)
            storage.append(contentsOf: Self.zeros[..<run])
            room -= run
        }
    }

    private static let zeros = [UInt8](repeating: 0, count: 1 << 16)

    /// Empty again, keeping its room (for writing in pieces: once a piece handed out is done
    /// with, the buffer is reused, not allocated again).
    mutating func clear() {
        count = 0
    }

    /// Lets `body` write at most `room` bytes at the end of the text; it returns how many it wrote.
    @inline(__always)
    private mutating func write(room: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if storage.count - count < room { storage.append(contentsOf: repeatElement(0, count: max(room, storage.count, 256))) }
        let at = count
        count += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + at) }
    }

    mutating func raw(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { raw($0) }
    }

    private mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        write(room: bytes.count) { out in
            out.update(from: base, count: bytes.count)
            return bytes.count
        }
    }

    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { raw($0) }
    }

    /// One byte.
    private mutating func byte(_ byte: UInt8) {
        write(room: 1) { out in
            out[0] = byte
            return 1
        }
    }

    /// The `length` bytes written from `offset` on, once more (a date the same as the last).
    mutating func repeating(from offset: Int, count length: Int) {
        let back = count - offset
        write(room: length) { out in
            out.update(from: out - back, count: length)
            return length
        }
    }

    /// Appends a date as a quoted ISO 8601 string.
    mutating func date(_ date: Date) {
        var written = false
        write(room: 22) { out in
            out[0] = 0x22
            let length = Timestamp.write(date, to: out + 1)
            written = length > 0
            out[length + 1] = 0x22
            return written ? length + 2 : 0
        }
        guard !written else { return }
        // A year past 9999 keeps all its digits, through the general form.
        var text: [UInt8] = [0x22]
        Timestamp.append(date, to: &text)
        text.append(0x22)
        raw(text)
    }

    /// Appends a due date as a quoted `DueDate.text()`.
    mutating func due(_ due: DueDate) {
        write(room: 27) { out in
            out[0] = 0x22
            // Digits and signs: nothing to escape.
            let length = due.writeText(to: out + 1, local: .current)
            out[length + 1] = 0x22
            return length + 2
        }
    }

    /// Appends a UUID as a quoted lowercase string.
    mutating func uuid(_ id: UUID) {
        write(room: 38) { out in
            out[0] = 0x22
            _ = UUIDBytes.write(id, to: out + 1)
            out[37] = 0x22
            return 38
        }
    }

    /// Appends a stamp as `clockText` has it, `<milliseconds>.<counter>`, without making a
    /// String of it (one per stamp of every task was a tenth of a store's encoding).
    mutating func clock(_ clock: Clock) {
        guard clock.milliseconds >= 0, clock.counter >= 0 else { return raw(clock.description) }
        write(room: 41) { out in
            var at = Self.writeDigits(UInt64(clock.milliseconds), to: out)
            out[at] = 0x2E
            at += 1
            return at + Self.writeDigits(UInt64(clock.counter), to: out + at)
        }
    }

    /// `value`'s decimal digits at `out` (room for 20); how many.
    private static func writeDigits(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 1
        var rest = value / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        var value = value
        for at in (0..<length).reversed() {
            out[at] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        }
        return length
    }

    /// `value`'s decimal digits, made in place and appended at once (no String for them).
    static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64.max's 20 digits
        withUnsafeMutableBytes(of: &digits) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: writeDigits(value, to: out)))
        }
    }

    /// A line break and 16 spaces: indents are its first bytes. A StaticString, not an array:
    /// slicing a static array retained and released it on every key, a tenth of a snapshot's
    /// encoding.
    private static let breakAndSpaces: StaticString = "\n                "

    mutating func newline(indent: Int) {
        guard !compact else { return }
        write(room: max(indent + 1, 16)) { out in Self.lineBreak(indent: indent, at: out) }
    }

    /// A line break and `indent` spaces at `out` (room for 16 bytes at least); how many bytes.
    /// Up to 15 spaces, all 16 bytes are stored at once and the count says how many are kept:
    /// a copy of the few wanted was a call to `memmove` for every key of every task.
    @inline(__always)
    private static func lineBreak(indent: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
        if indent < 16 {
            let raw = UnsafeMutableRawPointer(out)
            raw.storeBytes(of: breakAndSpacesWords.0, as: UInt64.self)
            raw.storeBytes(of: breakAndSpacesWords.1, toByteOffset: 8, as: UInt64.self)
        } else {
            out[0] = 0x0A
            (out + 1).update(repeating: 0x20, count: indent)
        }
        return indent + 1
    }

    /// `breakAndSpaces` as two words, in memory order.
    private static let breakAndSpacesWords: (UInt64, UInt64) = {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(start: breakAndSpaces.utf8Start, count: 16)) }
        return words
    }()

    /// `["a", "b"]`: an array of strings on one line.
    mutating func strings(_ texts: [String]) {
        raw("[")
        for (offset, text) in texts.enumerated() {
            if offset > 0 { raw(", ") }
            string(text)
        }
        raw("]")
    }

    /// How much of a text is escaped at a time: room for its longest escape (six bytes a
    /// byte) is made for a piece, never for a whole note of megabytes.
    private static let escapePiece = 1 << 16

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            repeat {
                let end = min(start + Self.escapePiece, utf8.count)
                write(room: 6 * (end - start) + 2) { out in
                    var at = 0
                    if start == 0 {
                        out[0] = 0x22
                        at = 1
                    }
                    at += Self.escaping(UnsafeBufferPointer(rebasing: utf8[start..<end]), to: out + at)
                    if end == utf8.count {
                        out[at] = 0x22
                        at += 1
                    }
                    return at
                }
                start = end
            } while start < utf8.count
        }
    }

    /// Writes `utf8` with JSON's escapes at `out` (room for six bytes a byte); how many.
    /// Runs that need no escape are copied whole (most captions are one run).
    private static func escaping(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        var at = 0
        var start = 0
        var index = 0
        while index < utf8.count {
            let byte = base[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F {
                index += 1
                continue
            }
            (out + at).update(from: base + start, count: index - start)
            at += index - start
            at += escape(byte, to: out + at)
            index += 1
            start = index
        }
        (out + at).update(from: base + start, count: utf8.count - start)
        return at + utf8.count - start
    }

    /// One byte's escape at `out`; how many bytes.
    private static func escape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x5C
        switch byte {
        case 0x22, 0x5C: out[1] = byte
        case 0x0A: out[1] = 0x6E
        case 0x09: out[1] = 0x74
        case 0x0D: out[1] = 0x72
        default:
            let hex = UUIDBytes.hexDigits
            out[1] = 0x75
            out[2] = 0x30
            out[3] = 0x30
            out[4] = hex[Int(byte >> 4)]
            out[5] = hex[Int(byte & 0xF)]
            return 6
        }
        return 2
    }

    /// Writes `"key": ` at the given indent, preceded by a comma unless it is the first key.
    /// Keys are the store's own names, never needing an escape: copied as they are.
    mutating func key(_ name: StaticString, indent: Int, first: Bool) {
        let length = name.utf8CodeUnitCount
        let compact = compact
        // The comma, the line break and the key in one piece of room (three, with their checks,
        // were a tenth of encoding a task).
        write(room: 1 + max(indent + 1, 16) + length + 4) { out in
            var at = 0
            if !first {
                out[0] = 0x2C
                at = 1
            }
            if !compact { at += Self.lineBreak(indent: indent, at: out + at) }
            out[at] = 0x22
            let name = name.utf8Start
            for index in 0..<length { out[at + 1 + index] = name[index] }
            out[at + length + 1] = 0x22
            out[at + length + 2] = 0x3A
            out[at + length + 3] = 0x20
            return at + length + 4
        }
    }
}
