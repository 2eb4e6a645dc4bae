/// Eight bytes tested at once, as one 64-bit word (the store reader's, the import count's and
/// the caption rule's scans). Each test sets the high bit of the bytes it finds; the lowest such
/// byte is exact, the bytes above it may be flagged wrongly (a borrow runs upwards).
enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The bytes of `word` below `n` (at most 0x80).
    static func below(_ word: UInt64, _ n: UInt64) -> UInt64 { (word &- ones &* n) & ~word & highs }

    /// The bytes of `word` equal to `byte`.
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 { below(word ^ (ones &* UInt64(byte)), 1) }
}
