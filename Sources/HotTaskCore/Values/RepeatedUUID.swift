import FoundationEssentials
import Glibc

/// An id read as text, with the last one read kept beside its text: a family's subtasks are
/// stored one after another, each naming the same parent, and comparing 36 bytes costs less
/// than reading them as hex again (a tenth of the extra cost of 20,000 families to `--list`).
struct RepeatedUUID {
    private var text: (UInt64, UInt64, UInt64, UInt64, UInt32) = (0, 0, 0, 0, 0)
    private var id: UUID?

    /// The id `text` spells (as `UUIDBytes.parse` reads it), or nil.
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36, let base = bytes.baseAddress else { return UUIDBytes.parse(bytes) }
        let raw = UnsafeRawPointer(base)
        let words = (
            raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 32, as: UInt32.self)
        )
        if let id, words == text { return id }
        let parsed = UUIDBytes.parse(bytes)
        if let parsed {
            text = words
            id = parsed
        }
        return parsed
    }
}
