import FoundationEssentials
import Glibc

/// A hybrid logical clock reading: wall-clock milliseconds and a counter.
///
/// Every change is stamped with one. A new stamp is the later of the wall clock and the last
/// stamp seen, plus one, so stamps only move forward even when the wall clock jumps back or
/// another process's clock runs ahead; a task imported with a 2030 date does not freeze it.
/// Written as `"<milliseconds>.<counter>"`, which compares as the pair.
public struct Clock: Comparable, Hashable, Sendable, CustomStringConvertible {
    var milliseconds: Int64
    var counter: Int32

    init(milliseconds: Int64, counter: Int32 = 0) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    init(_ milliseconds: Int64, _ counter: Int32) {
        self.init(milliseconds: milliseconds, counter: counter)
    }

    /// Both parts, to be stored apart (`FieldClocks`).
    var parts: (Int64, Int32) { (milliseconds, counter) }

    /// Earlier than any stamp a change gets (the clock of fields nobody has changed yet).
    public static let zero = Clock(milliseconds: 0)

    /// The latest wall-clock time a stamp may claim (9999-12-31): anything later read from a file
    /// is refused rather than allowed to push every later stamp past it.
    static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// The stamp for a change made now, after `last` (the latest stamp in the store).
    static func next(after last: Clock, now: Date) -> Clock {
        let wall = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        if wall > last.milliseconds { return Clock(milliseconds: wall) }
        // The counter is wide enough for two billion stamps in one millisecond; past that the
        // millisecond moves on instead of wrapping.
        if last.counter == Int32.max { return Clock(milliseconds: last.milliseconds + 1) }
        return Clock(milliseconds: last.milliseconds, counter: last.counter + 1)
    }

    public static func < (a: Clock, b: Clock) -> Bool {
        (a.milliseconds, a.counter) < (b.milliseconds, b.counter)
    }

    /// The wall-clock time the stamp carries (to the second, as the store keeps dates).
    var date: Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds / 1000))
    }

    public var description: String { "\(milliseconds).\(counter)" }

    /// Reads `"<milliseconds>.<counter>"`; nil for anything else, negative or out of range.
    init?(_ text: Substring) {
        var text = text
        guard let clock = text.withUTF8({ Clock(utf8: $0) }) else { return nil }
        self = clock
    }

    init?(_ text: String) {
        self.init(Substring(text))
    }

    /// `init(_:)` on the text's UTF-8 bytes (the store reader's path: no String is made).
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")),
            let milliseconds = Self.decimal(UnsafeBufferPointer(rebasing: bytes[..<dot]), limit: Self.latestMilliseconds),
            let counter = Self.decimal(UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]), limit: Int64(Int32.max))
        else { return nil }
        self.init(milliseconds: milliseconds, counter: Int32(counter))
    }

    /// 1 to 18 decimal digits, at most `limit`; nil for anything else (no sign, no trap).
    private static func decimal(_ digits: UnsafeBufferPointer<UInt8>, limit: Int64) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value <= limit ? value : nil
    }
}
