/// Decodes the terminal's input one byte at a time. A byte that cannot be UTF-8 here is U+FFFD
/// at once, and the byte that showed a character was cut short is read as itself: no key is
/// ever swallowed by a broken character before it (ncurses' `get_wch` waited for the bytes it
/// expected and took the next key with them).
public struct UTF8Bytes: Sendable {
    private var scalar: UInt32 = 0
    private var needed = 0
    /// The allowed range of the next continuation byte (narrower after E0, ED, F0, F4).
    private var next: ClosedRange<UInt8> = 0x80...0xBF

    public init() {}

    /// A character has begun and its remaining bytes have not come yet.
    public var isPending: Bool { needed > 0 }

    public mutating func feed(_ byte: UInt8) -> [Unicode.Scalar] {
        if needed > 0 {
            guard next.contains(byte) else {
                needed = 0
                return ["\u{FFFD}"] + feed(byte)
            }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
            needed -= 1
            next = 0x80...0xBF
            guard needed == 0 else { return [] }
            return [Unicode.Scalar(scalar) ?? "\u{FFFD}"]
        }
        switch byte {
        case 0x00...0x7F: return [Unicode.Scalar(byte)]
        case 0xC2...0xDF: start(byte & 0x1F, needed: 1, next: 0x80...0xBF)
        case 0xE0: start(0, needed: 2, next: 0xA0...0xBF)
        case 0xED: start(0x0D, needed: 2, next: 0x80...0x9F)
        case 0xE1...0xEF: start(byte & 0x0F, needed: 2, next: 0x80...0xBF)
        case 0xF0: start(0, needed: 3, next: 0x90...0xBF)
        case 0xF4: start(4, needed: 3, next: 0x80...0x8F)
        case 0xF1...0xF3: start(byte & 0x07, needed: 3, next: 0x80...0xBF)
        default: return ["\u{FFFD}"]  // a stray continuation byte, C0, C1, F5–FF
        }
        return []
    }

    /// Nothing more came: a character cut short is U+FFFD.
    public mutating func flush() -> [Unicode.Scalar] {
        guard needed > 0 else { return [] }
        needed = 0
        return ["\u{FFFD}"]
    }

    private mutating func start(_ bits: UInt8, needed: Int, next: ClosedRange<UInt8>) {
        scalar = UInt32(bits)
        self.needed = needed
        self.next = next
    }
}
