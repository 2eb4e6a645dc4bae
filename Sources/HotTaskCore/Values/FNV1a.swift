/// FNV-1a, 64 bits: the store's checksums, captions' fingerprints and ids made from text.
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    static func hash<Bytes: Sequence>(_ bytes: Bytes, seed: UInt64 = offsetBasis) -> UInt64 where Bytes.Element == UInt8 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// The hash of bytes in memory: a loop over a pointer, which even a debug build compiles
    /// to a few instructions a byte (the generic one walked a log's checksums through an
    /// iterator call per byte, a tenth of a first upload's CPU there).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        guard let base = bytes.baseAddress else { return hash }
        var index = 0
        while index < bytes.count {
            hash ^= UInt64(base[index])
            hash = hash &* prime
            index += 1
        }
        return hash
    }

    /// The hash of a text's UTF-8 bytes, read from its storage: a string's bytes one by one
    /// through its view cost twice as much (a fingerprint of each caption an export records).
    static func hash(_ text: String.UTF8View, seed: UInt64 = offsetBasis) -> UInt64 {
        if let hash = text.withContiguousStorageIfAvailable({ Self.hash($0, seed: seed) }) { return hash }
        var hash = seed
        for byte in text {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }
}
