/// Finding bytes in bytes at memory speed, with glibc's memmem (two-way search).
enum ByteSearch {
    /// Where `needle` first starts in `buffer` at or after `from`; nil when it does not.
    static func firstIndex(of needle: UnsafeBufferPointer<UInt8>, in buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = buffer.baseAddress, from < buffer.count else { return nil }
        guard let hit = c_memmem(base + from, buffer.count - from, needle.baseAddress, needle.count) else { return nil }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }

    /// How often `needle` occurs in `bytes`, not overlapping.
    static func count(of needle: [UInt8], in bytes: [UInt8]) -> Int {
        needle.withUnsafeBufferPointer { needle in
            bytes.withUnsafeBufferPointer { buffer in
                var count = 0
                var from = 0
                while let at = firstIndex(of: needle, in: buffer, from: from) {
                    count += 1
                    from = at + needle.count
                }
                return count
            }
        }
    }
}

/// Swift's Glibc module does not import memmem.
@_silgen_name("memmem")
private func c_memmem(_ haystack: UnsafeRawPointer?, _ haystackLength: Int, _ needle: UnsafeRawPointer?, _ needleLength: Int)
    -> UnsafeMutableRawPointer?
