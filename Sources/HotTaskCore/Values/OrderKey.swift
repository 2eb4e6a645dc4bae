import FoundationEssentials
import Glibc

/// A task's place in the manual order of its section: keys sort as byte strings, and a new
/// key fits between any two (fractional indexing), so moving one task changes one task.
///
/// The scheme is the one Figma and Replicache use: an integer part whose first character
/// says how many digits follow (`a0` is the middle, `Zz` just before it, `b00` far after),
/// then an optional fraction in base 62 that never ends in `0`. Adding on top or at the end
/// again and again makes keys grow logarithmically, not by one character per task.
public struct OrderKey: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The key's ASCII text.
    let text: String

    /// A key read from a file; nil unless it is one this scheme can produce.
    init?(_ text: String) {
        guard Self.isValid(Array(text.utf8)) else { return nil }
        self.text = text
    }

    /// `init(_:)` on the text's UTF-8 bytes (the store reader's path).
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard Self.isValid(bytes) else { return nil }
        text = String(decoding: bytes, as: UTF8.self)
    }

    private init(unchecked bytes: [UInt8]) {
        text = String(decoding: bytes, as: UTF8.self)
    }

    private init(text: String) {
        self.text = text
    }

    /// The first key of an empty section.
    public static let middle = OrderKey(unchecked: Array("a0".utf8))

    /// The first eight bytes as one number (zeros past the end): two keys whose prefixes
    /// differ compare as their prefixes do (keys are ASCII, with no zero byte), so a sort of
    /// many compares numbers and reads the keys only on a tie.
    var prefix: UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 56
        for byte in text.utf8.prefix(8) {
            value |= UInt64(byte) << shift
            shift &-= 8
        }
        return value
    }

    /// By bytes, compared in place: through the UTF-8 views it took 340 instructions a pair,
    /// and a store read compares every task with the one before it.
    public static func < (a: OrderKey, b: OrderKey) -> Bool {
        let inPlace = a.text.utf8.withContiguousStorageIfAvailable { left in
            b.text.utf8.withContiguousStorageIfAvailable { right in precedes(left, right) }
        }
        return inPlace.flatMap { $0 } ?? a.text.utf8.lexicographicallyPrecedes(b.text.utf8)
    }

    private static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let order = memcmp(left, right, common)
            if order != 0 { return order < 0 }
        }
        return a.count < b.count
    }

    public var description: String { text }

    // MARK: Making keys

    /// A key after `before` (nil: no lower bound) and before `after` (nil: no upper bound).
    /// `before` must sort before `after`.
    static func between(_ before: OrderKey?, _ after: OrderKey?) -> OrderKey {
        if after == nil, let before, let next = incremented(before) { return next }
        return computed(before, after)
    }

    /// `between` by the general algorithm, without the shortcut (whose test compares the two).
    static func computed(_ before: OrderKey?, _ after: OrderKey?) -> OrderKey {
        let a = before.map { Array($0.text.utf8) }
        let b = after.map { Array($0.text.utf8) }
        return OrderKey(unchecked: keyBetween(a, b))
    }

    /// `count` keys in increasing order after `before` and before `after`, spread so that
    /// each is short (used when a whole list is given an order at once).
    static func sequence(_ count: Int, after before: OrderKey? = nil, before after: OrderKey? = nil) -> [OrderKey] {
        guard count > 0 else { return [] }
        var keys = [OrderKey](repeating: middle, count: count)
        keys.withUnsafeMutableBufferPointer { fill($0[...], after: before, before: after) }
        return keys
    }

    /// The middle slot gets the key between the bounds, each half the keys on its side. Filled in
    /// place: joining the halves' arrays copied every key once a level (17 times at 100,000).
    private static func fill(_ slots: Slice<UnsafeMutableBufferPointer<OrderKey>>, after before: OrderKey?, before after: OrderKey?) {
        guard !slots.isEmpty else { return }
        let middle = slots.startIndex + slots.count / 2
        let key = between(before, after)
        slots.base[middle] = key
        fill(slots.base[slots.startIndex..<middle], after: before, before: key)
        fill(slots.base[(middle + 1)..<slots.endIndex], after: key, before: after)
    }

    // MARK: The algorithm, on ASCII bytes

    private static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let zero = digits[0]
    /// The smallest integer part ("A" and 26 zeros): nothing can go before it but fractions.
    private static let smallestInteger = [UInt8(ascii: "A")] + [UInt8](repeating: zero, count: 26)

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x5A: Int(byte - 0x41) + 10
        case 0x61...0x7A: Int(byte - 0x61) + 36
        default: nil
        }
    }

    /// How long the integer part that starts with `head` is (head included).
    private static func integerLength(_ head: UInt8) -> Int? {
        switch head {
        case 0x61...0x7A: Int(head - 0x61) + 2
        case 0x41...0x5A: Int(0x5A - head) + 2
        default: nil
        }
    }

    static func isValid<Bytes: BidirectionalCollection<UInt8>>(_ key: Bytes) -> Bool {
        guard let head = key.first, let length = integerLength(head), key.count >= length,
            key.dropFirst().allSatisfy({ digitValue($0) != nil }),
            !key.prefix(length).elementsEqual(smallestInteger) || key.count > length
        else { return false }
        return key.count == length || key.last != zero
    }

    private static func keyBetween(_ a: [UInt8]?, _ b: [UInt8]?) -> [UInt8] {
        switch (a, b) {
        case (nil, nil):
            return Array("a0".utf8)
        case (nil, let b?):
            let integer = integerPart(b)
            let fraction = Array(b[integer.count...])
            if integer == smallestInteger { return integer + midpoint([], fraction) }
            if integer.count < b.count { return integer }
            return decrement(integer) ?? integer + midpoint([], fraction)
        case (let a?, nil):
            let integer = integerPart(a)
            let fraction = Array(a[integer.count...])
            return increment(integer) ?? integer + midpoint(fraction, nil)
        case (let a?, let b?):
            let integerA = integerPart(a)
            let integerB = integerPart(b)
            if integerA == integerB {
                return integerA + midpoint(Array(a[integerA.count...]), Array(b[integerB.count...]))
            }
            if let next = increment(integerA), next.lexicographicallyPrecedes(b) { return next }
            return integerA + midpoint(Array(a[integerA.count...]), nil)
        }
    }

    private static func integerPart(_ key: [UInt8]) -> [UInt8] {
        Array(key.prefix(integerLength(key[0]) ?? 1))
    }

    /// A fraction strictly between `a` and `b` (nil: 1), neither ending in zero.
    private static func midpoint(_ a: [UInt8], _ b: [UInt8]?) -> [UInt8] {
        if let b {
            // Common prefix, reading a missing digit of `a` as zero.
            var shared = 0
            while shared < b.count, (shared < a.count ? a[shared] : zero) == b[shared] { shared += 1 }
            if shared > 0 {
                return Array(b.prefix(shared))
                    + midpoint(Array(a.dropFirst(min(shared, a.count))), Array(b.dropFirst(shared)))
            }
        }
        let digitA = a.first.flatMap(digitValue) ?? 0
        let digitB = b.flatMap { $0.first.flatMap(digitValue) } ?? digits.count
        if digitB - digitA > 1 {
            return [digits[(digitA + digitB + 1) / 2]]
        }
        if let b, b.count > 1 { return [b[0]] }
        return [digits[digitA]] + midpoint(Array(a.dropFirst()), nil)
    }

    /// `between(key, nil)` for a key without a fraction whose last digits carry short of its
    /// head (every key an import adds at the end but one in 62): its last digit plus one, in one
    /// array where the general path made six (a twentieth of a 100,000-task import). nil: the
    /// general path decides.
    private static func incremented(_ key: OrderKey) -> OrderKey? {
        var text = key.text
        // Made on the stack (an array and a String per key were most of giving 100,000
        // imported tasks their keys); a key of at most 15 bytes is a String with no storage.
        return text.withUTF8 { utf8 -> OrderKey? in
            guard let head = utf8.first, integerLength(head) == utf8.count else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count) { bytes -> OrderKey? in
                _ = bytes.initialize(fromContentsOf: utf8)
                var index = bytes.count - 1
                while index > 0 {
                    guard let value = digitValue(bytes[index]) else { return nil }
                    if value + 1 < digits.count {
                        bytes[index] = digits[value + 1]
                        return OrderKey(text: String(decoding: bytes, as: UTF8.self))
                    }
                    bytes[index] = zero
                    index -= 1
                }
                return nil
            }
        }
    }

    /// The next integer part, or nil past the largest one.
    private static func increment(_ integer: [UInt8]) -> [UInt8]? {
        var head = integer[0]
        var body = Array(integer.dropFirst())
        var carry = true
        for index in body.indices.reversed() where carry {
            let value = (digitValue(body[index]) ?? 0) + 1
            if value == digits.count {
                body[index] = zero
            } else {
                body[index] = digits[value]
                carry = false
            }
        }
        guard carry else { return [head] + body }
        if head == UInt8(ascii: "Z") { return Array("a0".utf8) }
        if head == UInt8(ascii: "z") { return nil }
        head += 1
        if head > UInt8(ascii: "a") { body.append(zero) } else { body.removeLast() }
        return [head] + body
    }

    /// The previous integer part, or nil before the smallest one.
    private static func decrement(_ integer: [UInt8]) -> [UInt8]? {
        var head = integer[0]
        var body = Array(integer.dropFirst())
        var borrow = true
        let top = digits[digits.count - 1]
        for index in body.indices.reversed() where borrow {
            let value = (digitValue(body[index]) ?? 0) - 1
            if value == -1 {
                body[index] = top
            } else {
                body[index] = digits[value]
                borrow = false
            }
        }
        guard borrow else { return [head] + body }
        if head == UInt8(ascii: "a") { return Array("Zz".utf8) }
        if head == UInt8(ascii: "A") { return nil }
        head -= 1
        if head < UInt8(ascii: "Z") { body.append(top) } else { body.removeLast() }
        return [head] + body
    }
}
