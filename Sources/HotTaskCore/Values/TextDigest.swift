import FoundationEssentials
import Glibc

/// A text known by the two FNV-1a hashes `UUIDBytes.derived` makes an id from (two seeds).
///
/// Kept instead of a text that is only looked up or made into ids, and made from the text's
/// pieces without joining them: a todo.txt line of 50 MB is not copied once more to be known by
/// its words as an older HotTask read them (issue 50).
struct TextDigest: Hashable, Sendable {
    static let secondSeed: UInt64 = 0x8422_2325_cbf2_9ce4

    private(set) var first = FNV1a.offsetBasis
    private(set) var second = Self.secondSeed

    /// The digest of no text; `add` the pieces in order.
    init() {}

    init(_ bytes: some Collection<UInt8>) {
        first = FNV1a.hash(bytes)
        second = FNV1a.hash(bytes, seed: Self.secondSeed)
    }

    /// The digest of `text`, read in place.
    init(_ text: String) {
        var text = text
        text.withUTF8 { add($0) }
    }

    /// The text so far followed by `piece`.
    mutating func add(_ piece: UnsafeBufferPointer<UInt8>) {
        first = FNV1a.hash(piece, seed: first)
        second = FNV1a.hash(piece, seed: second)
    }

    /// The id made from the text followed by `suffix`: `UUIDBytes.derived(from: text, then: suffix)`.
    func id(then suffix: some Collection<UInt8>) -> UUID {
        var raw =
            withUnsafeBytes(of: FNV1a.hash(suffix, seed: first).bigEndian, Array.init)
            + withUnsafeBytes(of: FNV1a.hash(suffix, seed: second).bigEndian, Array.init)
        raw[6] = (raw[6] & 0x0F) | 0x80
        raw[8] = (raw[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
            ))
    }
}
